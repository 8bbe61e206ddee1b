/* SPDX-License-Identifier: MIT */
/*
 * app_run.c - the run as the playground drives it: build the config from
 * the Editor and the Carry pane, start it, turn its events into panes,
 * and take the result when it finishes. Never blocks: the loop in app.c
 * polls sp_run_fd() next to the keyboard and calls app_run_drain().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "pane/pane_output.h"
#include "editor/editor.h"
#include "app/run_sent.h"
#include "banned.h"

double app_run_seconds(const struct app *a)
{
	return a->run.sp ? app_now() - a->run.started : 0;
}

/* The Output pane's text area, as the run is told it (COLUMNS, LINES,
 * pandas' and numpy's widths): the pane as drawn, or, while another
 * pane is zoomed over it, as it will be drawn again. */
static void output_size(struct app *a, unsigned *cols, unsigned *lines)
{
	struct rect in = rect_inner(a->ui.lay.pane[PANE_OUTPUT]);

	if (in.w < 2 || in.h < 1) {
		app_layout(a); /* the next draw zooms again */
		in = rect_inner(a->ui.lay.pane[PANE_OUTPUT]);
	}
	/* the first column is the stderr gutter */
	*cols = in.w > 1 && in.w - 1 <= SP_MAX_COLUMNS ? (unsigned)(in.w - 1) : 0;
	*lines = in.h > 0 && in.h <= SP_MAX_LINES ? (unsigned)in.h : 0;
	if (!*cols || !*lines)
		*cols = *lines = 0;
}

/* The carry buffer must be JSON (or empty) before anything starts; the
 * whole reason in Output, where it wraps, and the cursor on it. */
static bool carry_ready(struct app *a)
{
	int line, col;

	if (carry_check(&a->pane.carry))
		return true;
	output_message(a->pane.out, OUT_ERROR, "Run refused: %s. Fix it in the "
		       "Carry pane (or empty it) and run again.", a->pane.carry.error);
	a->nav.focus = PANE_CARRY;
	if (carry_goto_error(&a->pane.carry, &line, &col))
		app_message(a, true, "Run refused: carry buffer line %d, column %d "
			    "- see Output", line, col);
	else
		app_message(a, true, "Run refused: the carry buffer - see Output");
	return false;
}

/* What the run is sent: the Editor's program, the carry buffer, stdin. */
struct run_inputs {
	char *code, *carry_in, *input;
	size_t code_len, carry_len, stdin_len;
};

static void inputs_free(struct run_inputs *in)
{
	free(in->code);
	free(in->carry_in);
	free(in->input);
}

/* Take the inputs; false (said, nothing held) when the run is refused. */
static bool inputs_take(struct app *a, struct run_inputs *in)
{
	char serr[256];

	memset(in, 0, sizeof *in);
	in->code = editor_text(a->pane.ed, &in->code_len);
	if (!in->code) {
		app_message(a, true, "out of memory");
		return false;
	}
	in->input = stdin_text(&a->pane.stdin_buf, &in->stdin_len);
	if (in->stdin_len > STDIN_MAX) {
		app_message(a, true, "Run refused: the stdin buffer is over %u MiB",
			    STDIN_MAX >> 20);
		inputs_free(in);
		return false;
	}
	in->carry_in = carry_text(&a->pane.carry, &in->carry_len);
	if (carry_save_state(&a->pane.carry, serr, sizeof serr) < 0)
		app_message(a, true, "carry buffer not kept: %s", serr);
	return true;
}

/* The run's config: the inputs, the limits (a lesson's or a demo's over
 * the config's), the attached files; false (said) when it is refused. */
static bool config_build(struct app *a, const struct run_inputs *in, struct sp_config *c)
{
	struct sp_error err = { { 0 } };

	sp_config_init(c);
	c->python = a->cfg.python[0] ? a->cfg.python : NULL;
	c->code = in->code;
	c->code_len = in->code_len;
	c->filename = editor_name(a->pane.ed);
	c->carry_in = in->carry_in;
	c->carry_in_len = in->carry_len;
	c->stdin_data = in->input;
	c->stdin_len = in->stdin_len;
	c->keep_output = false; /* we stream output into the bounded history */
	c->limits = a->cfg.limits;
	output_size(a, &c->columns, &c->lines);
	app_files_before_run(a, c);
	if (app_lesson_run_config(a, c) < 0)
		return false;
	app_demo_limits(a, &c->limits); /* the CPU demo's wall limit */
	/* the attached files, checked at this run's limits (F4 may have
	 * lowered the disk limit since F7): refused here, with the sizes */
	if (sp_files_in_check(c, &err) < 0) {
		output_message(a->pane.out, OUT_ERROR, "Run refused: %s. F7 detaches a file; "
			       "F4 sets the disk limit.", err.msg);
		app_message(a, true, "Run refused: the attached files - see Output");
		runfiles_drop_if_empty(a->files.keep_dir);
		return false;
	}
	return true;
}

