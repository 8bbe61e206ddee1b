/* SPDX-License-Identifier: MIT */
/*
 * pane_violations.h - the Violations pane: every attempt of the current
 * run to cross a limit, as a list (one row a record: its line, kind,
 * count and what it tried); the selected record is explained in full
 * beside it (what was tried, which constraint, the workaround), wrapped at
 * words and scrolled on its own, so the whole text can be read at any
 * size. Zoomed, the pane becomes a teacher's view: the explanation first,
 * with room around it, and the list below.
 *
 * Invariants: records hold sanitized copies (the program chooses the
 * text of `what`, e.g. a file name); records are keyed on the engine's id
 * alone, never on their text, so a runtime record the program forges
 * cannot hide (merge into) a kernel one; sel < n whenever n > 0.
 */
#ifndef PANE_VIOLATIONS_H
#define PANE_VIOLATIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <curses.h>

#include "screen/layout.h"
#include "sandpit.h"

struct viol_item {
	unsigned id;
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
	int dscroll;     /* rows of the explanation scrolled past */
	/* from the last draw, for keys and clicks */
	int drows;       /* rows the explanation had on screen */
	int dtotal;      /* rows the whole explanation takes */
	int list_y;      /* the list's first row, inside the pane */
	int list_h;      /* list rows shown */
};

/* Forget every record (a new run starts). */
void violations_clear(struct violations *vs);
void violations_free(struct violations *vs);

/* Add a record, or update the count of the record with the same id. */
void violations_upsert(struct violations *vs, const struct sp_violation *v,
		       const char *context);

/* The selected record's id (0 when none), and selecting by id again
 * (after the list is rebuilt from the result), keeping the reader's
 * place in its explanation. */
unsigned violations_selected_id(const struct violations *vs);
void violations_select_id(struct violations *vs, unsigned id, int dscroll);

/* Handle a key when the pane has focus; true if it was used. Up/Down and
 * Home/End select a record; PgUp/PgDn scroll its explanation. */
bool violations_key(struct violations *vs, int key);

/* A click at row of the pane's inner area: true when it hit the list row
 * that was already selected (a second click: go to its line); a click on
 * another row selects it, so a reader can pick a record to read. */
bool violations_click(struct violations *vs, int row);

/* Scroll the selection by records (the list's own wheel). */
void violations_move(struct violations *vs, int records);

/* Scroll the explanation by rows (the mouse wheel; negative = up). */
void violations_scroll_text(struct violations *vs, int rows);

/* The selected record's line in the program, or 0. */
int violations_selected_line(const struct violations *vs);

/* The frame's info: "2/3" and where the explanation goes on. */
void violations_info(const struct violations *vs, char *buf, size_t len);

/* The gutter mark for a record of kind: one cell; ASCII when ascii. */
const char *violations_mark(enum sp_violation_kind kind, bool ascii);

/* Draw the list and the selected record's explanation; teacher: the
 * explanation first and roomy (the zoomed pane). */
void violations_draw(struct violations *vs, WINDOW *win, struct rect inner,
		     const struct theme *th, bool focused, bool teacher);

#endif
