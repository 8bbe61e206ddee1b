/*
 * graphics.c - choosing the pixel protocol and encoding pictures in it
 * (see graphics.h for the protocols).
 *
 * The question to the terminal goes out before curses starts, on the
 * terminal itself, in raw mode: the kitty query then DA1. Every terminal
 * answers DA1, so its answer ends the wait; a kitty answer comes before
 * it. A terminal that answers nothing (a pipe, a dumb one) costs the
 * 300 ms wait once, at start. Inside tmux or screen the images would
 * reach the multiplexer, not the terminal: auto gives symbols there.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <chafa.h>

#include "graphics.h"
#include "image.h"
#include "banned.h"

int gfx_parse(const char *value, enum gfx_mode *mode, int *is_auto)
{
	*is_auto = 0;
	*mode = GFX_SYMBOLS;
	if (!value || !value[0] || !strcasecmp(value, "auto"))
		*is_auto = 1;
	else if (!strcasecmp(value, "kitty"))
		*mode = GFX_KITTY;
	else if (!strcasecmp(value, "sixel"))
		*mode = GFX_SIXEL;
	else if (strcasecmp(value, "symbols"))
		return -1;
	return 0;
}

const char *gfx_name(enum gfx_mode mode)
{
	return mode == GFX_KITTY ? "kitty" : mode == GFX_SIXEL ? "sixel" : "symbols";
}

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

/* Ask the terminal on fd; symbols when it does not say. */
static enum gfx_mode ask(int fd)
{
	static const char q[] = "\033_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\033\\\033[c";
	struct termios old, raw;
	char buf[512];
	size_t got = 0;
	long end;
	enum gfx_mode mode = GFX_SYMBOLS;

	if (!isatty(fd) || tcgetattr(fd, &old) < 0)
		return GFX_SYMBOLS;
	raw = old;
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(fd, TCSANOW, &raw) < 0)
		return GFX_SYMBOLS;
	if (write(fd, q, sizeof q - 1) == (ssize_t)(sizeof q - 1)) {
		end = now_ms() + 300;
		while (got < sizeof buf - 1) {
			struct pollfd p = { fd, POLLIN, 0 };
			long left = end - now_ms();
			ssize_t n;
			if (left <= 0 || poll(&p, 1, (int)left) != 1)
				break;
			n = read(fd, buf + got, sizeof buf - 1 - got);
			if (n <= 0)
				break;
			got += (size_t)n;
			buf[got] = '\0';
			/* DA1's answer, ESC [ ? ... c, is the last to come */
			char *da = strstr(buf, "\033[?");
			if (da && strchr(da, 'c'))
				break;
		}
	}
	tcsetattr(fd, TCSANOW, &old);
	buf[got] = '\0';
	if (strstr(buf, "\033_Gi=31;OK"))
		mode = GFX_KITTY;
	else {
		char *da = strstr(buf, "\033[?");
		if (da) {
			/* ESC [ ? 62 ; 4 ; 6 c: attribute 4 is sixel graphics */
			for (char *p = da + 3; *p && *p != 'c';) {
				char *e;
				long v = strtol(p, &e, 10);
				if (e == p)
					break;
				if (v == 4 && p != da + 3)
					mode = GFX_SIXEL;
				p = *e == ';' ? e + 1 : e;
			}
		}
	}
	return mode;
}

enum gfx_mode gfx_choose(const char *config_value, int fd)
{
	const char *env = getenv("SANDPIT_GRAPHICS");
	const char *no_color = getenv("NO_COLOR");
	enum gfx_mode mode;
	int is_auto;

	if (no_color && no_color[0])
		return GFX_SYMBOLS;
	if (env && env[0] && gfx_parse(env, &mode, &is_auto) == 0)
		return is_auto ? ask(fd) : mode;
	if (gfx_parse(config_value, &mode, &is_auto) < 0)
		return GFX_SYMBOLS;
	if (!is_auto)
		return mode;
	if (getenv("TMUX") || getenv("STY"))
		return GFX_SYMBOLS; /* a multiplexer: the images would not reach the terminal */
	return ask(fd);
}

void gfx_cell_size(int fd, int *w, int *h)
{
	struct winsize ws;

	*w = 10;
	*h = 20;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col && ws.ws_row &&
	    ws.ws_xpixel >= ws.ws_col && ws.ws_ypixel >= ws.ws_row) {
		*w = ws.ws_xpixel / ws.ws_col;
		*h = ws.ws_ypixel / ws.ws_row;
	}
}

char *gfx_encode(const struct image *img, enum gfx_mode mode, int cols, int rows,
		 int cell_w, int cell_h, size_t *len)
{
	ChafaCanvasConfig *cfg;
	ChafaCanvas *cv;
	ChafaTermDb *db;
	ChafaTermInfo *ti;
	GString *gs;
	char *out = NULL;

	*len = 0;
	if (mode == GFX_SYMBOLS || !img->rgba || cols < 1 || rows < 1)
		return NULL;
	chafa_set_n_threads(1);
	cfg = chafa_canvas_config_new();
	chafa_canvas_config_set_geometry(cfg, cols, rows);
	chafa_canvas_config_set_cell_geometry(cfg, cell_w, cell_h);
	chafa_canvas_config_set_pixel_mode(cfg, mode == GFX_KITTY ? CHAFA_PIXEL_MODE_KITTY
								  : CHAFA_PIXEL_MODE_SIXELS);
	cv = chafa_canvas_new(cfg);
	chafa_canvas_draw_all_pixels(cv, CHAFA_PIXEL_RGBA8_UNASSOCIATED, img->rgba,
				     img->w, img->h, img->w * 4);
	/* the fallback knows every sequence chafa writes, kitty's and sixel's */
	db = chafa_term_db_get_default();
	ti = chafa_term_db_get_fallback_info(db);
	gs = chafa_canvas_print(cv, ti);
	if (gs && gs->len) {
		out = malloc(gs->len);
		if (out) {
			memcpy(out, gs->str, gs->len);
			*len = gs->len;
		}
	}
	if (gs)
		g_string_free(gs, TRUE);
	chafa_term_info_unref(ti);
	chafa_canvas_unref(cv);
	chafa_canvas_config_unref(cfg);
	return out;
}
