/* SPDX-License-Identifier: MIT */
/*
 * table_view.h - a table on screen as a spreadsheet shows it: a header
 * row and an index column that stay in place, numbers right-aligned,
 * text left-aligned, each column as wide as its widest cell (capped),
 * scrolled by rows and by whole columns. Its shape says how much of the
 * data the rows shown are ("5,000 rows x 9 columns, the first 60 shown").
 *
 * Two sources fill it: a DataFrame's, Series' or array's first rows that
 * the prelude sent (the Variables tab, Enter), and a kept CSV file (F8).
 * Both are a program's output: every cell is sanitized on the way in, and
 * a preview that is not the shape sandpit.h describes is refused whole.
 *
 * Invariants: cells[r * cols + c] for r < rows, c < cols, each a
 * sanitized one-line string; header has cols entries; index is NULL or
 * has rows entries; top < rows and left < cols once anything is shown.
 */
#ifndef TABLE_VIEW_H
#define TABLE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <curses.h>

#include "screen/layout.h"

struct theme;

#define TABLE_COL_MAX 24   /* cells of the widest column */

struct table {
	size_t rows, cols;          /* the cells held */
	uint64_t all_rows, all_cols; /* the data's shape (more than held when cut) */
	char **header;              /* cols names */
	char **index;               /* rows labels, or NULL */
	char **cells;
	bool *numeric;              /* per column: right-aligned */
	int *width;                 /* per column, in cells */
	int index_width;
	size_t top, left;           /* first row and first column shown */
};

/* Fill t from a prelude's preview (JSON text); -1 with why when it is
 * not one. */
int table_from_preview(struct table *t, const char *json, char *why, size_t whylen);
/* Fill t from CSV text (sep ',' or '\t'): its first line is the header,
 * the rest are rows (at most max_rows); a column whose every non-empty
 * cell is a number is numeric. -1 when out of memory. */
int table_from_csv(struct table *t, const char *buf, size_t len, char sep, size_t max_rows);
void table_free(struct table *t);

/* "60 rows x 9 columns" or "5,000 rows x 9 columns, the first 60 shown". */
void table_shape_text(const struct table *t, char *buf, size_t len);

/* Arrows, PgUp/PgDn, Home/End scroll (rows the body's height, for a
 * page); true when the key was one of them. */
bool table_key(struct table *t, int key, int rows);
/* Draw inside r: the header, the index, the cells from top/left. */
void table_draw(struct table *t, WINDOW *win, struct rect r, const struct theme *th,
		attr_t base);

/* The table full screen (but a cell's margin), framed with title, its
 * shape above it: the Variables tab's view of a DataFrame. */
void table_overlay_draw(struct table *t, const char *title, WINDOW *win, int rows, int cols,
			const struct theme *th);

#endif
