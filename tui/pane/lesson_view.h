/* SPDX-License-Identifier: MIT */
/*
 * lesson_view.h - the lesson strip above the panes (goal, progress, the
 * hint shown, the last verdict, the keys) and the lesson list (F3 in a
 * lesson, or 'l' in the demo menu).
 *
 * Invariants: cur is -1 (no lesson open) or a valid index into set; the
 * strip is drawn only while a lesson is open; hints_shown never exceeds
 * the lesson's hints; out holds at most LESSON_OUT_MAX bytes of the run's
 * stdout, for the check.
 */
#ifndef LESSON_VIEW_H
#define LESSON_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <curses.h>

#include "screen/layout.h"
#include "lesson/lesson.h"
#include "lesson/lesson_progress.h"

struct theme;
struct again_job;

#define LESSON_OUT_MAX (4u << 20)

struct lesson_view {
	struct lesson_set set;
	struct lesson_progress prog;
	long cur;
	size_t hints_shown;
	char verdict[700];
	bool verdict_pass;      /* the last run passed */
	bool judged;            /* verdict holds a run's verdict */
	bool menu;              /* the lesson list is up */
	bool full;              /* the lesson in full is up (z in the list) */
	int full_top;           /* its first row shown */
	size_t sel;
	char *out;
	size_t out_len, out_cap;
	struct lesson_stage stage;
	char *program;          /* the program of the run going, for the check */
	char *carry_in;         /* the carry-in it was given, or NULL */
	struct again_job *again; /* the [again] runs going, or NULL */
	int top;                /* rows the strip has on screen now */
	/* a run's files in: the lesson's, then the ones the learner attached */
	struct sp_file_in all_in[LESSON_MAX_FILES + SP_MAX_FILES_IN];
};

/* What the lesson list did with a key. */
enum { LESSON_MENU_OPEN = -1, LESSON_MENU_CLOSED = -2, LESSON_MENU_DEMOS = -3,
       LESSON_MENU_HINT = -4, LESSON_MENU_SOLUTION = -5,
       LESSON_MENU_STEP = -6, LESSON_MENU_RESTART = -7, LESSON_MENU_FULL = -8 };

/* How many of the loaded lessons are passed. */
size_t lesson_view_passed(const struct lesson_view *v);
/* Rows the strip takes on a screen cols wide, at most max_rows (0 when
 * no lesson is open, or fewer than 3 rows are free). */
int lesson_view_rows(const struct lesson_view *v, int cols, int max_rows);
void lesson_view_draw(const struct lesson_view *v, WINDOW *win, struct rect r,
		      const struct theme *th);

/* Open the list with the next lesson not passed selected. */
void lesson_menu_open(struct lesson_view *v);
/* A key while the list is up: a lesson index when one is chosen, else
 * one of the LESSON_MENU_ values. */
long lesson_menu_key(struct lesson_view *v, int key);
void lesson_menu_draw(const struct lesson_view *v, WINDOW *win, int rows,
		      int cols, const struct theme *th);

/* The open lesson in full, over the screen: the goal, every hint shown
 * so far and the last verdict, wrapped and never cut (Up/Down scroll).
 * A key while it is up: false when it closed. */
void lesson_full_draw(struct lesson_view *v, WINDOW *win, int rows, int cols,
		      const struct theme *th);
bool lesson_full_key(struct lesson_view *v, int key);

/* Keep a chunk of the run's stdout for the check (bounded). */
void lesson_view_output(struct lesson_view *v, const char *s, size_t n);

#endif
