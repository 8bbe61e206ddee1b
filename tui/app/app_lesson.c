/* SPDX-License-Identifier: MIT */
/*
 * app_lesson.c - the lessons inside the playground: open one (its
 * starting program into the Editor), hints and the reference solution
 * on keys, its limits and files on every run, and after each run the
 * check's verdict in the strip above the panes, with progress kept.
 * lesson_view.c draws; lesson_check.c judges; this file is the glue.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app.h"
#include "text/sanitize.h"
#include "pane/pane_output.h"
#include "editor/editor.h"
#include "pane/lesson_view.h"
#include "text/fileio.h"
#include "banned.h"

bool app_in_lesson(const struct app *a)
{
	return a->lesson.view && a->lesson.view->cur >= 0;
}

bool app_lessons_load(struct app *a)
{
	struct lesson_view *v;
	char err[700];

	if (a->lesson.view)
		return true;
	v = calloc(1, sizeof *v);
	if (!v) {
		app_message(a, true, "out of memory");
		return false;
	}
	v->cur = -1;
	if (lesson_set_load(&v->set, a->cfg.lessons_dir) < 0 && !v->set.n_errors)
		output_message(a->pane.out, OUT_ERROR, "lessons: out of memory");
	for (size_t i = 0; i < v->set.n_errors; i++)
		output_message(a->pane.out, OUT_ERROR, "lesson file not loaded: %s",
			       v->set.errors[i]);
	if (v->set.n_errors)
		output_message(a->pane.out, OUT_ERROR, "%zu lesson file%s not loaded - F3, "
			       "then z, shows why; the %zu other lessons are here",
			       v->set.n_errors, v->set.n_errors == 1 ? "" : "s", v->set.n);
	if (lesson_progress_load(&v->prog, err, sizeof err) < 0)
		output_message(a->pane.out, OUT_ERROR, "lesson progress: %s", err);
	a->lesson.view = v;
	return true;
}

void app_lessons_free(struct app *a)
{
	struct lesson_view *v = a->lesson.view;

	if (!v)
		return;
	app_lesson_again_stop(a);
	lesson_stage_remove(&v->stage);
	free(v->program);
	free(v->carry_in);
	lesson_set_free(&v->set);
	lesson_progress_free(&v->prog);
	free(v->out);
	free(v);
	a->lesson.view = NULL;
}

void app_lessons_begin(struct app *a)
{
	struct lesson_view *v;
	long i;

	if (!app_lessons_load(a))
		return;
	v = a->lesson.view;
	if (!v->set.n) {
		output_message(a->pane.out, OUT_ERROR, "no lessons could be loaded");
		return;
	}
	i = lesson_set_find(&v->set, v->prog.current);
	for (size_t k = 0; i < 0 && k < v->set.n; k++)
		if (!lesson_progress_passed(&v->prog, v->set.v[k].id))
			i = (long)k;
	app_lesson_open(a, i < 0 ? 0 : (size_t)i, false);
	output_message(a->pane.out, OUT_INFO, "Lessons: each one is a wall of the "
		       "sandbox and the way past it. The strip above says the "
		       "goal; F5 runs, F10 gives a hint, F3 lists the lessons.");
}

/* Where the learner's own program for lesson l is kept:
 * $XDG_STATE_HOME/sandpit/lessons/ID.py ('/' of a teacher's id as '%');
 * ID.mine.py is the learner's version set aside when the reference
 * solution is loaded (ext). 0, or -1 when there is no state directory. */
static int work_path_ext(const struct lesson *l, const char *ext, char *buf,
			 size_t len, bool create)
{
	char name[300];
	size_t k = 0, el = strlen(ext);

	for (const char *s = l->id; *s && k + el + 1 < sizeof name; s++)
		name[k++] = *s == '/' ? '%' : *s;
	memcpy(name + k, ext, el + 1);
	if (config_state_path("lessons", buf, len, create) < 0)
		return -1;
	if (create)
		mkdir(buf, 0700);
	size_t n = strlen(buf);
	return snprintf(buf + n, len - n, "/%s", name) >= (int)(len - n) ? -1 : 0;
}

