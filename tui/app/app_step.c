/* SPDX-License-Identifier: MIT */
/*
 * app_step.c - step mode, for a teacher in front of a class: a run's
 * output and violations are held back and shown at the teacher's pace.
 * Space shows everything up to the next violation and stops there: the
 * record is selected in the Violations pane and its line marked in the
 * Editor, so the class sees what the program did and where the sandbox
 * stopped it. Esc (or F5, or leaving step mode) shows the rest; while the
 * program still runs, Esc shows what was held and lets the rest of that
 * run show as it comes (it never cancels the run: Ctrl-C does). No key of
 * step mode reaches the Editor: a Space while there is nothing to show
 * yet, or after the last step, is swallowed and said.
 *
 * The program itself is never paused: it runs under its real limits and
 * its real clock, and only the showing waits. (Pausing the sandboxed
 * process would make the wall clock, and the lesson, lie.) The finished
 * run is kept, unfreed, until everything held has been shown; then the
 * usual end of a run (status, gauges, carry, the lesson's verdict)
 * happens as if it had just finished.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "pane/pane_output.h"
#include "editor/editor.h"
#include "buf.h"
#include "banned.h"

struct held {
	enum sp_event_type type;
	char *data;                 /* STDOUT/STDERR bytes; VIOLATION: its context */
	size_t len;
	struct sp_violation v;      /* VIOLATION: a deep copy */
};

struct step {
	struct held *q;
	size_t n, cap, head;
	struct sp_run *done;        /* finished, waiting to be shown */
};

/* The step state, made on first use; NULL when memory ran out. */
static struct step *step_of(struct app *a)
{
	if (!a->step.held)
		a->step.held = calloc(1, sizeof *a->step.held);
	return a->step.held;
}

bool app_step_pending(const struct app *a)
{
	return a->step.held && (a->step.held->head < a->step.held->n || a->step.held->done);
}

size_t app_step_violations_left(const struct app *a)
{
	size_t k = 0;

	for (size_t i = a->step.held ? a->step.held->head : 0; a->step.held && i < a->step.held->n; i++)
		k += a->step.held->q[i].type == SP_EVENT_VIOLATION;
	return k;
}

/* Copy ev onto the queue; false when it cannot be held (then it is shown
 * at once, so nothing is lost). */
bool app_step_hold(struct app *a, const struct sp_event *ev)
{
	struct step *s;
	struct held h = { .type = ev->type };

	if (!a->step.on || a->step.released || ev->type == SP_EVENT_USAGE ||
	    ev->type == SP_EVENT_FINISHED)
		return false;
	if (!(s = step_of(a)))
		return false;
	if (ev->type == SP_EVENT_VIOLATION) {
		if (!ev->violation)
			return false;
		h.v = *ev->violation;
		h.v.what = strdup(ev->violation->what ? ev->violation->what : "");
		h.v.message = strdup(ev->violation->message ? ev->violation->message : "");
		if (!h.v.what || !h.v.message)
			goto fail;
		if (ev->data && !(h.data = strdup(ev->data)))
			goto fail;
	} else {
		h.data = malloc(ev->len ? ev->len : 1);
		if (!h.data)
			return false;
		memcpy(h.data, ev->data, ev->len);
		h.len = ev->len;
	}
	if (s->n == s->cap) {
		struct held *q = sp_grow(s->q, &s->cap, s->n + 1, sizeof *q);
		if (!q)
			goto fail;
		s->q = q;
	}
	s->q[s->n++] = h;
	return true;
fail:
	free(h.data);
	free(h.v.what);
	free(h.v.message);
	return false;
}

bool app_step_hold_finish(struct app *a)
{
	struct step *s = a->step.held;

	if (!a->step.on || !s || s->head >= s->n)
		return false;
	s->done = a->run.sp;
	a->run.sp = NULL;
	snprintf(a->run.state, sizeof a->run.state, "step");
	app_message(a, false, "step: %zu violation%s to show - Space shows the "
		    "next, Esc all", app_step_violations_left(a),
		    app_step_violations_left(a) == 1 ? "" : "s");
	return true;
}

