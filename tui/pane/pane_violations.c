/* SPDX-License-Identifier: MIT */
/*
 * pane_violations.c - list and explanation of violation records.
 *
 * The core sends a VIOLATION event both for a new record and when the
 * count of an existing one grows, naming the record by its id; the pane
 * keys on that id alone. Text is the program's to choose, so two records
 * that read the same (a kernel record and a runtime one the program
 * forged) stay two rows, each saying where it came from.
 *
 * The explanation is laid out as rows first (wrapped at words, never
 * mid-word unless one word is wider than the pane), then drawn from the
 * scroll offset: the same rows are counted and drawn, so scrolling always
 * reaches the last word.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pane/pane_violations.h"
#include "text/sanitize.h"
#include "screen/theme.h"
#include "buf.h"
#include "banned.h"

#define MAX_ROWS 256

void violations_clear(struct violations *vs)
{
	for (size_t i = 0; i < vs->n; i++) {
		free(vs->items[i].what);
		free(vs->items[i].message);
	}
	vs->n = 0;
	vs->sel = 0;
	vs->top = 0;
	vs->dscroll = 0;
}

void violations_free(struct violations *vs)
{
	violations_clear(vs);
	free(vs->items);
	vs->items = NULL;
	vs->cap = 0;
}

void violations_upsert(struct violations *vs, const struct sp_violation *v,
		       const char *context)
{
	struct viol_item *it;

	for (size_t i = 0; i < vs->n; i++) {
		if (vs->items[i].id == v->id) {
			vs->items[i].count = v->count;
			return;
		}
	}
	if (vs->n == vs->cap) {
		struct viol_item *ni = sp_grow(vs->items, &vs->cap, vs->n + 1, sizeof *ni);
		if (!ni)
			return;
		vs->items = ni;
	}
	it = &vs->items[vs->n];
	if (context) {
		/* the kernel's words first; the program's, which it can make
		 * up, after them and marked as its own */
		char *both = NULL;
		if (asprintf(&both, "%s (the program said: %s)", v->what, context) < 0)
			both = NULL;
		it->what = both ? sanitize_dup(both, true) : NULL;
		free(both);
	} else {
		it->what = sanitize_dup(v->what, true);
	}
	it->message = sanitize_dup(v->message ? v->message : "", true);
	if (!it->what || !it->message) {
		free(it->what);
		free(it->message);
		return;
	}
	it->id = v->id;
	it->kind = v->kind;
	it->from_kernel = v->from_kernel;
	it->line = v->line;
	it->count = v->count ? v->count : 1;
	vs->n++;
}

static void select_record(struct violations *vs, long s)
{
	if (!vs->n)
		return;
	if (s < 0) s = 0;
	if (s >= (long)vs->n) s = (long)vs->n - 1;
	if ((size_t)s != vs->sel)
		vs->dscroll = 0; /* a new record's text starts at its top */
	vs->sel = (size_t)s;
}

void violations_move(struct violations *vs, int records)
{
	select_record(vs, (long)vs->sel + records);
}

void violations_scroll_text(struct violations *vs, int rows)
{
	long s = (long)vs->dscroll + rows;
	long max = vs->dtotal > vs->drows ? vs->dtotal - vs->drows : 0;

	if (s > max) s = max;
	if (s < 0) s = 0;
	vs->dscroll = (int)s;
}

bool violations_key(struct violations *vs, int key)
{
	int page = vs->drows > 1 ? vs->drows - 1 : 1;

	switch (key) {
	case KEY_UP: violations_move(vs, -1); return true;
	case KEY_DOWN: violations_move(vs, 1); return true;
	case KEY_PPAGE: violations_scroll_text(vs, -page); return true;
	case KEY_NPAGE: violations_scroll_text(vs, page); return true;
	case KEY_HOME: select_record(vs, 0); return true;
	case KEY_END: select_record(vs, (long)vs->n - 1); return true;
	default: return false;
	}
}

bool violations_click(struct violations *vs, int row)
{
	int r = row - vs->list_y;

	if (r < 0 || r >= vs->list_h || vs->top + (size_t)r >= vs->n)
		return false;
	if (vs->top + (size_t)r == vs->sel)
		return true;
	select_record(vs, (long)(vs->top + (size_t)r));
	return false;
}

unsigned violations_selected_id(const struct violations *vs)
{
	return vs->n ? vs->items[vs->sel].id : 0;
}

void violations_select_id(struct violations *vs, unsigned id, int dscroll)
{
	for (size_t i = 0; i < vs->n; i++)
		if (vs->items[i].id == id) {
			vs->sel = i;
			vs->dscroll = dscroll;
			return;
		}
}

