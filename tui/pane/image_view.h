/* SPDX-License-Identifier: MIT */
/*
 * image_view.h - one picture full screen, over the playground (or alone:
 * `sandpit view FILE`). A state, not a loop: runs keep streaming while
 * it is up, and the caller draws it last.
 *
 * Where the terminal draws pixels (graphics.h) the picture is drawn in
 * them, with the inline pictures' encoder and their way on and off the
 * terminal (image_screen.h): the draw leaves its cells blank and says
 * where it wants it; image_view_pixels, after the frame is out, puts it
 * there or takes it away.
 *
 * Invariants: when active, either img holds the decoded picture or why
 * says why it is not shown; the cells are re-rendered only when the
 * screen's size (or the colour mode) changes. Pixels are on the terminal
 * only while the view is active, uncovered, and as drawn last: closing
 * it, another picture, a new size or anything over it takes them away at
 * the next image_view_pixels (kitty: its image id is deleted; sixel: the
 * screen is repainted). The pixel state outlives image_view_close, which
 * is how a closed view still knows what to take away.
 */
#ifndef SP_IMAGE_VIEW_H
#define SP_IMAGE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <curses.h>

#include "image/image.h"

struct theme;

/* Where the picture is in pixels: wanted by the last draw, or on the
 * terminal now. pic 0 is none; each picture opened gets a new number. */
struct image_view_place {
	unsigned pic;
	int y, x, cols, rows;
};

struct image_view_pixels {
	int mode;              /* enum gfx_mode; GFX_SYMBOLS: cells only */
	int cell_w, cell_h;    /* the terminal's cell in pixels */
	unsigned serial;       /* the last picture's number */
	char *seq;             /* the picture as image_pixels wrote it */
	size_t len;
	int seq_key[5];        /* the cols, rows, cell size and mode it was made for */
	int screen_rows, screen_cols; /* of the last draw: another size clears the screen */
	struct image_view_place want, placed;
};

/* The kitty image id of the large view (inline pictures have none). */
#define IMAGE_VIEW_KITTY_ID 0x5350

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
	struct image_view_pixels px; /* kept by image_view_close */
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

/* Pictures in pixels from now on, in mode (enum gfx_mode, graphics.h),
 * the terminal's cells being cell_w x cell_h pixels. */
void image_view_set_graphics(struct image_view *v, int mode, int cell_w, int cell_h);

/* After the frame is on the terminal (doupdate): the picture goes out
 * in pixels as the last draw placed it, or, when the view is closed or
 * covered (something drawn over it), what is there is taken away.
 * Nothing is written when the terminal has it so already. Pixels of
 * other pictures are taken away before the view's are put (sixel's
 * going takes the screen's). */
void image_view_pixels(struct image_view *v, bool covered);

#endif
