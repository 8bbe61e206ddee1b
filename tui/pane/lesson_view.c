/* SPDX-License-Identifier: MIT */
/*
 * lesson_view.c - draws the lesson strip and the lesson list, and keeps
 * what the check needs of a run's output. The strip is a framed box
 * above the five panes:
 *
 *   ┌ Lesson 3/8: Stateless runs: carry a running total ─── 2/8 passed ┐
 *   │ The sales come in three batches, one a run. Runs share nothing... │
 *   │ Hint 1/2: Names in the Carry pane arrive as globals ...           │
 *   │ not yet: carry batch is 1, the lesson wants 3 ...                 │
 *   │ F5 run  F10 hint  Shift-F10 solution  F3 lessons                     │
 *   └───────────────────────────────────────────────────────────────────┘
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pane/lesson_view.h"
#include "screen/theme.h"
#include "buf.h"
#include "banned.h"

#define GOAL_ROWS 4
#define HINT_ROWS 4
#define VERDICT_ROWS 2

/* Text as one paragraph: single newlines become spaces (files are
 * written with hard breaks; the strip reflows them). Caller frees. */
static char *reflow(const char *s)
{
	size_t n = strlen(s);
	char *d = malloc(n + 1);
	if (!d)
		return NULL;
	for (size_t i = 0; i <= n; i++)
		d[i] = s[i] == '\n' ? ' ' : s[i];
	return d;
}

/* Rows s takes wrapped at w, capped at max. */
static int rows_of(const char *s, int w, int max)
{
	int r = w > 0 ? text_wrap_rows(s, strlen(s), w, true) : 1;
	return r > max ? max : r;
}

size_t lesson_view_passed(const struct lesson_view *v)
{
	size_t k = 0;

	/* progress may name lessons not loaded now (another --lessons DIR) */
	for (size_t i = 0; i < v->set.n; i++)
		k += lesson_progress_passed(&v->prog, v->set.v[i].id);
	return k;
}

static const char *hint_text(const struct lesson_view *v)
{
	return v->hints_shown ? v->set.v[v->cur].hints[v->hints_shown - 1] : NULL;
}

/* How many rows each part of the strip gets inside `inner` rows: the
 * goal, the hint, the verdict and the keys. When room is short the goal
 * gives way first (its whole text is in the lesson list), then the hint,
 * then the keys line; the verdict keeps a row longest. */
struct strip_plan { int goal, hint, verdict, keys; };

static struct strip_plan plan(const struct lesson_view *v, int cols, int inner)
{
	struct strip_plan p = { 0, 0, 1, 1 };
	int w = cols - 4;
	char *g = reflow(v->set.v[v->cur].goal);

	p.goal = rows_of(g ? g : "", w, GOAL_ROWS);
	free(g);
	if (hint_text(v)) {
		char *h = reflow(hint_text(v));
		char line[1200];
		snprintf(line, sizeof line, "Hint 1/1: %s", h ? h : "");
		p.hint = rows_of(line, w, HINT_ROWS);
		free(h);
	}
	if (v->judged && !v->verdict_pass)
		p.verdict = rows_of(v->verdict, w, VERDICT_ROWS);
	for (;;) {
		int sum = p.goal + p.hint + p.verdict + p.keys;
		if (sum <= inner)
			break;
		if (p.goal > 1) p.goal--;
		else if (p.goal && p.hint) p.goal = 0; /* a hint is the news */
		else if (p.hint > 1) p.hint--;
		else if (p.verdict > 1) p.verdict--;
		else if (p.keys) p.keys = 0;
		/* before a run the verdict's row says only "F5 runs it": the
		 * goal is worth more */
		else if (!v->judged && p.verdict && (p.goal || p.hint)) p.verdict = 0;
		else if (p.goal) p.goal = 0;
		else if (p.hint) p.hint = 0;
		else { p.verdict = inner > 0 ? inner : 0; break; }
	}
	return p;
}

int lesson_view_rows(const struct lesson_view *v, int cols, int max_rows)
{
	struct strip_plan p;

	if (!v || v->cur < 0 || max_rows < 3)
		return 0;
	p = plan(v, cols, max_rows - 2);
	return 2 + p.goal + p.hint + p.verdict + p.keys;
}

#define MORE " ... ^D z"

/* Draw s wrapped into at most max rows from row *y; the last row that
 * is cut ends in "... ^D z", the key that shows it all. */
