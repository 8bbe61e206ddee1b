/* SPDX-License-Identifier: MIT */
/*
 * history_view.c - the list of `sandpit mcp` runs and one run's story,
 * full screen over the playground (history_view.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pane/history_view.h"
#include "screen/layout.h"
#include "screen/theme.h"
#include "screen/wrap.h"
#include "text/sanitize.h"
#include "banned.h"

static void detail_free(struct history_view *h)
{
	free(h->text);
	free(h->picture);
	h->text = h->picture = NULL;
	h->detail = false;
	h->scroll = 0;
}

void history_view_open(struct history_view *h)
{
	history_view_close(h);
	h->n = mcp_runs_list(h->root, &h->runs, h->why, sizeof h->why);
	h->sel = h->top = 0;
	h->active = true;
}

void history_view_close(struct history_view *h)
{
	detail_free(h);
	free(h->runs);
	h->runs = NULL;
	h->n = 0;
	h->active = false;
}

/* The box: the whole screen but a margin. */
static struct rect view_box(int rows, int cols)
{
	return (struct rect){ 1, 1, rows > 4 ? rows - 2 : rows, cols > 4 ? cols - 2 : cols };
}

/* A line longer than this shows its head and how much more it has: its
 * rows are wrapped at every key, and it would take 24 bytes a byte. */
#define LINE_SHOWN (64u << 10)

/* The detail's text wrapped at w cells (wrap.h: long explanations and
 * hints continue on the next row, under their text): the number of rows;
 * with win, the rows from first on are drawn into in from row y0. */
static size_t detail_rows(const char *text, int w, WINDOW *win, struct rect in, int y0,
			  size_t first, attr_t a)
{
	size_t total = 0;
	char *line = malloc(LINE_SHOWN + 64);
	struct wrap_row *rows = malloc((LINE_SHOWN + 64) * sizeof *rows);
	int y = y0;

	for (const char *p = text; line && rows && p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p), shown = len;
		int n;
		if (shown > LINE_SHOWN) {
			shown = LINE_SHOWN;
			while (shown && ((unsigned char)p[shown] & 0xc0) == 0x80)
				shown--; /* not inside a character */
		}
		memcpy(line, p, shown);
		if (shown < len)
			snprintf(line + shown, 64, " ... (%zu more bytes)", len - shown);
		else
			line[shown] = '\0';
		n = wrap_hanging(line, w, rows, (int)(LINE_SHOWN + 64));
		for (int k = 0; k < n; k++, total++)
			if (win && total >= first && y < in.y + in.h)
				text_draw(win, y++, in.x + 1 + rows[k].indent, w - rows[k].indent,
					  rows[k].s, rows[k].len, a);
		p = nl ? nl + 1 : p + len;
	}
	free(line);
	free(rows);
	return total;
}

/* The detail's width: the box's inside less a cell each side. */
static int detail_width(int rows, int cols)
{
	struct rect in = rect_inner(view_box(rows, cols));

	return in.w > 3 ? in.w - 2 : 1;
}

enum history_action history_view_key(struct history_view *h, int key, int rows)
{
	int page = view_box(rows, COLS).h - 3;

