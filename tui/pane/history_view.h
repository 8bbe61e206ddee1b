/* SPDX-License-Identifier: MIT */
/*
 * history_view.h - the playground's view of what an AI assistant ran
 * through `sandpit mcp` (F3, then h): a list of the kept runs, newest
 * first (time, status, violations, the code's first line); Enter shows
 * one run: everything the model sent and got (mcp_runs.h), its lines
 * wrapped to the box; e loads its code into the Editor and attaches the
 * input files the history kept, and p shows its first picture. A teacher
 * demos what a model tried, live: the list is read again each time the
 * view opens, and r reads it again.
 *
 * Invariants: sel < n when n > 0; the detail text is sanitized (it came
 * from a program); the view owns its entries and text.
 */
#ifndef HISTORY_VIEW_H
#define HISTORY_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <curses.h>

#include "service/mcp_runs.h"

struct theme;

struct history_view {
	bool active, detail;
	struct mcp_run_entry *runs;
	size_t n, sel, top;
	char *text;              /* the detail of runs[sel] */
	char *picture;           /* its first picture's path, or NULL */
	size_t scroll;           /* the detail's first row shown (wrapped rows) */
	const char *root;        /* NULL: the state dir's (tests may set it) */
	char why[1500];          /* why the runs cannot be read, or "" */
};

enum history_action { HV_NONE, HV_LOAD_CODE, HV_PICTURE, HV_NO_PICTURE };

void history_view_open(struct history_view *h);
void history_view_close(struct history_view *h);
/* A key while the view is up; rows is the screen's height. */
enum history_action history_view_key(struct history_view *h, int key, int rows);
void history_view_draw(const struct history_view *h, WINDOW *win, int rows, int cols,
		       const struct theme *th);

#endif