/* The panes start afresh for run number a->run.no, which Output heads
 * with what it is sent. */
static void panes_begin(struct app *a, const struct sp_config *c,
			const struct run_inputs *in)
{
	char sent[512];

	editor_error_line(a->pane.ed, 0);
	editor_set_marks(a->pane.ed, NULL, NULL, 0);
	violations_clear(&a->pane.viol);
	gauges_reset(&a->pane.gauges, &c->limits, true);
	output_begin_run(a->pane.out, a->run.no, c->filename ? c->filename : "main.py");
	run_sent_line(sent, sizeof sent, in->carry_in, in->carry_len, in->input,
		      in->stdin_len);
	if (sent[0])
		output_message(a->pane.out, OUT_INFO, "%s", sent);
	if (a->files.keep_err[0])
		output_message(a->pane.out, OUT_ERROR, "This run's files are not kept: %s",
			       a->files.keep_err);
	if (a->files.attached.n) {
		char names[512];
		attach_names(&a->files.attached, names, sizeof names);
		output_message(a->pane.out, OUT_INFO, "files in: %s", names);
	}
}

/* The prepared sandbox when it is ready and made for this run, else a
 * cold start; a start that fails ends the run at once. */
static void sandbox_start(struct app *a, const struct sp_config *c)
{
	struct sp_error err = { { 0 } };

	if (app_prewarm_take(a, c, &a->run.sp) || sp_run_start(c, &a->run.sp, &err) >= 0) {
		a->run.started = app_now();
		app_message(a, false, "running %s - Esc cancels", c->filename ?
			    c->filename : "main.py");
		return;
	}
	runfiles_drop_if_empty(a->files.keep_dir);
	a->run.sp = NULL;
	output_message(a->pane.out, OUT_ERROR, "%s",
		       err.msg[0] ? err.msg : "the sandbox could not start");
	output_end_run(a->pane.out, NULL, "sandbox_error", 0);
	app_lesson_finish(a, NULL);
	gauges_finish(&a->pane.gauges, NULL);
	snprintf(a->run.state, sizeof a->run.state, "sandbox_error");
	app_message(a, true, "the run did not start - see Output");
}

/* F5: the last run's held output first (step mode), then the checks,
 * the config, the panes, the sandbox. */
void app_run_start(struct app *a)
{
	struct run_inputs in;
	struct sp_config c;

	if (a->run.sp) {
		app_message(a, true, "a run is already going - Esc cancels it");
		return;
	}
	app_step_flush(a); /* step mode: the last run is shown in full first */
	app_step_begin(a);
	if (!carry_ready(a) || !inputs_take(a, &in))
		return;
	if (config_build(a, &in, &c)) {
		a->run.no++;
		a->run.errtail_len = 0;
		a->run.cancelling = false;
		panes_begin(a, &c, &in);
		sandbox_start(a, &c);
	}
	inputs_free(&in);
	a->ui.dirty = true;
}

void app_run_cancel(struct app *a)
{
	if (!a->run.sp)
		return;
	sp_run_cancel(a->run.sp);
	a->run.cancelling = true;
	app_message(a, false, "cancelling the run ...");
	a->ui.dirty = true;
}

bool app_run_drain(struct app *a, int max)
{
	struct sp_event ev;

	while (a->run.sp && max-- > 0) {
		if (sp_run_next_event(a->run.sp, &ev) <= 0)
			return false;
		a->ui.dirty = true;
		/* step mode holds output and violations back (app_step.c) */
		if (ev.type != SP_EVENT_FINISHED && app_step_hold(a, &ev))
			continue;
		if (ev.type == SP_EVENT_FINISHED && app_step_hold_finish(a))
			return false;
		switch (ev.type) {
		case SP_EVENT_STDOUT:
			output_program(a->pane.out, OUT_STDOUT, ev.data, ev.len);
			app_lesson_output(a, ev.data, ev.len);
			break;
		case SP_EVENT_STDERR:
			output_program(a->pane.out, OUT_STDERR, ev.data, ev.len);
			app_run_errtail_add(a, ev.data, ev.len);
			break;
		case SP_EVENT_USAGE:
			if (ev.usage)
				gauges_update(&a->pane.gauges, ev.usage);
			break;
		case SP_EVENT_VIOLATION:
			if (ev.violation)
				violations_upsert(&a->pane.viol, ev.violation, ev.data);
			break;
		case SP_EVENT_FINISHED: {
			const struct sp_result *r = ev.result ? ev.result
					      : sp_run_result(a->run.sp);
			if (r) {
				app_run_finish(a, r);
			} else {
				sp_run_free(a->run.sp);
				a->run.sp = NULL;
			}
			return false;
		}
		case SP_EVENT_READY:
			break;
		}
	}
	return a->run.sp != NULL;
}