static void draw_wrapped(WINDOW *win, struct rect in, int *y, int max,
			 const char *s, attr_t a)
{
	size_t len = strlen(s), off = 0;
	int w = in.w - 2;

	for (int r = 0; r < max && off < len && *y < in.y + in.h; r++) {
		size_t n = text_wrap_row(s + off, len - off, w, true);
		bool last = r == max - 1 && off + n < len;
		int m = (int)strlen(MORE);
		if (last && w > m) {
			n = text_wrap_row(s + off, len - off, w - m, true);
			int used = text_draw(win, *y, in.x + 1, w - m, s + off, n, a);
			text_draw(win, *y, in.x + 1 + used, m, MORE, (size_t)m, a);
		} else {
			text_draw(win, *y, in.x + 1, w, s + off, n, a);
		}
		off += n;
		while (off < len && s[off] == ' ')
			off++;
		(*y)++;
	}
}

void lesson_view_draw(const struct lesson_view *v, WINDOW *win, struct rect r,
		      const struct theme *th)
{
	const struct lesson *l;
	struct rect in = rect_inner(r);
	attr_t a = theme_attr(th, TR_NORMAL);
	char title[300], info[64], line[1200], keys[200];
	int y = in.y;
	char *g;

	if (!v || v->cur < 0 || r.h < 3)
		return;
	l = &v->set.v[v->cur];
	layout_clear(win, r, a);
	snprintf(title, sizeof title, "Lesson %ld/%zu: %s", v->cur + 1, v->set.n, l->title);
	if (v->set.n_errors)
		snprintf(info, sizeof info, "%zu/%zu passed · %zu file%s not loaded",
			 lesson_view_passed(v), v->set.n, v->set.n_errors,
			 v->set.n_errors == 1 ? "" : "s");
	else
		snprintf(info, sizeof info, "%zu/%zu passed", lesson_view_passed(v), v->set.n);
	layout_frame(win, r, title, info, false, th);

	struct strip_plan p = plan(v, r.w, in.h);
	g = reflow(l->goal);
	draw_wrapped(win, in, &y, p.goal, g ? g : "", a);
	free(g);
	if (hint_text(v) && p.hint) {
		char *h = reflow(hint_text(v));
		snprintf(line, sizeof line, "Hint %zu/%zu: %s", v->hints_shown,
			 l->n_hints, h ? h : "");
		free(h);
		draw_wrapped(win, in, &y, p.hint, line, theme_attr(th, TR_COMMENT));
	}
	if (v->judged && v->verdict_pass)
		draw_wrapped(win, in, &y, 1, "passed - F3 picks the next lesson",
			     theme_attr(th, TR_GAUGE_OK) | A_BOLD);
	else if (v->judged)
		draw_wrapped(win, in, &y, p.verdict, v->verdict, v->verdict_pass ?
			     theme_attr(th, TR_GAUGE_OK) | A_BOLD :
			     theme_attr(th, TR_ERROR) | A_BOLD);
	else if (lesson_progress_passed(&v->prog, l->id))
		draw_wrapped(win, in, &y, 1, "passed before - F5 runs it again; F3 "
			     "picks another lesson", theme_attr(th, TR_GAUGE_OK));
	else
		draw_wrapped(win, in, &y, 1, "F5 runs the program; the check judges "
			     "every run", a);
	/* each F-key with its Ctrl twin: terminals take F10 and F11 */
	snprintf(keys, sizeof keys, "F5/^R run  F10/^D h hint %zu/%zu  ^D s solution  "
		 "^D z all text  F3/^D lessons", v->hints_shown, l->n_hints);
	if (p.keys && y < in.y + in.h)
		text_draw(win, in.y + in.h - 1, in.x + 1, in.w - 2, keys, strlen(keys),
			  theme_attr(th, TR_STATUS_KEY));
}

void lesson_menu_open(struct lesson_view *v)
{
	v->menu = v->set.n > 0;
	if (v->cur >= 0 && !lesson_progress_passed(&v->prog, v->set.v[v->cur].id)) {
		v->sel = (size_t)v->cur;
		return;
	}
	/* the next lesson not passed, after the one open */
	for (size_t k = 0; k < v->set.n; k++) {
		size_t i = (size_t)(v->cur + 1 + (long)k) % v->set.n;
		if (!lesson_progress_passed(&v->prog, v->set.v[i].id)) {
			v->sel = i;
			return;
		}
	}
	v->sel = v->cur >= 0 ? (size_t)v->cur : 0;
}