/* Free what a held event owns. */
static void drop(struct held *h)
{
	free(h->data);
	free(h->v.what);
	free(h->v.message);
}

/* Show held events up to the next violation (all when to_end). */
static void show(struct app *a, bool to_end)
{
	struct step *s = a->step.held;

	while (s->head < s->n) {
		struct held *h = &s->q[s->head++];
		bool viol = h->type == SP_EVENT_VIOLATION;
		/* as app_run_drain shows them when they come */
		if (h->type == SP_EVENT_STDOUT) {
			output_program(a->pane.out, OUT_STDOUT, h->data, h->len);
			app_lesson_output(a, h->data, h->len);
		} else if (h->type == SP_EVENT_STDERR) {
			output_program(a->pane.out, OUT_STDERR, h->data, h->len);
			app_run_errtail_add(a, h->data, h->len);
		} else if (viol) {
			violations_upsert(&a->pane.viol, &h->v, h->data);
		}
		if (viol && a->pane.viol.n) {
			/* a record that grew comes again: select it by its id */
			violations_select_id(&a->pane.viol, h->v.id, 0);
			if (h->v.line > 0) {
				/* the line in view, centred, with its gutter glyph */
				editor_error_line(a->pane.ed, h->v.line);
				editor_show_line(a->pane.ed, h->v.line);
				app_teach_marks(a);
			}
		}
		drop(h);
		if (viol && !to_end)
			break;
	}
	if (s->head >= s->n) {
		s->head = s->n = 0;
		if (s->done) {
			/* the usual end of the run, now that all has been seen */
			a->run.sp = s->done;
			s->done = NULL;
			app_run_finish_now(a);
		}
	} else {
		size_t left = app_step_violations_left(a);
		app_message(a, false, "step: %zu more violation%s - Space shows the "
			    "next, Esc all", left, left == 1 ? "" : "s");
	}
	a->ui.dirty = true;
}

void app_step_begin(struct app *a)
{
	a->step.released = false;
	a->step.last_was_step = false;
}

/* Space with nothing held: in step mode it is still a step key, not a
 * space typed into the program (lesson 4's next run failed with an
 * IndentationError after one Space too many). */
static bool idle_space(struct app *a)
{
	if (a->run.sp && !a->step.released) {
		app_message(a, false, "step: nothing to show yet - the program is running");
		return true;
	}
	if (a->step.last_was_step) {
		app_message(a, false, "step: all of run %d is shown", a->run.no);
		return true;
	}
	return false;
}

bool app_step_key(struct app *a, bool is_key, int key)
{
	bool step_key = false;

	if (!a->step.on || is_key) {
		a->step.last_was_step = false;
		return false;
	}
	if (key == ' ') {
		if (app_step_pending(a))
			show(a, false), step_key = true;
		else
			step_key = idle_space(a);
	} else if (key == 27 && (app_step_pending(a) || (a->run.sp && !a->step.released))) {
		/* the rest; a run still going shows as it comes from now on */
		if (a->run.sp) {
			a->step.released = true;
			app_message(a, false, "step: the rest of run %d shows as it comes "
				    "(Ctrl-C cancels it)", a->run.no);
		}
		if (app_step_pending(a))
			show(a, true);
		step_key = true;
	}
	a->step.last_was_step = step_key;
	return step_key;
}

void app_step_flush(struct app *a)
{
	if (app_step_pending(a))
		show(a, true);
}

void app_step_toggle(struct app *a)
{
	a->step.on = !a->step.on;
	if (!a->step.on)
		app_step_flush(a);
	app_message(a, false, a->step.on ? "step mode: runs show their output and "
		    "violations at your pace (Space: up to the next violation)" :
		    "step mode off");
}

void app_step_free(struct app *a)
{
	struct step *s = a->step.held;

	if (!s)
		return;
	for (size_t i = s->head; i < s->n; i++)
		drop(&s->q[i]);
	free(s->q);
	if (s->done)
		sp_run_free(s->done);
	free(s);
	a->step.held = NULL;
}
