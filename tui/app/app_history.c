/* SPDX-License-Identifier: MIT */
/*
 * app_history.c - the playground's side of the assistant's runs view
 * (history_view.h): opened from the demo menu (F3, then h), drawn over
 * the panes, and its two actions: load a run's code into the Editor (not
 * over unsaved changes) with its kept input files attached, show its
 * first picture large.
 */
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "editor/editor.h"
#include "pane/lesson_view.h"
#include "banned.h"

void app_history_open(struct app *a)
{
	history_view_open(&a->over.hist);
	a->ui.dirty = true;
}

/* The run's kept input files become the attached ones (F7), so that F5
 * runs the code with the files it had; "" or what to add to the message. */
static void attach_inputs(struct app *a, const struct mcp_run_entry *e, char *say, size_t len)
{
	char **paths, err[600];
	size_t not_kept, n = mcp_runs_inputs(e, &paths, &not_kept), attached = 0;

	say[0] = '\0';
	if (n) {
		attach_remove(&a->files.attached, (size_t)-1);
		for (size_t i = 0; i < n; i++)
			if (attach_add(&a->files.attached, paths[i], a->cfg.limits.disk_bytes, err,
				       sizeof err) == 0)
				attached++;
			else
				not_kept++;
		snprintf(say, len, ", %zu file%s attached", attached, attached == 1 ? "" : "s");
	}
	if (not_kept)
		snprintf(say + strlen(say), len - strlen(say), ", %zu not kept (see the run)",
			 not_kept);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

/* The stdin and carry the run was sent go into the Stdin tab and the
 * carry buffer (one edit each: Ctrl-Z there brings the old text back). */
static void load_sent(struct app *a, const struct mcp_run_entry *e, char *say, size_t len)
{
	char *in, *carry;
	size_t in_len;

	mcp_runs_sent(e, &in, &in_len, &carry);
	if (in) {
		editor_replace_all(a->pane.stdin_buf.ed, in, in_len);
		snprintf(say + strlen(say), len - strlen(say), ", stdin");
	}
	if (carry) {
		carry_replace(&a->pane.carry, carry, strlen(carry));
		snprintf(say + strlen(say), len - strlen(say), ", carry");
	}
	free(in);
	free(carry);
}

static void load_code(struct app *a)
{
	const struct mcp_run_entry *e = a->over.hist.sel < a->over.hist.n ? &a->over.hist.runs[a->over.hist.sel] : NULL;
	char *code, files[120];
	size_t len;
	char when[sizeof e->when];

	if (!e)
		return;
	if (app_unsaved(a)) {
		app_message(a, true, "the Editor has unsaved changes: save them (Ctrl-S) first, "
			    "then e loads this run's code");
		return;
	}
	if (!(code = mcp_runs_code(e, &len))) {
		app_message(a, true, "this run's code.py is gone from the history");
		return;
	}
	memcpy(when, e->when, sizeof when);
	attach_inputs(a, e, files, sizeof files);
	load_sent(a, e, files, sizeof files);
	app_lesson_keep_work(a);
	if (a->lesson.view)
		a->lesson.view->cur = -1; /* not a lesson's program: the lesson closes */
	editor_set_text(a->pane.ed, code, len, "assistant.py");
	free(code);
	history_view_close(&a->over.hist);
	a->recovery.restored = false;
	a->nav.focus = PANE_EDITOR;
	/* short, and the time only: at 80 columns a message gets 28 */
	app_message(a, false, "loaded the run of %s%s", strlen(when) > 11 ? when + 11 : when,
		    files);
}

bool app_history_key(struct app *a, int key)
{
	if (!a->over.hist.active)
		return false;
	switch (history_view_key(&a->over.hist, key, a->ui.lay.rows)) {
	case HV_LOAD_CODE:
		load_code(a);
		break;
	case HV_PICTURE:
		image_view_open(&a->files.iview, a->over.hist.picture, "the run's picture");
		break;
	case HV_NO_PICTURE:
		app_message(a, false, "this run left no picture");
		break;
	case HV_NONE:
		break;
	}
	a->ui.dirty = true;
	return true;
}

void app_history_draw(struct app *a)
{
	if (a->over.hist.active)
		history_view_draw(&a->over.hist, stdscr, LINES, COLS, &a->theme);
}
