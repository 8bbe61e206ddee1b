/* SPDX-License-Identifier: MIT */
/*
 * image_view.h - one picture full screen, over the playground (or alone:
 * `sandpit view FILE`). A state, not a loop: runs keep streaming while
 * it is up, and the caller draws it last.
 *
 * Invariants: when active, either img holds the decoded picture or why
 * says why it is not shown; the cells are re-rendered only when the
 * screen's size (or the colour mode) changes.
 */
#ifndef SP_IMAGE_VIEW_H
#define SP_IMAGE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <curses.h>

#include "image/image.h"

struct theme;

struct image_view {
	bool active;
	char name[256];        /* sanitized, for the title */
	long long bytes;       /* the file's size, -1 unknown */
	struct image img;      /* shrunk to at most IMAGE_VIEW_MAX a side */
	int orig_w, orig_h;    /* as decoded */
	char why[256];         /* set when the picture is refused */
	struct image_cells cells;
	int at_rows, at_cols;  /* the screen size the cells were made for */
	int at_mode;
};

/* Pictures are shrunk to this before drawing: more is never on screen. */
#define IMAGE_VIEW_MAX 2048

/* Opens path (a host file; name is shown, may be NULL = path's base
 * name). Always activates: a refusal is shown in place of the picture.
 * 0 when the picture decoded, -1 when why explains it. */
int image_view_open(struct image_view *v, const char *path, const char *name);

/* Closes and frees. Safe on a closed view. */
void image_view_close(struct image_view *v);

/* A key while the view is up: Esc, q, Enter and F8 close it.
 * True when the key was the view's. */
bool image_view_key(struct image_view *v, int key);

/* Draws the view over the whole of win (rows x cols). */
void image_view_draw(struct image_view *v, WINDOW *win, int rows, int cols,
		     const struct theme *th);

#endif