static int work_path(const struct lesson *l, char *buf, size_t len, bool create)
{
	return work_path_ext(l, ".py", buf, len, create);
}

void app_lesson_keep_work(struct app *a)
{
	struct lesson_view *v = a->lesson.view;
	const struct lesson *l;
	char path[CONFIG_PATH_MAX + 320], err[300];
	char *text;

	/* a file the learner opened is theirs to save, not lesson work */
	if (!app_in_lesson(a) || editor_path(a->pane.ed))
		return;
	l = &v->set.v[v->cur];
	text = editor_text(a->pane.ed, NULL);
	if (!text || work_path(l, path, sizeof path, true) < 0) {
		free(text);
		return;
	}
	if (!strcmp(text, l->start))
		unlink(path); /* nothing of the learner's to keep */
	else if (editor_recovery_write(a->pane.ed, path, err, sizeof err) < 0)
		app_message(a, true, "your lesson program was not kept: %s", err);
	free(text);
}

/* The learner's kept program for l (malloc'd), or NULL. */
static char *load_work(const struct lesson *l, size_t *len)
{
	char path[CONFIG_PATH_MAX + 320];
	struct fio_error e;

	if (work_path(l, path, sizeof path, false) < 0)
		return NULL;
	return fio_read(path, LESSON_MAX_BYTES, FIO_NOFOLLOW, len, &e);
}

void app_lesson_carry(struct app *a)
{
	char path[CONFIG_PATH_MAX + 320], err[1400];
	const char *use = NULL;

	if (app_in_lesson(a)) {
		const struct lesson *l = &a->lesson.view->set.v[a->lesson.view->cur];
		if (work_path_ext(l, ".carry.json", path, sizeof path, true) < 0) {
			output_message(a->pane.out, OUT_ERROR, "the lesson's carry buffer "
				       "has no place (set HOME or XDG_STATE_HOME): it "
				       "starts empty and is not kept");
			path[0] = '\0';
		}
		use = path;
	}
	if (carry_use_state(&a->pane.carry, use, err, sizeof err) < 0)
		output_message(a->pane.out, OUT_ERROR, "the carry buffer could not be "
			       "kept (%s): it stays in the Carry pane", err);
}

void app_lesson_open(struct app *a, size_t i, bool ask)
{
	struct lesson_view *v = a->lesson.view;
	const struct lesson *l;
	char name[300], err[700];
	const char *base;

	if (!v || i >= v->set.n)
		return;
	/* the lesson open now keeps its program; only other text may be lost */
	app_lesson_keep_work(a);
	if (ask && app_unsaved(a) && !(app_in_lesson(a) && !editor_path(a->pane.ed))) {
		a->keys.pending_demo = i;
		dialog_ask(&a->over.dlg, ACT_LESSON_DISCARD, "Unsaved changes",
			   "The Editor has unsaved changes. Replace them with the "
			   "lesson's program? (s saves them first)", true);
		return;
	}
	l = &v->set.v[i];
	base = strrchr(l->id, '/');
	snprintf(name, sizeof name, "%s.py", base ? base + 1 : l->id);
	size_t wl = 0;
	char *work = load_work(l, &wl);
	if (work)
		editor_set_text(a->pane.ed, work, wl, name);
	else
		editor_set_text(a->pane.ed, l->start, strlen(l->start), name);
	free(work);
	a->recovery.restored = false;
	a->nav.focus = PANE_EDITOR;
	a->lesson.demo_loaded = 0;
	v->cur = (long)i;
	app_lesson_carry(a);
	v->hints_shown = 0;
	v->judged = false;
	v->verdict_pass = false;
	if (lesson_progress_set_current(&v->prog, l->id, err, sizeof err) < 0)
		app_message(a, true, "lesson %zu: %s", i + 1, err);
	else if (work)
		app_message(a, false, "lesson %zu: your program from last time - "
			    "Ctrl-D, then r, starts it afresh", i + 1);
	else
		app_message(a, false, "lesson %zu: %s - F5 runs it", i + 1, l->title);
	if (l->capped[0])
		output_message(a->pane.out, OUT_INFO, "lesson %zu: its limits are lowered to the "
			       "most a lesson may set: %s", i + 1, l->capped);
	a->ui.dirty = true;
}

