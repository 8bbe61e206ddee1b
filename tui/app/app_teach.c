/* SPDX-License-Identifier: MIT */
/*
 * app_teach.c - what ties a run's lessons to the source: jumps from a
 * violation or a traceback line to the Editor, the gutter marks, and the
 * hints under a traceback.
 *
 * A traceback names lines as Python prints them:
 *     File "network.py", line 10, in <module>
 * Only lines of the Editor's own file are followed; a frame in a library
 * (File "/usr/lib/python3/...") is not the user's to edit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "pane/pane_output.h"
#include "editor/editor.h"
#include "banned.h"

void app_goto_line(struct app *a, long line)
{
	if (line < 1)
		return;
	editor_goto_line(a->pane.ed, line);
	a->nav.focus = PANE_EDITOR;
	a->nav.zoomed = false; /* the Editor shows where the line is */
	app_message(a, false, "line %ld", line);
}

/* The line of a traceback row of the Editor's file, or 0. */
static long traceback_row_line(const struct app *a, const char *s, size_t len)
{
	char pat[300], row[512];
	const char *hit;
	int n = snprintf(pat, sizeof pat, "File \"%s\", line ", editor_name(a->pane.ed));

	if (n < 0 || (size_t)n >= sizeof pat || !s)
		return 0;
	snprintf(row, sizeof row, "%.*s", (int)(len < sizeof row ? len : sizeof row - 1), s);
	hit = strstr(row, pat);
	return hit ? strtol(hit + n, NULL, 10) : 0;
}

/* A hint's line, as app_teach_finish writes it: "hint, line N: ...". */
static long hint_row_line(const char *s, size_t len)
{
	static const char pre[] = "hint, line ";

	if (!s || len < sizeof pre || strncmp(s, pre, sizeof pre - 1) != 0)
		return 0;
	return strtol(s + sizeof pre - 1, NULL, 10);
}

static long output_row_line(const struct app *a, int row)
{
	size_t len;
	const char *s = output_row_text(a->pane.out, row, &len);
	long line = traceback_row_line(a, s, len);

	return line ? line : hint_row_line(s, len);
}

void app_jump_violation(struct app *a)
{
	long line = violations_selected_line(&a->pane.viol);

	if (!line && a->pane.viol.n)
		app_message(a, false, "this record has no line: it is about the "
			    "whole run");
	if (line > 0)
		app_goto_line(a, line);
}

bool app_jump_output(struct app *a, int row)
{
	long line = 0;

	if (row >= 0) {
		line = output_row_line(a, row);
	} else {
		/* Enter: the innermost frame in view, as Python lists it last;
		 * none in view leaves Enter to the pictures */
		for (int r = a->ui.lay.pane[PANE_OUTPUT].h; r >= 0 && !line; r--)
			line = output_row_line(a, r);
		if (!line)
			return false;
	}
	if (line > 0)
		app_goto_line(a, line);
	return true;
}

void app_teach_hints(struct app *a, const struct sp_result *r)
{
	/* right under the traceback they explain, whose last line names
	 * the exception */
	for (size_t i = 0; r && i < r->n_hints; i++) {
		const struct sp_hint *h = &r->hints[i];
		if (h->line > 0)
			output_message(a->pane.out, OUT_HINT, "hint, line %d: %s", h->line,
				       h->message);
		else
			output_message(a->pane.out, OUT_HINT, "hint: %s", h->message);
	}
}

void app_teach_marks(struct app *a)
{
	long lines[EDITOR_MAX_MARKS];
	const char *glyphs[EDITOR_MAX_MARKS];
	size_t n = 0;

	for (size_t i = 0; i < a->pane.viol.n && n < EDITOR_MAX_MARKS; i++) {
		if (a->pane.viol.items[i].line <= 0)
			continue;
		lines[n] = a->pane.viol.items[i].line;
		glyphs[n++] = violations_mark(a->pane.viol.items[i].kind, a->theme.mono);
	}
	editor_set_marks(a->pane.ed, lines, glyphs, n);
}
