/* SPDX-License-Identifier: MIT */
/*
 * layout.h - where the five panes and the status line go, and the small
 * drawing helpers every pane shares (frames with titles, clipped and
 * wrapped UTF-8 text).
 *
 * Invariants: layout_compute() fills every pane rectangle inside the
 * screen, without overlap, with room for a border and at least one row
 * of content, unless it sets too_small; the status line is the last row.
 * Text helpers never draw outside the cells they are given.
 */
#ifndef LAYOUT_H
#define LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <curses.h>

struct theme;

enum pane_id {
	PANE_EDITOR,
	PANE_OUTPUT,
	PANE_RESOURCES,
	PANE_VIOLATIONS,
	PANE_CARRY,
	PANE_COUNT
};

struct rect {
	int y, x, h, w;
};

/* Below this the screen shows "terminal too small: need WxH". */
#define LAYOUT_MIN_W 48
#define LAYOUT_MIN_H 16
/* From this width (and height) panes go side by side. */
#define LAYOUT_WIDE_W 100
#define LAYOUT_WIDE_H 24

struct layout {
	int rows, cols;
	bool too_small;
	bool wide;
	bool zoomed;     /* one pane has the whole screen (layout_zoom) */
	bool editor_first; /* layout_editor_first: Output, Violations, Carry
	                    * side by side under the Editor */
	struct rect pane[PANE_COUNT];
	struct rect status;
};

/* Lay out a rows x cols screen. */
void layout_compute(struct layout *l, int rows, int cols);

/* A lesson on a narrow or short screen: the program a learner edits in
 * view. The Editor takes every row but a bottom row of six, where Output,
 * Violations and Carry stand side by side; Resources gives up its rows
 * (Alt-3 shows it whole). Nothing changes on a wide screen, or where the
 * Editor would not gain. */
void layout_editor_first(struct layout *l);

/* Narrow screens: the bottom row (Violations and Carry) grows by up to six
 * rows, taken from the Editor, so an explanation has room to be read
 * (while the Violations pane has the focus). */
void layout_grow_bottom(struct layout *l);

/* Give pane the whole screen above the status line (tmux's zoom); the
 * others get empty rectangles, which hold no cell. */
void layout_zoom(struct layout *l, int pane);

/* The pane holding screen cell (y, x), or -1. */
int layout_pane_at(const struct layout *l, int y, int x);

/* The content area inside a pane's border. */
struct rect rect_inner(struct rect r);

/* Is (y, x) inside r? */
bool rect_contains(struct rect r, int y, int x);

/* Draw "terminal too small" centred on the whole screen. */
void layout_draw_too_small(WINDOW *win, const struct layout *l,
			   const struct theme *th);

/*
 * Draw r's border with title on the top edge (and info, if not NULL,
 * right-aligned on it). The focused pane gets a double line and its title
 * in brackets, so focus shows even without colour.
 */
void layout_frame(WINDOW *win, struct rect r, const char *title,
		  const char *info, bool focused, const struct theme *th);

/* Clear a rectangle to the normal background. */
void layout_clear(WINDOW *win, struct rect r, attr_t attr);

/*
 * Draw len bytes of UTF-8 at (y, x), at most maxw cells, with attr.
 * Invalid bytes show as U+FFFD, controls as '?'. Returns cells used.
 */
int text_draw(WINDOW *win, int y, int x, int maxw, const char *s, size_t len,
	      attr_t attr);

/* Display width of len bytes of UTF-8 (East Asian wide = 2). */
int text_width(const char *s, size_t len);

/*
 * How many bytes of s make the next row of at most maxw cells when
 * wrapping; breaks after a space when one is in reach (words), and always
 * takes at least one character so wrapping terminates.
 */
size_t text_wrap_row(const char *s, size_t len, int maxw, bool words);

/* Rows that len bytes take when wrapped at maxw cells (at least 1). */
int text_wrap_rows(const char *s, size_t len, int maxw, bool words);

#endif