int violations_selected_line(const struct violations *vs)
{
	return vs->n ? vs->items[vs->sel].line : 0;
}

void violations_info(const struct violations *vs, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!vs->n)
		return;
	if (vs->drows <= 0)  /* no room for the text here: the zoom has it */
		snprintf(buf, len, "%zu/%zu · F11 reads", vs->sel + 1, vs->n);
	else if (vs->dtotal > vs->drows)
		snprintf(buf, len, "%zu/%zu · PgDn %s", vs->sel + 1, vs->n,
			 vs->dscroll + vs->drows >= vs->dtotal ? "end" : "more");
	else
		snprintf(buf, len, "%zu/%zu", vs->sel + 1, vs->n);
}

const char *violations_mark(enum sp_violation_kind kind, bool ascii)
{
	static const char *const glyph[][2] = {
		[SP_VIOL_NETWORK] = { "◆", "N" },
		[SP_VIOL_FILESYSTEM] = { "■", "F" },
		[SP_VIOL_PROCESS] = { "▲", "P" },
		[SP_VIOL_SYSCALL] = { "✖", "S" },
		[SP_VIOL_CPU] = { "◷", "C" },
		[SP_VIOL_WALL] = { "◷", "W" },
		[SP_VIOL_MEMORY] = { "●", "M" },
		[SP_VIOL_OUTPUT] = { "▼", "O" },
		[SP_VIOL_DISK] = { "▼", "D" },
		[SP_VIOL_CARRY] = { "◇", "K" },
	};
	if ((unsigned)kind >= SP_ARRAY_SIZE(glyph))
		return "!";
	return glyph[kind][ascii ? 1 : 0];
}

/* One row of the explanation: a piece of one of its paragraphs. */
struct row {
	const char *s;
	size_t len;
	attr_t attr;
};

/* Wrap len bytes of s at words into rows (a blank row when s is NULL). */
static int add_text(struct row *rows, int n, int w, const char *s, size_t len,
		    attr_t a)
{
	size_t off = 0;

	if (!s) {
		if (n < MAX_ROWS)
			rows[n++] = (struct row){ "", 0, a };
		return n;
	}
	while (off < len && n < MAX_ROWS) {
		size_t k = text_wrap_row(s + off, len - off, w, true);
		rows[n++] = (struct row){ s + off, k, a };
		off += k;
		while (off < len && s[off] == ' ')
			off++;
	}
	return n;
}

static int add_para(struct row *rows, int n, int w, const char *s, attr_t a)
{
	return add_text(rows, n, w, s, s ? strlen(s) : 0, a);
}

/* The selected record's explanation as rows of width w. */
static int explain(const struct violations *vs, char *head, size_t headlen,
		   struct row *rows, int w, const struct theme *th, bool teacher)
{
	const struct viol_item *it = &vs->items[vs->sel];
	/* carry records come from sandpit's own checks of the carry-out */
	/* the wall clock and the output bytes are the supervisor's own
	 * measures, not the kernel's */
	const char *who = it->kind == SP_VIOL_CARRY ? "found by sandpit" :
			  it->kind == SP_VIOL_WALL || it->kind == SP_VIOL_OUTPUT ?
			  "measured by sandpit's supervisor" :
			  it->from_kernel ? "seen by the kernel" : "seen by the runtime";
	char line[64] = "", count[32] = "";
	attr_t bold = theme_attr(th, TR_VIOLATION) | A_BOLD;
	attr_t normal = theme_attr(th, TR_NORMAL);
	int n = 0;

	if (it->line > 0)
		snprintf(line, sizeof line, ", line %d", it->line);
	if (it->count > 1)
		snprintf(count, sizeof count, ", %u times", it->count);
	snprintf(head, headlen, "%s%s, %s%s:", sp_violation_kind_name(it->kind),
		 line, who, count);
	n = add_para(rows, n, w, head, bold);
	if (teacher)
		n = add_para(rows, n, w, NULL, normal);
	n = add_para(rows, n, w, it->what, normal | (teacher ? A_BOLD : 0));
	if (teacher)
		n = add_para(rows, n, w, NULL, normal);
	/* the teacher's view gives the way around it a paragraph of its own */
	const char *way = teacher ? strstr(it->message, "Workaround:") : NULL;
	if (!way)
		return add_para(rows, n, w, it->message, normal);
	n = add_text(rows, n, w, it->message, (size_t)(way - it->message), normal);
	n = add_para(rows, n, w, NULL, normal);
	return add_para(rows, n, w, way, normal | A_BOLD);
}

