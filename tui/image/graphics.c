/* SPDX-License-Identifier: MIT */
/*
 * graphics.c - choosing the pixel protocol (see graphics.h for the
 * protocols; image_draw.c encodes a picture in one, with libchafa).
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

#include "image/graphics.h"
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
