/* SPDX-License-Identifier: MIT */
/*
 * app_files.c - files in and out of the playground's runs: F7 / Ctrl-T
 * attaches host files (one prompt that lists them, attaches a path or
 * detaches by number), F8 / Ctrl-N opens the last run's kept files
 * (tui/pane/fileview.c), and a run's keep dir under runs/ is made before it
 * and pruned after it (tui/config/runfiles.c).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "text/sanitize.h"
#include "pane/pane_output.h"
#include "pane/picture.h"
#include "banned.h"

#define CTRL(c) ((c) & 0x1f)

static void attach_prompt(struct app *a)
{
	char text[sizeof a->over.dlg.text];

	attach_dialog_text(&a->files.attached, text, sizeof text);
	dialog_prompt(&a->over.dlg, ACT_ATTACH, "Attach files (F7)", text, NULL);
}

/* F7 or Ctrl-T attach, F8 or Ctrl-N open the last run's files, from any
 * pane (Tab indents in the Editor; Ctrl-T is free for this). */
bool app_files_key(struct app *a, bool fkey, int key)
{
	if ((fkey && key == KEY_F(7)) || (!fkey && key == CTRL('t'))) {
		attach_prompt(a);
		return true;
	}
	if ((fkey && key == KEY_F(8)) || (!fkey && key == CTRL('n'))) {
		fileview_open(&a->files.fview, &a->files.last);
		return true;
	}
	return false;
}

/* "-2" detaches number 2, "-" all, anything else is a path to attach. */
static void attach_answer(struct app *a, const char *input)
{
	char err[600], names[256];

	if (!input[0]) {
		app_message(a, false, "nothing attached");
		return;
	}
	if (input[0] == '-' && (!input[1] || (input[1] >= '0' && input[1] <= '9'))) {
		char *end;
		long i = input[1] ? strtol(input + 1, &end, 10) : 0;
		if (input[1] && (*end || i < 1 || (size_t)i > a->files.attached.n)) {
			app_message(a, true, "no attached file number %s (F7 lists them)", input + 1);
			return;
		}
		attach_remove(&a->files.attached, input[1] ? (size_t)(i - 1) : (size_t)-1);
		attach_names(&a->files.attached, names, sizeof names);
		app_message(a, false, a->files.attached.n ? "detached; attached now: %s" :
			    "detached%s: no files go into runs", a->files.attached.n ? names : "");
		return;
	}
	if (attach_add(&a->files.attached, input, a->cfg.limits.disk_bytes, err, sizeof err) < 0) {
		/* whole in Output (the sizes, what to do): the status line cuts it */
		output_message(a->pane.out, OUT_ERROR, "F7: %s.", err);
		app_message(a, true, "not attached - see Output");
		return;
	}
	attach_names(&a->files.attached, names, sizeof names);
	app_message(a, false, "attached: every run gets a copy of %s (F7 detaches)", names);
}

/* "saved a copy as /dir/name": where it went, whole */
static void saved_message(struct app *a, const char *input)
{
	char abs[PATH_MAX];
	char *clean = sanitize_dup(realpath(input, abs) ? abs : input, true);

	app_message(a, false, "saved a copy as %s", clean ? clean : input);
	free(clean);
}

bool app_files_dialog(struct app *a, int action, enum dialog_answer ans, const char *input)
{
	char err[600];

	if (action == ACT_ATTACH) {
		if (ans == DLG_YES)
			attach_answer(a, input);
		return true;
	}
	if (action != ACT_FILE_SAVE)
		return false;
	if (ans != DLG_YES || !input[0] || a->files.fview.sel >= a->files.last.n) {
		app_message(a, false, "not saved");
		return true;
	}
	if (fileview_save_copy(a->files.last.files[a->files.fview.sel].host_path, input,
			       err, sizeof err) < 0)
		app_message(a, true, "%s", err);
	else
		saved_message(a, input);
	return true;
}

