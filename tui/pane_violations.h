/*
 * pane_violations.h - the Violations pane: every attempt of the current
 * run to cross a limit, as a list; the selected one is explained in full
 * below the list (what was tried, which constraint, the workaround).
 *
 * Invariants: records hold sanitized copies (the program chooses the
 * text of `what`, e.g. a file name); sel < n whenever n > 0.
 */
#ifndef PANE_VIOLATIONS_H
#define PANE_VIOLATIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <curses.h>

#include "layout.h"
#include "sandpit.h"

struct viol_item {
	enum sp_violation_kind kind;
	char *what;
	char *message;
	bool from_kernel;
	int line;
	unsigned count;
};

struct violations {
	struct viol_item *items;
	size_t n, cap;
	size_t sel;
	size_t top;      /* first list row shown */
};

/* Forget every record (a new run starts). */
void violations_clear(struct violations *vs);
void violations_free(struct violations *vs);

/* Add a record, or update the count of the same kind/what/line. */
void violations_upsert(struct violations *vs, const struct sp_violation *v);

/* Handle a key when the pane has focus; true if it was used. */
bool violations_key(struct violations *vs, int key, int page);

/* A click on list row `row` of the pane's inner area selects it. */
void violations_click(struct violations *vs, int row);

/* Scroll the selection by lines (mouse wheel). */
void violations_move(struct violations *vs, int lines);

/* Draw the list and the selected record's explanation. */
void violations_draw(struct violations *vs, WINDOW *win, struct rect inner,
		     const struct theme *th, bool focused);

#endif