long lesson_menu_key(struct lesson_view *v, int key)
{
	size_t n = v->set.n;

	if (!n) {
		v->menu = false;
		return LESSON_MENU_CLOSED;
	}
	switch (key) {
	case KEY_UP: case 'k':
		v->sel = v->sel ? v->sel - 1 : n - 1;
		return LESSON_MENU_OPEN;
	case KEY_DOWN: case 'j':
		v->sel = v->sel + 1 < n ? v->sel + 1 : 0;
		return LESSON_MENU_OPEN;
	case KEY_HOME: v->sel = 0; return LESSON_MENU_OPEN;
	case KEY_END: v->sel = n - 1; return LESSON_MENU_OPEN;
	case '\n': case '\r': case KEY_ENTER:
		v->menu = false;
		return (long)v->sel;
	case 'd':
		v->menu = false;
		return LESSON_MENU_DEMOS;
	case 'h':
		v->menu = false;
		return LESSON_MENU_HINT;
	case 's':
		v->menu = false;
		return LESSON_MENU_SOLUTION;
	case 'p':
		return LESSON_MENU_STEP;
	case 'r':
		v->menu = false;
		return LESSON_MENU_RESTART;
	case 'z':
		v->menu = false;
		if (v->cur < 0)
			return LESSON_MENU_CLOSED;
		v->full = true;
		v->full_top = 0;
		return LESSON_MENU_FULL;
	case 27: case 'q': case KEY_F(3): case 'D' & 0x1f:
		v->menu = false;
		return LESSON_MENU_CLOSED;
	default:
		if (key >= '1' && key <= '9' && (size_t)(key - '1') < n) {
			v->menu = false;
			v->sel = (size_t)(key - '1');
			return (long)v->sel;
		}
		return LESSON_MENU_OPEN;
	}
}

void lesson_menu_draw(const struct lesson_view *v, WINDOW *win, int rows, int cols,
		      const struct theme *th)
{
	int h = (int)v->set.n + 4 + 6 + (v->set.n_errors ? 1 : 0), w = 84;
	attr_t a = theme_attr(th, TR_DIALOG);
	char line[400], info[64];
	const char *top = "Enter opens  h hint  s solution  z all text  r afresh  p step  d demos";

	if (w > cols - 2) w = cols - 2;
	if (h > rows - 2) h = rows - 2;
	struct rect r = { (rows - h) / 2, (cols - w) / 2, h, w };
	struct rect in = rect_inner(r);
	if (in.h < 2 || in.w < 8)
		return;
	layout_clear(win, r, a);
	snprintf(info, sizeof info, "%zu/%zu passed", lesson_view_passed(v), v->set.n);
	layout_frame(win, r, "Lessons (F3)", info, true, th);
	text_draw(win, in.y, in.x + 1, in.w - 2, top, strlen(top), a);
	int y = in.y + 1;
	if (v->set.n_errors) {
		/* a teacher's broken files, counted where the lessons are */
		snprintf(line, sizeof line, "%zu lesson file%s not loaded - z shows why",
			 v->set.n_errors, v->set.n_errors == 1 ? "" : "s");
		text_draw(win, y++, in.x + 1, in.w - 2, line, strlen(line),
			  theme_attr(th, TR_ERROR) | A_BOLD);
	}
	/* the list scrolls to keep the selection in view; the goal below
	 * gets what is left (at least 4 rows when the list is long) */
	int list_rows = in.h - (y - in.y) - (in.h > 12 ? 5 : 0);
	size_t first = 0;
	if (list_rows < 1)
		list_rows = 1;
	if ((int)v->set.n > list_rows && v->sel >= (size_t)list_rows)
		first = v->sel - (size_t)list_rows + 1;
	for (size_t i = first; i < v->set.n && y < in.y + 1 + list_rows; i++, y++) {
		const struct lesson *l = &v->set.v[i];
		attr_t la = i == v->sel ? theme_attr(th, TR_SELECTION) : a;
		snprintf(line, sizeof line, "%2zu %s %s%s%s%s", i + 1,
			 lesson_progress_passed(&v->prog, l->id) ? "[passed]" : "        ",
			 l->title, l->constraint ? "  (" : "",
			 l->constraint ? l->constraint : "", l->constraint ? ")" : "");
		layout_clear(win, (struct rect){ y, in.x, 1, in.w }, la);
		text_draw(win, y, in.x + 1, in.w - 2, line, strlen(line), la);
	}
	/* the chosen lesson's goal below the list */
	if (v->sel < v->set.n && y + 1 < in.y + in.h) {
		char *g = reflow(v->set.v[v->sel].goal);
		y++;
		draw_wrapped(win, in, &y, in.y + in.h - y, g ? g : "", a);
		free(g);
	}
}

