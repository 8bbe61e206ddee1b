/* SPDX-License-Identifier: MIT */
/*
 * app_run_end.c - what a run leaves behind: the end of its stderr, kept
 * while it runs to find the traceback's line afterwards, and at its end
 * the result into the panes (Output's footer, the gauges' peaks, the
 * Violations, the Variables, the hints, the carry results, the status)
 * before the run is freed. app_run.c calls it as events come; step mode
 * (app_step.c) calls it when the events it held have been seen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "editor/editor.h"
#include "pane/pane_output.h"
#include "banned.h"

#define ERRTAIL_MAX 16384

void app_run_errtail_add(struct app *a, const char *s, size_t n)
{
	if (!a->run.errtail) {
		a->run.errtail = malloc(ERRTAIL_MAX);
		if (!a->run.errtail)
			return;
	}
	if (n >= ERRTAIL_MAX) {
		s += n - (ERRTAIL_MAX - 1);
		n = ERRTAIL_MAX - 1;
	}
	if (a->run.errtail_len + n >= ERRTAIL_MAX) {
		size_t drop = a->run.errtail_len + n - (ERRTAIL_MAX - 1);
		memmove(a->run.errtail, a->run.errtail + drop, a->run.errtail_len - drop);
		a->run.errtail_len -= drop;
	}
	memcpy(a->run.errtail + a->run.errtail_len, s, n);
	a->run.errtail_len += n;
	a->run.errtail[a->run.errtail_len] = '\0';
}

/* The last 'File "NAME", line N' of the traceback, for the Editor. */
static long traceback_line(const struct app *a)
{
	char pat[300];
	const char *p, *hit = NULL;
	int n;

	if (!a->run.errtail || !a->run.errtail_len)
		return 0;
	n = snprintf(pat, sizeof pat, "File \"%s\", line ", editor_name(a->pane.ed));
	if (n < 0 || (size_t)n >= sizeof pat)
		return 0;
	for (p = a->run.errtail; (p = strstr(p, pat)); p++)
		hit = p;
	return hit ? strtol(hit + n, NULL, 10) : 0;
}

void app_run_finish(struct app *a, const struct sp_result *r)
{
	const char *name = sp_status_name(r->status);
	long line;

	app_teach_hints(a, r);
	app_files_after_run(a, r);
	output_end_run(a->pane.out, r, name, (double)r->usage.wall_ms / 1000.0);
	gauges_finish(&a->pane.gauges, &r->usage);
	gauges_set_timeline(&a->pane.gauges, r->samples, r->n_samples);
	vars_set(&a->pane.vars, r);
	unsigned sel_id = violations_selected_id(&a->pane.viol);
	int sel_scroll = a->pane.viol.dscroll;
	violations_clear(&a->pane.viol);
	for (size_t i = 0; i < r->n_violations; i++)
		violations_upsert(&a->pane.viol, &r->violations[i],
				  r->violation_contexts ? r->violation_contexts[i] : NULL);
	violations_select_id(&a->pane.viol, sel_id, sel_scroll); /* the reader's place */
	app_teach_marks(a);
	free(a->run.carry_out);
	/* "{}": every carry() call was dropped (the Violations say why) */
	a->run.carry_out = r->carry_out && strcmp(r->carry_out, "{}") != 0 ?
			    strdup(r->carry_out) : NULL;
	if (a->run.carry_out)
		output_message(a->pane.out, OUT_INFO, "carry(): results ready - F2 "
			       "carries them into the Carry pane");
	snprintf(a->run.state, sizeof a->run.state, "%s", name);
	line = r->status == SP_STATUS_OK ? 0 : traceback_line(a);
	if (line > 0)
		editor_error_line(a->pane.ed, line);
	if (r->status == SP_STATUS_OK && r->n_violations)
		app_message(a, false, "run %d: see Violations (Alt-4)", a->run.no);
	else if (r->status == SP_STATUS_OK)
		app_message(a, false, "run %d: ok", a->run.no);
	else if (r->n_violations)
		app_message(a, true, "run %d: %s - see Violations (Alt-4)", a->run.no, name);
	else if (r->n_hints)
		app_message(a, true, "run %d: %s - a hint in Output says why", a->run.no, name);
	else
		app_message(a, true, "run %d: %s", a->run.no, name);
	app_lesson_finish(a, r); /* the verdict, after the run's own message */
	sp_run_free(a->run.sp);
	a->run.sp = NULL;
	a->run.cancelling = false;
}

void app_run_finish_now(struct app *a)
{
	const struct sp_result *r = a->run.sp ? sp_run_result(a->run.sp) : NULL;

	if (r) {
		app_run_finish(a, r);
	} else if (a->run.sp) {
		sp_run_free(a->run.sp);
		a->run.sp = NULL;
	}
}
