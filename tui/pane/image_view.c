/* SPDX-License-Identifier: MIT */
/*
 * image_view.c - the large view of one picture: a title line with its
 * name, pixel size and bytes, the picture fitted to the rest of the
 * screen and centred, or the reason it is not shown. In pixels where the
 * terminal draws them (image_view.h), in cells otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "image/graphics.h"
#include "pane/gauges.h"
#include "pane/image_screen.h"
#include "app/playground.h"
#include "pane/image_view.h"
#include "screen/layout.h"
#include "text/sanitize.h"
#include "screen/theme.h"
#include "banned.h"

int image_view_open(struct image_view *v, const char *path, const char *name)
{
	struct image full;
	struct stat st;

	image_view_close(v);
	v->active = true;
	v->px.serial = v->px.serial + 1 ? v->px.serial + 1 : 1;
	v->bytes = lstat(path, &st) == 0 ? (long long)st.st_size : -1;
	if (!name) {
		name = strrchr(path, '/');
		name = name ? name + 1 : path;
	}
	char *clean = sanitize_dup(name, true);
	snprintf(v->name, sizeof v->name, "%s", clean ? clean : "?");
	free(clean);
	if (image_load(path, NULL, &full, v->why, sizeof v->why) != 0)
		return -1;
	v->orig_w = full.w;
	v->orig_h = full.h;
	if (image_shrink(&full, IMAGE_VIEW_MAX, IMAGE_VIEW_MAX, &v->img) != 0) {
		snprintf(v->why, sizeof v->why, "out of memory for a %dx%d image", full.w, full.h);
		image_free(&full);
		return -1;
	}
	image_free(&full);
	return 0;
}

void image_view_close(struct image_view *v)
{
	struct image_view_pixels px = v->px;

	image_free(&v->img);
	image_cells_free(&v->cells);
	free(px.seq);
	memset(v, 0, sizeof *v);
	/* what the terminal has stays known until image_view_pixels takes it away */
	v->px.mode = px.mode;
	v->px.cell_w = px.cell_w;
	v->px.cell_h = px.cell_h;
	v->px.serial = px.serial;
	v->px.screen_rows = px.screen_rows;
	v->px.screen_cols = px.screen_cols;
	v->px.placed = px.placed;
}

void image_view_set_graphics(struct image_view *v, int mode, int cell_w, int cell_h)
{
	v->px.mode = mode;
	v->px.cell_w = cell_w > 0 ? cell_w : 10;
	v->px.cell_h = cell_h > 0 ? cell_h : 20;
}

/* The picture in pixels, cols x rows cells large, wanted at (y, x) of
 * the screen: false when the terminal has none or it cannot be made. */
static bool want_pixels(struct image_view *v, int y, int x, int cols, int rows)
{
	struct image_view_pixels *px = &v->px;
	int key[5] = { cols, rows, px->cell_w, px->cell_h, px->mode };

	if (px->mode == GFX_SYMBOLS)
		return false;
	if (!px->seq || memcmp(key, px->seq_key, sizeof key) != 0) {
		free(px->seq);
		px->seq = image_pixels(&v->img, px->mode == GFX_KITTY, IMAGE_VIEW_KITTY_ID, cols,
				       rows, px->cell_w, px->cell_h, &px->len);
		memcpy(px->seq_key, key, sizeof key);
	}
	if (!px->seq)
		return false;
	px->want = (struct image_view_place){ px->serial, y, x, cols, rows };
	return true;
}

void image_view_pixels(struct image_view *v, bool covered)
{
	struct image_view_pixels *px = &v->px;
	bool put = v->active && !covered && px->want.pic && px->seq;

	if (px->mode == GFX_SYMBOLS)
		return;
	if (put ? !memcmp(&px->want, &px->placed, sizeof px->want) : !px->placed.pic)
		return; /* the terminal has it so already */
	if (px->placed.pic)
		image_screen_pixels_take_away(px->mode, IMAGE_VIEW_KITTY_ID);
	px->placed.pic = 0;
	if (put) {
		image_screen_pixels_put(px->want.y, px->want.x, px->seq, px->len);
		px->placed = px->want;
	}
}

bool image_view_key(struct image_view *v, int key)
{
	if (!v->active)
		return false;
	if (key == 27 || key == 'q' || key == '\r' || key == '\n' || key == KEY_ENTER ||
	    key == KEY_F(8) || key == 14 /* Ctrl-N */)
		image_view_close(v);
	return true; /* everything else is swallowed while it is up */
}