void app_lesson_menu(struct app *a)
{
	if (!app_lessons_load(a))
		return;
	if (!a->lesson.view->set.n) {
		app_message(a, true, "no lessons could be loaded (see Output)");
		return;
	}
	lesson_menu_open(a->lesson.view);
}

/* The lesson's starting program again (the kept one is forgotten). */
static void restart_lesson(struct app *a)
{
	const struct lesson *l;
	char path[CONFIG_PATH_MAX + 320];

	if (!app_in_lesson(a))
		return;
	l = &a->lesson.view->set.v[a->lesson.view->cur];
	if (work_path(l, path, sizeof path, false) == 0)
		unlink(path);
	editor_set_text(a->pane.ed, l->start, strlen(l->start), editor_name(a->pane.ed));
	carry_clear(&a->pane.carry);          /* the lesson's own buffer, afresh too */
	a->lesson.view->hints_shown = 0;
	a->lesson.view->judged = false;
	app_message(a, false, "lesson %ld: the starting program again", a->lesson.view->cur + 1);
}

long app_lesson_menu_key(struct app *a, int key)
{
	long r = lesson_menu_key(a->lesson.view, key);

	if (r >= 0)
		app_lesson_open(a, (size_t)r, true);
	else if (r == LESSON_MENU_DEMOS)
		demo_menu_open(&a->over.menu);
	else if (r == LESSON_MENU_HINT)
		app_lesson_hint(a);
	else if (r == LESSON_MENU_SOLUTION)
		app_lesson_solution(a, true);
	else if (r == LESSON_MENU_RESTART && app_in_lesson(a))
		dialog_ask(&a->over.dlg, ACT_LESSON_RESTART, "Start afresh",
			   "Replace the Editor's program with the lesson's starting "
			   "program? (your version is forgotten)", false);
	return r;
}

void app_lesson_hint(struct app *a)
{
	struct lesson_view *v = a->lesson.view;
	const struct lesson *l;

	if (!app_in_lesson(a)) {
		app_message(a, true, "no lesson is open: F3, then l, lists them");
		return;
	}
	l = &v->set.v[v->cur];
	if (!l->n_hints)
		app_lesson_solution(a, true);
	else if (v->hints_shown < l->n_hints) {
		/* the hint in full in Output too: the strip may be short */
		char *h = strdup(l->hints[v->hints_shown]);
		v->hints_shown++;
		for (char *c = h; c && *c; c++)
			if (*c == '\n')
				*c = ' ';
		output_message(a->pane.out, OUT_INFO, "lesson %ld, hint %zu/%zu: %s",
			       v->cur + 1, v->hints_shown, l->n_hints, h ? h : "");
		free(h);
	} else
		app_lesson_solution(a, true); /* past the last hint: the solution? */
	a->ui.dirty = true;
}

void app_lesson_solution(struct app *a, bool ask)
{
	struct lesson_view *v = a->lesson.view;
	const struct lesson *l;

	if (!app_in_lesson(a)) {
		app_message(a, true, "no lesson is open: F3, then l, lists them");
		return;
	}
	if (ask) {
		dialog_ask(&a->over.dlg, ACT_LESSON_SOLUTION, "Solution",
			   "Replace the Editor's program with the lesson's reference "
			   "solution? (That was the last hint, if any.)", false);
		return;
	}
	l = &v->set.v[v->cur];
	/* the learner's version is set aside, and the load is one undo step */
	char path[CONFIG_PATH_MAX + 320], err[300];
	char *mine = editor_text(a->pane.ed, NULL);
	bool aside = mine && strcmp(mine, l->start) && strcmp(mine, l->solution) &&
		     work_path_ext(l, ".mine.py", path, sizeof path, true) == 0 &&
		     editor_recovery_write(a->pane.ed, path, err, sizeof err) == 0;
	free(mine);
	editor_replace_all(a->pane.ed, l->solution, strlen(l->solution));
	a->nav.focus = PANE_EDITOR;
	if (aside)
		app_message(a, false, "the reference solution is in the Editor - Ctrl-Z "
			    "brings yours back (kept as lessons/%s)", strrchr(path, '/') + 1);
	else
		app_message(a, false, "the reference solution is in the Editor - Ctrl-Z "
			    "undoes it, F5 runs it");
}

