/* SPDX-License-Identifier: MIT */
/*
 * image_view.c - the large view of one picture: a title line with its
 * name, pixel size and bytes, the picture fitted to the rest of the
 * screen and centred, or the reason it is not shown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	image_free(&v->img);
	image_cells_free(&v->cells);
	memset(v, 0, sizeof *v);
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

	if (!v->active || rows < 2 || cols < 4)
		return;
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

	memset(&v, 0, sizeof v);
	int rc = image_view_open(&v, path, NULL) == 0 ? 0 : 1;
	snprintf(why, whylen, "%s", v.why);  /* closing the view clears it */
	theme_default(&th);
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
		int key = getch();
		if (key == KEY_RESIZE || key == ERR)
			continue;
		image_view_key(&v, key);
	}
	endwin();
	image_view_close(&v);
	return rc;
}