/* Draw the explanation's rows [dscroll, dscroll + h) at y. */
static void draw_rows(struct violations *vs, WINDOW *win, int y, int x, int w,
		      int h, const struct row *rows, int n)
{
	vs->drows = h;
	vs->dtotal = n;
	violations_scroll_text(vs, 0); /* clamp to this size */
	for (int r = 0; r < h && vs->dscroll + r < n; r++) {
		const struct row *rw = &rows[vs->dscroll + r];
		text_draw(win, y + r, x, w, rw->s, rw->len, rw->attr);
	}
}

/* The list of records, rows [y, y + h). */
static void draw_list(struct violations *vs, WINDOW *win, struct rect in, int y,
		      int h, const struct theme *th, bool focused)
{
	char buf[512], ln[16];

	if (vs->sel < vs->top)
		vs->top = vs->sel;
	if (vs->sel >= vs->top + (size_t)h)
		vs->top = vs->sel - (size_t)h + 1;
	vs->list_y = y - in.y;
	vs->list_h = h;
	for (int r = 0; r < h && vs->top + (size_t)r < vs->n; r++) {
		const struct viol_item *it = &vs->items[vs->top + (size_t)r];
		bool sel = vs->top + (size_t)r == vs->sel;
		char cnt[16] = "";
		attr_t a = theme_attr(th, TR_VIOLATION);

		if (it->line > 0)
			snprintf(ln, sizeof ln, "L%d", it->line);
		else
			snprintf(ln, sizeof ln, "-");
		if (it->count > 1)
			snprintf(cnt, sizeof cnt, " x%u", it->count);
		snprintf(buf, sizeof buf, "%c %-4s %s%s %s", sel ? '>' : ' ', ln,
			 sp_violation_kind_name(it->kind), cnt, it->what);
		if (sel)
			a = focused ? theme_attr(th, TR_SELECTION) : a | A_BOLD;
		layout_clear(win, (struct rect){ y + r, in.x, 1, in.w }, a);
		text_draw(win, y + r, in.x, in.w, buf, strlen(buf), a);
	}
}

void violations_draw(struct violations *vs, WINDOW *win, struct rect in,
		     const struct theme *th, bool focused, bool teacher)
{
	static struct row rows[MAX_ROWS];
	char head[160];
	int list, n, y, w = in.w;

	layout_clear(win, in, theme_attr(th, TR_NORMAL));
	vs->list_h = 0;
	vs->drows = vs->dtotal = 0;
	if (in.h < 1 || in.w < 4)
		return;
	if (!vs->n) {
		n = add_para(rows, 0, w, "none - attempts to cross a limit show up "
			     "here, each with what it tried and the way around it.",
			     theme_attr(th, TR_NORMAL));
		draw_rows(vs, win, in.y, in.x, w, in.h, rows, n);
		return;
	}
	if (teacher && in.h >= 6) {
		/* margins and the list below: the explanation is what is read */
		int mx = in.w >= 60 ? 4 : 1, my = in.h >= 12 ? 1 : 0;
		list = in.h >= 8 ? (int)(vs->n < (size_t)in.h / 3 ? vs->n : (size_t)in.h / 3) : 1;
		if (list < 1) list = 1;
		w = in.w - 2 * mx;
		if (w > 72) {   /* a measure that reads well from the back row */
			mx = (in.w - 72) / 2;
			w = 72;
		}
		n = explain(vs, head, sizeof head, rows, w, th, true);
		y = in.y + my;
		draw_rows(vs, win, y, in.x + mx, w, in.h - list - 1 - 2 * my, rows, n);
		wattrset(win, (int)theme_attr(th, TR_BORDER));
		mvwhline(win, in.y + in.h - list - 1, in.x, ACS_HLINE, in.w);
		draw_list(vs, win, in, in.y + in.h - list, list, th, focused);
		return;
	}
	/* small panes (80x24 has two to seven rows here): one list row, the
	 * rest for the explanation; a divider only when there is room for it */
	list = in.h >= 10 ? in.h / 3 : in.h >= 8 ? 2 : 1;
	if ((size_t)list > vs->n) list = (int)vs->n;
	draw_list(vs, win, in, in.y, list, th, focused);
	y = in.y + list;
	if (in.h >= 10) {
		wattrset(win, (int)theme_attr(th, TR_BORDER));
		mvwhline(win, y++, in.x, ACS_HLINE, in.w);
	}
	if (y >= in.y + in.h)
		return;
	n = explain(vs, head, sizeof head, rows, w, th, false);
	draw_rows(vs, win, y, in.x, w, in.y + in.h - y, rows, n);
}