void app_lesson_dialog(struct app *a, int action, enum dialog_answer ans)
{
	if (action == ACT_LESSON_SOLUTION && ans == DLG_YES)
		app_lesson_solution(a, false);
	else if (action == ACT_LESSON_RESTART && ans == DLG_YES)
		restart_lesson(a);
}

/* From this height (and LAYOUT_WIDE_W columns) a lesson's strip has room
 * for its goal, hints and keys beside the wide layout's panes. */
#define LESSON_ROOMY_H 32

void app_layout(struct app *a)
{
	/* a quarter of the screen at most (5 rows at least), and never so
	 * much that the panes would not fit: the strip shrinks first */
	int room = LINES / 4 > 5 ? LINES / 4 : 5;
	int top;

	/* On a narrow or short screen the program comes first: the strip is
	 * its frame and one row (the verdict, else the hint, else the goal,
	 * each folded: ^D z reads it whole), and the panes put the Editor
	 * above a bottom row. Elsewhere a hint or a verdict to read gets a
	 * third of the screen. */
	bool compact = COLS < LAYOUT_WIDE_W || LINES < LESSON_ROOMY_H;
	if (app_in_lesson(a) && compact)
		room = 3;
	else if (app_in_lesson(a) && (a->lesson.view->hints_shown ||
				      (a->lesson.view->judged && !a->lesson.view->verdict_pass)))
		room = LINES / 3 > room ? LINES / 3 : room;

	if (room > LINES - LAYOUT_MIN_H)
		room = LINES - LAYOUT_MIN_H;
	top = app_in_lesson(a) ? lesson_view_rows(a->lesson.view, COLS, room) : 0;
	layout_compute(&a->ui.lay, LINES - top, COLS);
	if (app_in_lesson(a) && compact)
		layout_editor_first(&a->ui.lay);
	if (a->lesson.view)
		a->lesson.view->top = top;
	if (!top)
		return;
	for (int p = 0; p < PANE_COUNT; p++)
		a->ui.lay.pane[p].y += top;
	a->ui.lay.status.y += top;
	a->ui.lay.rows = LINES;
}

void app_lesson_draw(struct app *a)
{
	struct lesson_view *v = a->lesson.view;

	if (!v)
		return;
	if (v->top > 0 && !a->ui.lay.too_small)
		lesson_view_draw(v, stdscr, (struct rect){ 0, 0, v->top, COLS }, &a->theme);
	if (v->menu)
		lesson_menu_draw(v, stdscr, LINES, COLS, &a->theme);
	if (v->full && v->cur >= 0)
		lesson_full_draw(v, stdscr, LINES, COLS, &a->theme);
}

void app_demo_limits(const struct app *a, struct sp_limits *l)
{
	unsigned f;

	/* a demo still in the Editor (not a file, not a lesson) */
	if (!a->lesson.demo_loaded || app_in_lesson(a) || editor_path(a->pane.ed))
		return;
	f = demo_wall_factor(a->lesson.demo_loaded - 1);
	if (f && l->wall_ms < (uint64_t)f * l->cpu_ms)
		l->wall_ms = (uint64_t)f * l->cpu_ms;
}

void app_run_limits(const struct app *a, struct sp_limits *l)
{
	*l = a->cfg.limits;
	if (app_in_lesson(a))
		lesson_apply_limits(&a->lesson.view->set.v[a->lesson.view->cur], l);
	app_demo_limits(a, l);
}

