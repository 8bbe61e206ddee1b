/* SPDX-License-Identifier: MIT */
/*
 * help.h - the F1 / Ctrl-G help screen: every key, and the five
 * constraints a run lives under (with their usual workarounds).
 *
 * Invariants: the help text is the one place the key list is written
 * for the screen; it must match the key map in app_keys.c and docs/sandpit.1.
 */
#ifndef HELP_H
#define HELP_H

#include <stdbool.h>
#include <curses.h>

struct theme;

struct help_view {
	bool active;
	int top;          /* first row shown (of the text wrapped to the screen) */
	int rows;         /* rows the text took at the last draw */
};

void help_open(struct help_view *h);
/* A key while help is up; closes on Esc, q, F1, Ctrl-G. */
void help_key(struct help_view *h, int key, int rows);
void help_draw(struct help_view *h, WINDOW *win, int rows, int cols,
	       const struct theme *th);

#endif
