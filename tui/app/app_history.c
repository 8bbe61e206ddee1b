/* SPDX-License-Identifier: MIT */
/*
 * app_history.c - the playground's side of the assistant's runs view
 * (history_view.h): opened from the demo menu (F3, then h), drawn over
 * the panes, and its two actions: load a run's code into the Editor (not
 * over unsaved changes), show its first picture large.
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

static void load_code(struct app *a)
{
	const struct mcp_run_entry *e = a->over.hist.sel < a->over.hist.n ? &a->over.hist.runs[a->over.hist.sel] : NULL;
	char *code;
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
	app_lesson_keep_work(a);
	if (a->lesson.view)
		a->lesson.view->cur = -1; /* not a lesson's program: the lesson closes */
	editor_set_text(a->pane.ed, code, len, "assistant.py");
	free(code);
	history_view_close(&a->over.hist);
	a->recovery.restored = false;
	a->nav.focus = PANE_EDITOR;
	/* short, and the time only: at 80 columns a message gets 28 */
	app_message(a, false, "loaded the run of %s", strlen(when) > 11 ? when + 11 : when);
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