void lesson_view_output(struct lesson_view *v, const char *s, size_t n)
{
	if (v->out_len + n > LESSON_OUT_MAX)
		n = LESSON_OUT_MAX - v->out_len;
	if (!n)
		return;
	if (v->out_len + n > v->out_cap) {
		char *p = sp_grow(v->out, &v->out_cap, v->out_len + n, 1);
		if (!p)
			return;
		v->out = p;
	}
	memcpy(v->out + v->out_len, s, n);
	v->out_len += n;
}

/* Paragraph k of the lesson in full (reflowed, caller frees), or NULL
 * past the last: the goal, each hint shown, the verdict, the limits
 * lowered, the files not loaded. */
static char *full_para(const struct lesson_view *v, size_t k)
{
	const struct lesson *l = &v->set.v[v->cur];
	char *t, *out;
	size_t n;

	if (k == 0) {
		t = reflow(l->goal);
		if (!t)
			return NULL;
		n = strlen(t) + 8;
		out = malloc(n);
		if (out)
			snprintf(out, n, "Goal: %s", t);
		free(t);
		return out;
	}
	if (k - 1 < v->hints_shown) {
		t = reflow(l->hints[k - 1]);
		if (!t)
			return NULL;
		n = strlen(t) + 32;
		out = malloc(n);
		if (out)
			snprintf(out, n, "Hint %zu/%zu: %s", k, l->n_hints, t);
		free(t);
		return out;
	}
	if (k - 1 == v->hints_shown)
		return strdup(v->judged ? v->verdict : "F5 runs the program; the check "
			      "judges every run");
	/* then the limits a lesson asked beyond the lesson maxima */
	k -= v->hints_shown + 2;
	if (l->capped[0] && k-- == 0) {
		n = strlen(l->capped) + 64;
		out = malloc(n);
		if (out)
			snprintf(out, n, "Limits: %s (the most a lesson may set)", l->capped);
		return out;
	}
	/* then why each broken lesson file was not loaded */
	if (k < v->set.n_errors) {
		n = strlen(v->set.errors[k]) + 32;
		out = malloc(n);
		if (out)
			snprintf(out, n, "Not loaded: %s", v->set.errors[k]);
		return out;
	}
	return NULL;
}

void lesson_full_draw(struct lesson_view *v, WINDOW *win, int rows, int cols,
		      const struct theme *th)
{
	struct rect r = { 0, 0, rows, cols };
	struct rect in = rect_inner(r);
	attr_t a = theme_attr(th, TR_DIALOG);
	char title[300];
	int w = in.w - 2, row = 0, y = in.y;

	if (v->cur < 0 || in.h < 2 || w < 8)
		return;
	layout_clear(win, r, a);
	snprintf(title, sizeof title, "Lesson %ld: %s", v->cur + 1, v->set.v[v->cur].title);
	layout_frame(win, r, title, "Esc closes", true, th);
	if (v->full_top < 0)
		v->full_top = 0;
	for (size_t k = 0;; k++) {
		char *p = full_para(v, k);
		if (!p)
			break;
		size_t len = strlen(p), off = 0;
		while (off < len) {
			size_t n = text_wrap_row(p + off, len - off, w, true);
			if (!n)
				break;
			if (row >= v->full_top && y < in.y + in.h)
				text_draw(win, y++, in.x + 1, w, p + off, n, a);
			row++;
			off += n;
			while (off < len && p[off] == ' ')
				off++;
		}
		if (row >= v->full_top && y < in.y + in.h)
			y++; /* a blank row between the parts */
		row++;
		free(p);
	}
	/* not past the end: the last row of text stays in view */
	if (v->full_top > 0 && v->full_top > row - in.h)
		v->full_top = row - in.h > 0 ? row - in.h : 0;
}

bool lesson_full_key(struct lesson_view *v, int key)
{
	switch (key) {
	case KEY_UP: case 'k': v->full_top--; break;
	case KEY_DOWN: case 'j': v->full_top++; break;
	case KEY_PPAGE: v->full_top -= 10; break;
	case KEY_NPAGE: case ' ': v->full_top += 10; break;
	case KEY_HOME: v->full_top = 0; break;
	default:
		v->full = false;
		return false;
	}
	if (v->full_top < 0)
		v->full_top = 0;
	return true;
}