int app_lesson_run_config(struct app *a, struct sp_config *c)
{
	struct lesson_view *v = a->lesson.view;
	const struct lesson *l;
	char err[600];

	if (!app_in_lesson(a))
		return 0;
	app_lesson_keep_work(a);
	l = &v->set.v[v->cur];
	lesson_apply_limits(l, &c->limits);
	lesson_stage_remove(&v->stage);
	if (lesson_stage_files(l, &v->stage, err, sizeof err) < 0) {
		app_message(a, true, "the lesson's files: %s", err);
		return -1;
	}
	/* the lesson's files, then those the learner attached (F7); a name
	 * both use is refused by the run, which names it */
	size_t n = 0;
	for (size_t i = 0; i < v->stage.n; i++)
		v->all_in[n++] = v->stage.in[i];
	for (size_t i = 0; i < c->n_files_in && n < sizeof v->all_in / sizeof *v->all_in; i++)
		v->all_in[n++] = c->files_in[i];
	c->files_in = v->all_in;
	c->n_files_in = n;
	v->out_len = 0;
	/* what the check reads besides the result: the text and the carry-in */
	app_lesson_again_forget(a);
	free(v->program);
	free(v->carry_in);
	v->program = strndup(c->code, c->code_len);
	v->carry_in = c->carry_in ? strndup(c->carry_in, c->carry_in_len) : NULL;
	return 0;
}

void app_lesson_output(struct app *a, const char *s, size_t n)
{
	if (app_in_lesson(a))
		lesson_view_output(a->lesson.view, s, n);
}

void app_lesson_verdict(struct app *a, bool pass, const char *verdict)
{
	struct lesson_view *v = a->lesson.view;
	const struct lesson *l = &v->set.v[v->cur];
	char err[600];

	/* the verdict may quote the program (its error, a file name): shown,
	 * never obeyed */
	char *safe = sanitize_dup(verdict, true);
	snprintf(v->verdict, sizeof v->verdict, "%s", safe ? safe : "not yet");
	free(safe);
	v->verdict_pass = pass;
	v->judged = true;
	a->ui.dirty = true;
	output_message(a->pane.out, pass ? OUT_INFO : OUT_ERROR, "lesson %ld: %s",
		       v->cur + 1, v->verdict);
	if (!pass)
		return;
	if (lesson_progress_pass(&v->prog, l->id, err, sizeof err) < 0)
		app_message(a, true, "passed, but %s", err);
	else if (lesson_view_passed(v) == v->set.n)
		app_message(a, false, "lesson %ld passed - that is every lesson "
			    "(%zu/%zu): well done", v->cur + 1, v->set.n, v->set.n);
	else
		app_message(a, false, "lesson %ld passed (%zu/%zu) - F3 picks the next one",
			    v->cur + 1, lesson_view_passed(v), v->set.n);
}

void app_lesson_again_judge(struct app *a)
{
	char verdict[700];
	bool pass = false;

	if (app_lesson_again_drain(a, &pass, verdict, sizeof verdict))
		app_lesson_verdict(a, pass, verdict);
}

void app_lesson_finish(struct app *a, const struct sp_result *r)
{
	struct lesson_view *v = a->lesson.view;
	const struct lesson *l;
	struct sp_result seen;
	struct lesson_seen in = { .rec = NULL };  /* every field set: rec is read */
	char verdict[sizeof v->verdict];
	bool pass;

	if (!v)
		return;
	lesson_stage_remove(&v->stage);
	if (!r || v->cur < 0)
		return;
	l = &v->set.v[v->cur];
	/* the check reads the output the playground streamed */
	seen = *r;
	seen.out = v->out;
	seen.out_len = v->out_len;
	seen.err = a->run.errtail;
	seen.err_len = a->run.errtail_len;
	in.program = v->program;
	in.carry_in = v->carry_in;
	pass = lesson_judge_seen(l, &in, &seen, verdict, sizeof verdict);
	if (pass && l->n_again && v->program) {
		/* a printed answer passes this far: the other inputs tell */
		if (app_lesson_again_start(a, v->program)) {
			snprintf(v->verdict, sizeof v->verdict, "checking: the program "
				 "runs again on %zu other input%s...", l->n_again,
				 l->n_again == 1 ? "" : "s");
			v->verdict_pass = false;
			v->judged = true;
			output_message(a->pane.out, OUT_INFO, "lesson %ld: %s", v->cur + 1,
				       v->verdict);
			return;
		}
		pass = false;
		snprintf(verdict, sizeof verdict, "not yet: the check's other runs "
			 "could not start");
	}
	app_lesson_verdict(a, pass, verdict);
}
