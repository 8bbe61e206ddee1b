/* SPDX-License-Identifier: MIT */
/*
 * image_screen.h - image cells onto an ncurses window, in the colours the
 * terminal has, within its budget of colour pairs.
 *
 * A curses cell's colour is a pair number (fg, bg); a terminal has
 * COLOR_PAIRS of them and the theme holds the first few. Pictures get the
 * rest, allocated on demand in a bounded cache keyed by (fg, bg). The
 * mode is chosen so that one frame never needs more pairs than there
 * are: a whole screen of distinct pairs (direct, 256 colours), or every
 * combination the mode has (16: 256 pairs, 8: 64, 8 fg-only: 8). When a
 * new frame starts with too little room left, the cache starts over:
 * every cell is redrawn each frame, so no cell keeps a stale pair.
 *
 * Invariants: call image_screen_frame() once at the start of each frame
 * that may draw pictures, after theme_apply(); pairs the theme set up are
 * reused when their colours match, never redefined.
 */
#ifndef SP_IMAGE_SCREEN_H
#define SP_IMAGE_SCREEN_H

#include <curses.h>

#include "image/image.h"

struct theme;

/* A new frame: make room for a screenful of pairs if needed. */
void image_screen_frame(const struct theme *th);

/* The richest mode this terminal and pair budget allow (MONO with
 * NO_COLOR or a monochrome theme or terminal). */
enum image_mode image_screen_mode(const struct theme *th);

/* Block symbols in a UTF-8 locale, else ASCII. */
enum image_symbols image_screen_symbols(void);

/* Draws rows [first, first + n) of c with its top-left at (y, x),
 * clipped to maxw columns. */
void image_screen_draw(WINDOW *win, int y, int x, int maxw, const struct image_cells *c,
		       int first, int n, const struct theme *th);

/*
 * Pictures in pixels (graphics.h), after the frame is on the terminal:
 * put writes seq (image_pixels') with its top-left at cell (y, x), the
 * cursor kept; take_away removes what was put before: kitty's image
 * kitty_id (0: every placement) is deleted, and sixel's, being cells of
 * the screen, go by repainting the whole screen from curses' picture of
 * it (a cell repainted alone can leave some where curses skips). So a
 * caller takes away before it puts, never after. Both flush stdout.
 */
void image_screen_pixels_put(int y, int x, const char *seq, size_t len);
void image_screen_pixels_take_away(int gfx_mode, unsigned kitty_id);

/* Pairs held by pictures now (for tests). */
int image_screen_pairs_used(void);

/* Forget the pairs and the terminal (after a new screen or theme). */
void image_screen_reset(void);

#endif