/* Ask where to save a copy of the file chosen in the F8 list, saying
 * the directory a relative name goes into (sandpit's own). */
static void save_prompt(struct app *a)
{
	const char *name = a->files.last.files[a->files.fview.sel].name;
	const char *base = strrchr(name, '/');
	char *clean = sanitize_dup(base ? base + 1 : name, true);
	char cwd[PATH_MAX], text[PATH_MAX + 96];
	char *where = getcwd(cwd, sizeof cwd) ? sanitize_dup(cwd, true) : NULL;

	snprintf(text, sizeof text, "Save a copy of this file as a new file, in %s "
		 "(or give another path):", where ? where : "the current directory");
	dialog_prompt(&a->over.dlg, ACT_FILE_SAVE, "Save a copy", text, clean);
	free(where);
	free(clean);
}

void app_view_output_picture(struct app *a, struct picture *p)
{
	int nth = 0, count = 0;
	char name[320];

	output_picture_step(a->pane.out, p, 0, &nth, &count);
	if (count > 1)
		snprintf(name, sizeof name, "%s (%d of %d: n/p the others)", picture_name(p),
			 nth, count);
	else
		snprintf(name, sizeof name, "%s", picture_name(p));
	image_view_open(&a->files.iview, picture_path(p), name);
	a->files.iview_pic = p;
}

bool app_files_view_key(struct app *a, int key)
{
	if (a->files.iview.active) {
		int nth, count;
		struct picture *next = a->files.iview_pic && (key == 'n' || key == 'p') ?
			output_picture_step(a->pane.out, a->files.iview_pic, key == 'n' ? 1 : -1,
					    &nth, &count) : NULL;
		if (next)
			app_view_output_picture(a, next);
		else if (key == 's' && a->files.fview.active && a->files.fview.sel < a->files.last.n)
			save_prompt(a); /* the picture's file, from the list */
		else
			image_view_key(&a->files.iview, key);
		if (!a->files.iview.active)
			a->files.iview_pic = NULL;
		return true;
	}
	if (!a->files.fview.active)
		return false;
	if (fileview_key(&a->files.fview, &a->files.last, key, a->ui.lay.rows) == FV_SAVE) {
		save_prompt(a);
	} else if (a->files.fview.viewing && a->files.fview.is_image) {
		/* a picture is shown large, over the list it came from */
		const struct run_file *f = &a->files.last.files[a->files.fview.sel];
		char *clean = sanitize_dup(f->name, true);
		a->files.fview.viewing = false;
		image_view_open(&a->files.iview, f->host_path, clean);
		a->files.iview_pic = NULL;
		free(clean);
	}
	return true;
}

void app_files_before_run(struct app *a, struct sp_config *c)
{
	c->files_in = a->files.attached.in;
	c->n_files_in = a->files.attached.n;
	a->files.keep_dir[0] = '\0';
	if (runfiles_new_dir(a->run.no + 1, a->files.keep_dir, sizeof a->files.keep_dir,
			     a->files.keep_err, sizeof a->files.keep_err) == 0)
		c->keep_dir = a->files.keep_dir;
}

void app_files_after_run(struct app *a, const struct sp_result *r)
{
	if (a->files.fview.active)
		fileview_close(&a->files.fview);
	image_view_close(&a->files.iview);
	runfiles_take(&a->files.last, r, a->run.no, a->files.keep_dir);
	if (!a->files.last.n)
		runfiles_drop_if_empty(a->files.keep_dir);
	runfiles_prune(a->cfg.keep_runs, a->cfg.keep_bytes,
		       a->files.last.n ? a->files.keep_dir : NULL);
}

void app_files_free(struct app *a)
{
	image_view_close(&a->files.iview);
	fileview_close(&a->files.fview);
	runfiles_free(&a->files.last);
	attach_free(&a->files.attached);
	history_view_close(&a->over.hist);
}
