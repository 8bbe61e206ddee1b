/* SPDX-License-Identifier: MIT */
/*
 * pane_stdin.h - the standard input of the next run: a text buffer (the
 * editor component, as the Carry pane uses it) whose bytes the program
 * reads on stdin, a tab of the Carry pane (F12 switches tabs).
 *
 * Invariants: an empty buffer sends nothing (stdin is /dev/null, as
 * without the playground); the buffer is the user's: only typing, a paste
 * or a variable's key changes it, and it is kept from run to run.
 */
#ifndef PANE_STDIN_H
#define PANE_STDIN_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>
#include <curses.h>

#include "screen/layout.h"

struct editor;
struct theme;

/* Past this the next run is refused, as for an over-size carry buffer. */
#define STDIN_MAX (8u << 20)

struct stdin_pane {
	struct editor *ed;
};

int stdin_init(struct stdin_pane *sp);
void stdin_free(struct stdin_pane *sp);
/* The bytes to send (malloc'd, *len set), or NULL with *len 0 when the
 * buffer is empty. */
char *stdin_text(struct stdin_pane *sp, size_t *len);
void stdin_draw(struct stdin_pane *sp, WINDOW *win, struct rect inner,
		const struct theme *th, bool focused);

#endif