	if (page < 1)
		page = 1;
	if (h->detail) {
		size_t last = detail_rows(h->text, detail_width(rows, COLS), NULL,
					  (struct rect){ 0, 0, 0, 0 }, 0, 0, 0);
		switch (key) {
		case 27: case 'q': case KEY_LEFT: case KEY_BACKSPACE:
			detail_free(h);
			break;
		case KEY_UP: case 'k': if (h->scroll) h->scroll--; break;
		case KEY_DOWN: case 'j': if (h->scroll + 1 < last) h->scroll++; break;
		case KEY_PPAGE: h->scroll = h->scroll > (size_t)page ? h->scroll - (size_t)page : 0; break;
		case KEY_NPAGE: case ' ':
			h->scroll = h->scroll + (size_t)page < last ? h->scroll + (size_t)page : h->scroll;
			break;
		case KEY_HOME: h->scroll = 0; break;
		case 'e': return HV_LOAD_CODE;
		case 'p': return h->picture ? HV_PICTURE : HV_NO_PICTURE;
		}
		return HV_NONE;
	}
	switch (key) {
	case 27: case 'q': case KEY_F(3):
		history_view_close(h);
		break;
	case 'r':
		history_view_open(h);
		break;
	case KEY_UP: case 'k': if (h->sel) h->sel--; break;
	case KEY_DOWN: case 'j': if (h->sel + 1 < h->n) h->sel++; break;
	case KEY_PPAGE: h->sel = h->sel > (size_t)page ? h->sel - (size_t)page : 0; break;
	case KEY_NPAGE: h->sel = h->sel + (size_t)page < h->n ? h->sel + (size_t)page : (h->n ? h->n - 1 : 0); break;
	case KEY_HOME: h->sel = 0; break;
	case KEY_END: h->sel = h->n ? h->n - 1 : 0; break;
	case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT:
		if (h->sel < h->n) {
			detail_free(h);
			h->text = mcp_runs_detail(&h->runs[h->sel], &h->picture);
			h->detail = h->text != NULL;
		}
		break;
	case 'e':
		return h->sel < h->n ? HV_LOAD_CODE : HV_NONE;
	}
	/* keep the selection in sight */
	if (h->sel < h->top)
		h->top = h->sel;
	if (h->sel >= h->top + (size_t)page)
		h->top = h->sel - (size_t)page + 1;
	return HV_NONE;
}

static void draw_list(const struct history_view *h, WINDOW *win, struct rect in, attr_t a,
		      const struct theme *th)
{
	char line[400];
	const char *hint = "Enter shows a run   e loads its code and files   r reads again   Esc closes";

	text_draw(win, in.y, in.x + 1, in.w - 2, hint, strlen(hint), a);
	if (h->n == 0) {
		const char *none = "No runs of sandpit mcp yet: an assistant's runs appear here "
				   "as it makes them (see docs/mcp.md).";
		char *why = h->why[0] ? sanitize_dup(h->why, true) : NULL;
		detail_rows(why ? why : none, in.w > 3 ? in.w - 2 : 1, win, in, in.y + 2, 0, a);
		free(why);
		return;
	}
	for (size_t i = h->top; i < h->n && (int)(i - h->top) + 1 < in.h; i++) {
		const struct mcp_run_entry *e = &h->runs[i];
		char viol[24] = "";
		attr_t la = i == h->sel ? theme_attr(th, TR_SELECTION) : a;
		int y = in.y + 1 + (int)(i - h->top);
		if (e->violations)
			snprintf(viol, sizeof viol, "%u viol.", e->violations);
		snprintf(line, sizeof line, "%s  %-13s %-8s %s", e->when + 5, e->status, viol,
			 e->first);
		layout_clear(win, (struct rect){ y, in.x, 1, in.w }, la);
		text_draw(win, y, in.x + 1, in.w - 2, line, strlen(line), la);
	}
}

static void draw_detail(const struct history_view *h, WINDOW *win, struct rect in, attr_t a)
{
	const char *hint = h->picture ? "e loads the code and files   p shows the picture   "
					"Up/Down PgUp/PgDn scroll   Esc back"
				      : "e loads the code and files   Up/Down PgUp/PgDn scroll"
					"   Esc back";

	text_draw(win, in.y, in.x + 1, in.w - 2, hint, strlen(hint), a);
	detail_rows(h->text, in.w > 3 ? in.w - 2 : 1, win, in, in.y + 1, h->scroll, a);
}

void history_view_draw(const struct history_view *h, WINDOW *win, int rows, int cols,
		       const struct theme *th)
{
	struct rect r = view_box(rows, cols), in = rect_inner(r);
	attr_t a = theme_attr(th, TR_DIALOG);
	char title[80];

	snprintf(title, sizeof title, h->detail ? "Assistant's run (sandpit mcp)" :
		 "Assistant's runs (sandpit mcp): %zu", h->n);
	layout_clear(win, r, a);
	layout_frame(win, r, title, NULL, true, th);
	if (h->detail)
		draw_detail(h, win, in, a);
	else
		draw_list(h, win, in, a, th);
}
