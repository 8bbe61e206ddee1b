/*
 * pane_violations.c - list and detail view of violation records.
 *
 * The core sends a VIOLATION event both for a new record and when the
 * count of an existing one grows; records are the same when kind, what
 * and line match, which is how the core merges repeats too.
 */
#include <stdlib.h>
#include <string.h>

#include "pane_violations.h"
#include "sanitize.h"
#include "theme.h"
#include "banned.h"

void violations_clear(struct violations *vs)
{
	for (size_t i = 0; i < vs->n; i++) {
		free(vs->items[i].what);
		free(vs->items[i].message);
	}
	vs->n = 0;
	vs->sel = 0;
	vs->top = 0;
}

void violations_free(struct violations *vs)
{
	violations_clear(vs);
	free(vs->items);
	vs->items = NULL;
	vs->cap = 0;
}

void violations_upsert(struct violations *vs, const struct sp_violation *v)
{
	char *what = sanitize_dup(v->what, false);
	struct viol_item *it;

	if (!what)
		return;
	for (size_t i = 0; i < vs->n; i++) {
		it = &vs->items[i];
		if (it->kind == v->kind && it->line == v->line && !strcmp(it->what, what)) {
			it->count = v->count;
			free(what);
			return;
		}
	}
	if (vs->n == vs->cap) {
		size_t cap = vs->cap ? vs->cap * 2 : 16;
		struct viol_item *ni = realloc(vs->items, cap * sizeof *ni);
		if (!ni) {
			free(what);
			return;
		}
		vs->items = ni;
		vs->cap = cap;
	}
	it = &vs->items[vs->n++];
	it->kind = v->kind;
	it->what = what;
	it->message = sanitize_dup(v->message, false);
	it->from_kernel = v->from_kernel;
	it->line = v->line;
	it->count = v->count ? v->count : 1;
}

void violations_move(struct violations *vs, int lines)
{
	long s = (long)vs->sel + lines;
	if (!vs->n)
		return;
	if (s < 0) s = 0;
	if (s >= (long)vs->n) s = (long)vs->n - 1;
	vs->sel = (size_t)s;
}

bool violations_key(struct violations *vs, int key, int page)
{
	switch (key) {
	case KEY_UP: violations_move(vs, -1); return true;
	case KEY_DOWN: violations_move(vs, 1); return true;
	case KEY_PPAGE: violations_move(vs, -page); return true;
	case KEY_NPAGE: violations_move(vs, page); return true;
	case KEY_HOME: vs->sel = 0; return true;
	case KEY_END: violations_move(vs, (int)vs->n); return true;
	default: return false;
	}
}

void violations_click(struct violations *vs, int row)
{
	size_t i = vs->top + (size_t)(row < 0 ? 0 : row);
	if (i < vs->n)
		vs->sel = i;
}

/* Rows given to the list: up to a third of the pane, at least one. */
static int list_rows(const struct violations *vs, int h)
{
	int r = h / 3;
	if (r < 1) r = 1;
	if ((size_t)r > vs->n) r = (int)vs->n;
	return r;
}

/* Draw a paragraph wrapped at words; returns the next free row. */
static int draw_para(WINDOW *win, int y, int end, int x, int w, const char *s,
		     attr_t a)
{
	size_t len = strlen(s), off = 0;
	while (off < len && y < end) {
		size_t n = text_wrap_row(s + off, len - off, w, true);
		text_draw(win, y++, x, w, s + off, n, a);
		off += n;
		while (off < len && s[off] == ' ')
			off++;
	}
	return y;
}

void violations_draw(struct violations *vs, WINDOW *win, struct rect in,
		     const struct theme *th, bool focused)
{
	char buf[512];
	int rows, y;

	layout_clear(win, in, theme_attr(th, TR_NORMAL));
	if (in.h < 1 || in.w < 4)
		return;
	if (!vs->n) {
		draw_para(win, in.y, in.y + in.h, in.x, in.w,
			  "none - attempts to cross a limit show up here, "
			  "each with what it tried and the way around it.",
			  theme_attr(th, TR_NORMAL));
		return;
	}
	rows = list_rows(vs, in.h);
	if (vs->sel < vs->top)
		vs->top = vs->sel;
	if (vs->sel >= vs->top + (size_t)rows)
		vs->top = vs->sel - (size_t)rows + 1;
	for (int r = 0; r < rows && vs->top + (size_t)r < vs->n; r++) {
		const struct viol_item *it = &vs->items[vs->top + (size_t)r];
		bool sel = vs->top + (size_t)r == vs->sel;
		int n = snprintf(buf, sizeof buf, "%c %-10s %s", sel ? '>' : ' ',
				 sp_violation_kind_name(it->kind), it->what);
		if (it->count > 1 && n > 0 && (size_t)n < sizeof buf)
			snprintf(buf + n, sizeof buf - (size_t)n, " (x%u)", it->count);
		attr_t a = theme_attr(th, TR_VIOLATION);
		if (sel)
			a = focused ? theme_attr(th, TR_SELECTION) : a | A_BOLD;
		layout_clear(win, (struct rect){ in.y + r, in.x, 1, in.w }, a);
		text_draw(win, in.y + r, in.x, in.w, buf, strlen(buf), a);
	}
	y = in.y + rows;
	if (y >= in.y + in.h)
		return;
	const struct viol_item *it = &vs->items[vs->sel];
	wattrset(win, (int)theme_attr(th, TR_BORDER));
	mvwhline(win, y++, in.x, ACS_HLINE, in.w);
	/* carry records come from sandpit's own checks of the carry-out */
	const char *who = it->kind == SP_VIOL_CARRY ? "found by sandpit" :
			  it->from_kernel ? "seen by the kernel" : "seen by the runtime";
	if (it->line > 0)
		snprintf(buf, sizeof buf, "%s, line %d, %s:",
			 sp_violation_kind_name(it->kind), it->line, who);
	else
		snprintf(buf, sizeof buf, "%s, %s:", sp_violation_kind_name(it->kind), who);
	y = draw_para(win, y, in.y + in.h, in.x, in.w, buf,
		      theme_attr(th, TR_VIOLATION) | A_BOLD);
	y = draw_para(win, y, in.y + in.h, in.x, in.w, it->what,
		      theme_attr(th, TR_NORMAL));
	draw_para(win, y, in.y + in.h, in.x, in.w,
		  it->message ? it->message : "", theme_attr(th, TR_NORMAL));
}