void image_view_draw(struct image_view *v, WINDOW *win, int rows, int cols,
		     const struct theme *th)
{
	char title[512], size[32];
	attr_t normal = theme_attr(th, TR_NORMAL);

	v->px.want.pic = 0;
	if (!v->active || rows < 2 || cols < 4)
		return;
	if (v->px.screen_rows != rows || v->px.screen_cols != cols) {
		/* a new size: the terminal's screen was cleared, or its cells moved */
		if (v->px.placed.pic)
			v->px.placed.pic = ~0u;
		v->px.screen_rows = rows;
		v->px.screen_cols = cols;
	}
	image_screen_frame(th);
	layout_clear(win, (struct rect){ 0, 0, rows, cols }, normal);
	if (v->bytes >= 0)
		format_bytes((uint64_t)v->bytes, size, sizeof size);
	else
		snprintf(size, sizeof size, "?");
	if (v->img.rgba)
		snprintf(title, sizeof title, " %s · %dx%d pixels · %s · Esc closes ",
			 v->name, v->orig_w, v->orig_h, size);
	else
		snprintf(title, sizeof title, " %s · %s · Esc closes ", v->name, size);
	layout_clear(win, (struct rect){ 0, 0, 1, cols }, theme_attr(th, TR_STATUS));
	text_draw(win, 0, 0, cols, title, strlen(title), theme_attr(th, TR_STATUS));
	if (!v->img.rgba) {
		char line[320];
		char *why = sanitize_dup(v->why, true); /* a decoder's words may quote the file */
		snprintf(line, sizeof line, "not shown: %s", why ? why : "?");
		free(why);
		int w = text_width(line, strlen(line));
		text_draw(win, rows / 2, w < cols ? (cols - w) / 2 : 0, cols, line, strlen(line),
			  theme_attr(th, TR_ERROR));
		return;
	}
	/* in pixels, the screen's last row is left free: a picture that ends
	 * on it makes some terminals scroll the screen */
	if (v->px.mode != GFX_SYMBOLS && rows >= 3) {
		int pc, pr = image_fit_pixels(&v->img, cols, rows - 2, v->px.cell_w, v->px.cell_h, &pc);
		if (want_pixels(v, 1 + (rows - 2 - pr) / 2, (cols - pc) / 2, pc, pr))
			return; /* its cells stay blank for image_view_pixels */
	}
	int mode = (int)image_screen_mode(th);
	if (!v->cells.cell || v->at_rows != rows || v->at_cols != cols || v->at_mode != mode) {
		int pc;
		int pr = image_fit(&v->img, cols, rows - 1, &pc);
		image_cells_free(&v->cells);
		if (image_render(&v->img, pc, pr, (enum image_mode)mode, image_screen_symbols(),
				 &v->cells, v->why, sizeof v->why) != 0) {
			image_free(&v->img);
			return;
		}
		v->at_rows = rows;
		v->at_cols = cols;
		v->at_mode = mode;
	}
	int y = 1 + (rows - 1 - v->cells.rows) / 2, x = (cols - v->cells.cols) / 2;
	image_screen_draw(win, y, x, cols - x, &v->cells, 0, v->cells.rows, th);
}

int picture_view_main(const char *path, char *why, size_t whylen)
{
	struct image_view v;
	struct theme th;
	struct pg_config *cfg = calloc(1, sizeof *cfg);
	char usage[256];
	char *no_args[] = { "sandpit", NULL };
	int cell_w, cell_h;

	memset(&v, 0, sizeof v);
	int rc = image_view_open(&v, path, NULL) == 0 ? 0 : 1;
	snprintf(why, whylen, "%s", v.why);  /* closing the view clears it */
	theme_default(&th);
	/* pixels as the playground chooses them: SANDPIT_GRAPHICS over the
	 * config file's `graphics`, the terminal asked before curses starts */
	if (cfg && config_load(cfg, 1, no_args, usage, sizeof usage) < 0)
		cfg->graphics[0] = '\0';
	enum gfx_mode gfx = gfx_choose(cfg ? cfg->graphics : NULL, STDIN_FILENO);
	free(cfg);
	gfx_cell_size(STDOUT_FILENO, &cell_w, &cell_h);
	image_view_set_graphics(&v, (int)gfx, cell_w, cell_h);
	initscr();
	raw();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	if (has_colors()) {
		start_color();
		use_default_colors();
	}
	theme_apply(&th);
	while (v.active) {
		werase(stdscr);
		image_view_draw(&v, stdscr, LINES, COLS, &th);
		wnoutrefresh(stdscr);
		doupdate();
		image_view_pixels(&v, false);
		int key = getch();
		if (key == KEY_RESIZE || key == ERR)
			continue;
		image_view_key(&v, key);
	}
	image_view_pixels(&v, true); /* closed: taken away before the screen ends */
	endwin();
	image_view_close(&v);
	return rc;
}
