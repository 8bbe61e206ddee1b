/* SPDX-License-Identifier: MIT */
/*
 * picture.c - a run's picture in the Output pane: decode once, keep a
 * thumbnail, render to cells for the width the pane has now.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/graphics.h"
#include "image/image.h"
#include "pane/image_screen.h"
#include "screen/layout.h"
#include "pane/picture.h"
#include "text/sanitize.h"
#include "screen/theme.h"
#include "banned.h"

struct picture {
	char *path;
	char *name;                /* sanitized, one line */
	struct image thumb;        /* empty once released */
	struct image_cells cells;
	int at_width, at_rows, at_mode;
	unsigned long long pixels;
	char *seq;                 /* in pixels (graphics.h), for seq_key */
	size_t seq_len;
	int seq_key[5], seq_cols, seq_rows;
};

struct picture *picture_new(const char *path, const char *name,
			    const struct image_limits *lim, char *why, size_t whylen)
{
	struct image full;
	struct picture *p;

	if (image_load(path, lim, &full, why, whylen) != 0)
		return NULL;
	p = calloc(1, sizeof *p);
	if (!p || !(p->path = strdup(path)) || !(p->name = sanitize_dup(name, true)) ||
	    image_shrink(&full, PICTURE_THUMB, PICTURE_THUMB, &p->thumb) != 0) {
		image_free(&full);
		picture_free(p);
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	p->pixels = (unsigned long long)full.w * (unsigned long long)full.h;
	image_free(&full);
	return p;
}

unsigned long long picture_pixels(const struct picture *p)
{
	return p->pixels;
}

void picture_free(struct picture *p)
{
	if (!p)
		return;
	image_free(&p->thumb);
	image_cells_free(&p->cells);
	free(p->seq);
	free(p->path);
	free(p->name);
	free(p);
}

void picture_release(struct picture *p)
{
	image_free(&p->thumb);
	image_cells_free(&p->cells);
	free(p->seq);
	p->seq = NULL;
}

const char *picture_pixels_seq(struct picture *p, int mode, int width, int max_rows,
			       int cell_w, int cell_h, int *cols, int *rows, size_t *len)
{
	int key[5] = { mode, width, max_rows, cell_w, cell_h };

	if (!p->thumb.rgba)
		return NULL;
	if (!p->seq || memcmp(key, p->seq_key, sizeof key) != 0) {
		free(p->seq);
		p->seq_rows = image_fit(&p->thumb, width, max_rows, &p->seq_cols);
		p->seq = image_pixels(&p->thumb, mode == GFX_KITTY, 0, p->seq_cols, p->seq_rows,
				      cell_w, cell_h, &p->seq_len);
		memcpy(p->seq_key, key, sizeof key);
	}
	*cols = p->seq_cols;
	*rows = p->seq_rows;
	*len = p->seq_len;
	return p->seq;
}

bool picture_held(const struct picture *p)
{
	return p->thumb.rgba != NULL;
}

const char *picture_path(const struct picture *p)
{
	return p->path;
}

const char *picture_name(const struct picture *p)
{
	return p->name;
}

int picture_rows(struct picture *p, int width, int max_rows)
{
	int cols;

	if (!p->thumb.rgba || width < 1)
		return 1;
	return image_fit(&p->thumb, width, max_rows, &cols);
}

/* Cells for width and the terminal's mode; false when there are none. */
static bool ensure_cells(struct picture *p, int width, int max_rows, const struct theme *th)
{
	int mode = (int)image_screen_mode(th), cols, rows;
	char why[160];

	if (!p->thumb.rgba)
		return false;
	if (p->cells.cell && p->at_width == width && p->at_rows == max_rows && p->at_mode == mode)
		return true;
	image_cells_free(&p->cells);
	rows = image_fit(&p->thumb, width, max_rows, &cols);
	if (image_render(&p->thumb, cols, rows, (enum image_mode)mode, image_screen_symbols(),
			 &p->cells, why, sizeof why) != 0)
		return false;
	p->at_width = width;
	p->at_rows = max_rows;
	p->at_mode = mode;
	return true;
}

void picture_draw(struct picture *p, WINDOW *win, int y, int x, int width, int max_rows,
		  int first, int n, const struct theme *th)
{
	if (!ensure_cells(p, width, max_rows, th)) {
		char line[400];
		snprintf(line, sizeof line, "(%s: the picture is no longer held here)", p->name);
		if (first == 0 && n > 0)
			text_draw(win, y, x, width, line, strlen(line), theme_attr(th, TR_NORMAL));
		return;
	}
	image_screen_draw(win, y, x, width, &p->cells, first, n, th);
}
