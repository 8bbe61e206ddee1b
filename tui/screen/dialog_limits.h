/* SPDX-License-Identifier: MIT */
/*
 * dialog_limits.h - the F4 / Ctrl-P limits dialog: the six limits as
 * editable fields, read by the same table as the command line and the
 * config file (tui/config/limit_fields.c), and a row of presets (the defaults,
 * "tight", and the config file's [preset NAME] sections).
 *
 * Invariants: the dialog hands back only limits that every field parsed
 * (a bad field keeps the dialog up with its message, and nothing changes);
 * it is a state, not a blocking loop, so a run keeps streaming under it.
 */
#ifndef DIALOG_LIMITS_H
#define DIALOG_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>
#include <curses.h>

#include "config/limit_fields.h"

struct theme;

enum limits_answer {
	LIMITS_PENDING,   /* still up */
	LIMITS_CANCEL,    /* Esc */
	LIMITS_APPLY,     /* Enter: the next run uses them */
	LIMITS_SAVE,      /* Ctrl-S: that, and write them to the config file */
};

struct limits_dialog {
	bool active;
	int sel;                       /* 0 the preset row, 1 + enum limit_id */
	bool fresh;                    /* the first key typed replaces the field */
	size_t preset;                 /* the preset shown on its row */
	const struct limit_preset *user; /* the config file's presets */
	size_t n_user;
	char text[LIM_COUNT][32];
	char error[256];
	int bad;                       /* the field the error is about, or -1 */
	struct sp_limits base;         /* what is not edited here (carry) */
};

/* Open with the limits in use now, offering the config's presets too. */
void limits_dialog_open(struct limits_dialog *d, const struct sp_limits *now,
			const struct limit_preset *user, size_t n_user);

/* One key from wget_wch. On APPLY or SAVE *out holds the new limits and
 * the dialog has closed. */
enum limits_answer limits_dialog_key(struct limits_dialog *d, bool is_key,
				     wint_t ch, struct sp_limits *out);

void limits_dialog_draw(const struct limits_dialog *d, WINDOW *win, int rows,
			int cols, const struct theme *th);
/* Where the cursor belongs (on the selected field), or *y = -1. */
void limits_dialog_cursor(const struct limits_dialog *d, int rows, int cols,
			  int *y, int *x);

#endif
