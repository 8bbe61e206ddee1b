/* SPDX-License-Identifier: MIT */
/*
 * pane_vars.h - the Variables tab of the Carry pane: the last run's
 * globals at its end (name, type, short repr), as Thonny's Variables view
 * shows them, and the key that carries one into the Carry buffer. It is
 * the stateless rule made visible: everything listed here dies with the
 * run unless it is carried.
 *
 * Invariants: what is shown was sanitized when it was taken (it is the
 * program's text); the list is the last finished run's, until the next
 * one finishes; nothing enters the carry buffer without the key.
 */
#ifndef PANE_VARS_H
#define PANE_VARS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <curses.h>

#include "screen/layout.h"
#include "sandpit.h"

struct theme;

struct var_row {
	char *name, *type, *repr;  /* sanitized, one line each */
	bool carryable;
	char *value;               /* compact JSON, or NULL */
	char *table;               /* a table's preview (JSON, unchecked), or NULL */
};

struct vars_pane {
	struct var_row *rows;
	size_t n;
	uint64_t more;
	size_t sel, top;
	bool have_run;
};

/* Take a finished run's variables (copied and sanitized). */
void vars_set(struct vars_pane *vp, const struct sp_result *r);
void vars_free(struct vars_pane *vp);
/* Up/Down/PgUp/PgDn/Home/End move the selection; true when used. */
bool vars_key(struct vars_pane *vp, int key, int page);
void vars_click(struct vars_pane *vp, int row);
/* The selected row, or NULL. */
const struct var_row *vars_selected(const struct vars_pane *vp);
/*
 * The selected variable as a carry-out object text ({"name": value},
 * malloc'd) for the Carry pane's merge; NULL with why saying why not.
 */
char *vars_carry_json(const struct vars_pane *vp, char *why, size_t whylen);
void vars_draw(struct vars_pane *vp, WINDOW *win, struct rect inner,
	       const struct theme *th, bool focused);

#endif
