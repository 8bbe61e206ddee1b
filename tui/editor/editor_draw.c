/* SPDX-License-Identifier: MIT */
/*
 * editor_draw.c - everything the editor paints with ncurses: one frame
 * of gutter, highlighted lines, selection, search matches, brackets and
 * the prompt row, and where the terminal cursor goes afterwards.
 */
#include "editor/editor_impl.h"

#include <stdio.h>
#include <string.h>
#include <utf8proc.h>

#include "text/highlight.h"
#include "text/textbuf.h"
#include "screen/theme.h"
#include "text/utf8text.h"

#include "banned.h"

/* ---- drawing ------------------------------------------------------- */

/* What one frame needs while it draws its lines. */
struct frame {
	WINDOW *win;
	const struct theme *th;
	int y, x, tw;          /* text area origin (after the gutter) and width */
	size_t cl;             /* cursor line */
	size_t sel_a, sel_b;   /* selection, empty when equal */
	size_t br1, br2;       /* matching brackets, (size_t)-1 for none */
	attr_t attr;           /* the window attributes last set */
	short pair;
};

static const enum theme_role class_role[HL_NCLASSES] = {
	[HL_TEXT] = TR_NORMAL, [HL_KEYWORD] = TR_KEYWORD, [HL_BUILTIN] = TR_BUILTIN,
	[HL_STRING] = TR_STRING, [HL_COMMENT] = TR_COMMENT, [HL_NUMBER] = TR_NUMBER,
	[HL_DECORATOR] = TR_DECORATOR,
};

/* Sets the drawing style, skipping the call when it is unchanged. */
static void set_style(struct frame *f, attr_t a, short pair)
{
	if (a == f->attr && pair == f->pair)
		return;
	f->attr = a;
	f->pair = pair;
	wattr_set(f->win, a, pair, NULL);
}

/* Sets the style of role; on the cursor line, over its background. */
static void role_style(struct frame *f, enum theme_role r, bool curline)
{
	set_style(f, theme_attrs_only(f->th, r),
		  curline ? theme_curline_pair(f->th, r) : theme_pair(f->th, r));
}

/* n spaces from screen column sx. */
static void spaces(struct frame *f, int row, int sx, int n)
{
	if (n > 0)
		mvwhline(f->win, row, sx, ' ', n);
}

/* Draws a printable cluster: each spacing codepoint in its own cell(s)
 * with the zero-width ones after it folded into that cell, so ncurses and
 * the terminal agree on where everything is. */
static void put_text(struct frame *f, int row, int sx, const char *s, size_t n, bool mark)
{
	wchar_t wc[CCHARW_MAX + 1];
	int k = 0, gw = 0, at = sx;
	cchar_t cc;
	if (mark) {
		wc[k++] = L' ';
		gw = 1;
	}
	for (size_t p = 0; p <= n; ) {
		uint32_t cp = 0;
		size_t m = 0;
		int w = 0;
		if (p < n) {
			m = u8_decode(s + p, n - p, &cp);
			if (m == 0)
				m = 1;
			w = utf8proc_charwidth((utf8proc_int32_t)cp);
		}
		if (p == n || (w > 0 && k > 0)) {          /* flush the group */
			if (k > 0) {
				wc[k] = L'\0';
				if (setcchar(&cc, wc, f->attr, f->pair, NULL) == OK)
					mvwadd_wch(f->win, row, at, &cc);
				at += gw > 0 ? gw : 1;
			}
			k = 0;
			gw = 0;
			if (p == n)
				break;
		}
		if (k == 0 && w == 0)
			wc[k++] = L' ';                    /* nothing to draw it on */
		if (k < CCHARW_MAX)
			wc[k++] = (wchar_t)cp;
		gw += w > 0 ? w : 0;
		p += m;
	}
}

/* Draws one text line (or the filler below the text). */
static void draw_line(struct editor *ed, struct frame *f, int row, size_t line, long *ranges, int nr)
{
	bool is_cur = line == f->cl;
	size_t len;
	const char *s = ed_classify(ed, line, &len);
	if (!s) {
		role_style(f, TR_NORMAL, false);
		spaces(f, row, f->x, f->tw);
		return;
	}
	size_t ls = tb_line_start(ed->tb, line);
	long left = ed->left, right = ed->left + f->tw, col = 0;
	struct u8_cluster c;
	int ri = 0;
	for (size_t p = 0; p < len && col < right; p += c.len, col = u8_next_col(&c, col, TABW)) {
		u8_cluster_at(s, len, p, &c);
		long next = u8_next_col(&c, col, TABW);
		if (next <= left)
			continue;
		size_t off = ls + p;
		enum theme_role base = class_role[ed->cls[p] < HL_NCLASSES ? ed->cls[p] : 0];
		if (c.kind == U8_INVALID || c.kind == U8_CONTROL)
			base = TR_INVALID;
		while (ri < nr && ranges[2 * ri + 1] <= (long)p)
			ri++;
		if (off >= f->sel_a && off < f->sel_b)
			role_style(f, TR_SELECTION, false);
		else if (ri < nr && ranges[2 * ri] <= (long)p)
			role_style(f, TR_FIND_MATCH, false);
		else if (off == f->br1 || off == f->br2)
			role_style(f, TR_MATCH_BRACKET, false);
		else
			role_style(f, base, is_cur && base != TR_INVALID);
		int sx = f->x + (int)(col - left);
		if (col < left || next > right || c.kind == U8_TAB) {
			long a = col < left ? left : col, b = next > right ? right : next;
			spaces(f, row, f->x + (int)(a - left), (int)(b - a));
		} else if (c.kind == U8_INVALID || c.kind == U8_CONTROL) {
			char esc[U8_ESCAPE_MAX];
			int n = u8_escape(&c, esc);
			mvwaddnstr(f->win, row, sx, esc, n);
		} else if (c.len == 1) {
			mvwaddch(f->win, row, sx, (chtype)(unsigned char)s[p]);
		} else {
			if (c.width > 1)
				spaces(f, row, sx, c.width);
			put_text(f, row, sx, s + p, c.len, c.kind == U8_MARK);
		}
	}
	if (col < left)
		col = left;
	if (col < right) {
		/* A selection over the newline shows as one cell past the end. */
		if (ls + len >= f->sel_a && ls + len < f->sel_b && line + 1 < tb_lines(ed->tb)) {
			role_style(f, TR_SELECTION, false);
			spaces(f, row, f->x + (int)(col - left), 1);
			col++;
		}
		role_style(f, TR_NORMAL, is_cur);
		spaces(f, row, f->x + (int)(col - left), (int)(right - col));
	}
}

/* Byte ranges [start, end) on line s of the search text, at most max. */
static int find_ranges(const struct editor *ed, const char *s, size_t len, long *ranges, int max)
{
	int n = 0;
	if ((ed->prompt != P_FIND && ed->prompt != P_REPLACE_ASK) || !ed->needle || ed->needle_len == 0)
		return 0;
	size_t m;
	for (const char *p = s; n < max && (p = ed_match(ed, p, len - (size_t)(p - s), &m)) != NULL;
	     p += m ? m : 1) {
		ranges[2 * n] = p - s;
		ranges[2 * n + 1] = p - s + (long)m;
		n++;
	}
	return n;
}

/* Cells that UTF-8 text s[0..n) takes. */
static int text_width(const char *s, size_t n)
{
	return (int)u8_col_of(s, n, n, TABW);
}

/* The prompt row: label, input, note. */
static void draw_prompt(struct editor *ed, struct frame *f, int row, int x, int w)
{
	static const char *const labels[] = {
		[P_FIND] = "Find: ", [P_GOTO] = "Go to line: ",
		[P_REPLACE] = "Replace with: ", [P_REPLACE_ASK] = "Replace this match? ",
	};
	const char *label = labels[ed->prompt];
	const char *hint =
		ed->prompt == P_FIND ? (ed->find_icase ? "Enter next  ^P prev  Tab: ignoring case  ^F replace"
						       : "Enter next  ^P prev  Tab: exact case  ^F replace") :
		ed->prompt == P_REPLACE ? "Enter: ask at each match  Esc cancel" :
		ed->prompt == P_REPLACE_ASK ? "y/Enter replace  n skip  a all  Esc stop" :
		"Enter go  Esc cancel";
	const struct lineedit *le = &ed->field;
	bool has_field = ed->prompt != P_REPLACE_ASK;
	role_style(f, TR_DIALOG, false);
	spaces(f, row, x, w);
	mvwaddnstr(f->win, row, x, label, w);
	int lw = (int)strlen(label), iw = has_field ? text_width(le->buf, le->len) : 0;
	if (lw < w && has_field) {
		role_style(f, le->suggested ? TR_SELECTION : TR_DIALOG, false);
		mvwaddnstr(f->win, row, x + lw, le->buf, w - lw < (int)le->len ? w - lw : (int)le->len);
	}
	int at = lw + iw + 2;
	if (ed->note[0] && at < w) {
		role_style(f, !strcmp(ed->note, "not found") ? TR_ERROR : TR_DIALOG, false);
		mvwaddnstr(f->win, row, x + at, ed->note, w - at);
		at += (int)strlen(ed->note) + 2;
	}
	int hw = text_width(hint, strlen(hint));
	if (at + hw < w) {
		role_style(f, TR_DIALOG, false);
		mvwaddstr(f->win, row, x + w - hw, hint);
	}
	int cx = lw + (has_field ? text_width(le->buf, le->cur) : 0);
	ed->scr_y = row;
	ed->scr_x = x + (cx < w ? cx : w - 1);
}

/* Keeps the cursor inside the view when following it. */
static void scroll_to_cursor(struct editor *ed, int th, int tw, size_t cl, long cc)
{
	size_t n = tb_lines(ed->tb);
	if (ed->top >= n)
		ed->top = n - 1;
	if (ed->centre > 0 && th > 0) {
		/* a line shown to the class, in the middle of the view */
		size_t want = (size_t)ed->centre - 1;
		ed->top = want > (size_t)th / 2 ? want - (size_t)th / 2 : 0;
		if (ed->top >= n)
			ed->top = n - 1;
		ed->centre = 0;
		ed->follow = false;
		return;
	}
	if (!ed->follow || th <= 0)
		return;
	if (cl < ed->top)
		ed->top = cl;
	else if (cl >= ed->top + (size_t)th)
		ed->top = cl - (size_t)th + 1;
	if (cc < ed->left)
		ed->left = cc;
	else if (tw > 0 && cc >= ed->left + tw)
		ed->left = cc - tw + 1;
}

void editor_draw(struct editor *ed, WINDOW *win, int y, int x, int h, int w,
		 const struct theme *th, bool focused)
{
	(void)focused;
	if (h <= 0 || w <= 0)
		return;
	int text_h = ed->prompt != P_NONE ? h - 1 : h;
	size_t n = tb_lines(ed->tb);
	int digits = 1;
	for (size_t k = n; k >= 10; k /= 10)
		digits++;
	int gutter = (digits < 3 ? 3 : digits) + 1;
	if (w < gutter + 8)
		gutter = 0;
	int tw = w - gutter;
	size_t cl = ed_cur_line(ed);
	long cc = ed_cur_col(ed);
	scroll_to_cursor(ed, text_h, tw, cl, cc);
	ed->view_y = y;
	ed->view_x = x;
	ed->view_h = text_h;
	ed->view_w = tw;
	ed->gutter = gutter;

	struct frame f = { .win = win, .th = th, .y = y, .x = x + gutter, .tw = tw, .cl = cl,
			   .br1 = (size_t)-1, .br2 = (size_t)-1, .attr = (attr_t)-1, .pair = -1 };
	if (!ed_sel_range(ed, &f.sel_a, &f.sel_b))
		f.sel_a = f.sel_b = 0;
	if (!ed_find_brackets(ed, &f.br1, &f.br2))
		f.br1 = f.br2 = (size_t)-1;
	if (text_h > 0)
		ed_ensure_states(ed, ed->top + (size_t)text_h - 1);
	long ranges[2 * 64];
	for (int row = 0; row < text_h; row++) {
		size_t line = ed->top + (size_t)row;
		if (gutter) {
			char num[32];
			int gw = gutter - 1 > 24 ? 24 : gutter - 1;
			enum theme_role r = line >= n ? TR_LINENO
				: (long)line + 1 == ed->error_line ? TR_VIOLATION
				: line == cl ? TR_CURLINE : TR_LINENO;
			if (line < n)
				snprintf(num, sizeof num, "%*zu ", gw, line + 1);
			else
				snprintf(num, sizeof num, "%*s ", gw, "~");
			role_style(&f, r, false);
			mvwaddnstr(win, y + row, x, num, gutter);
			const char *mark = line < n ? ed_mark_at(ed, (long)line + 1) : NULL;
			if (mark) {
				role_style(&f, TR_VIOLATION, false);
				mvwaddstr(win, y + row, x + gutter - 1, mark);
			}
		}
		if (line >= n) {
			role_style(&f, TR_NORMAL, false);
			spaces(&f, y + row, f.x, tw);
			continue;
		}
		size_t len;
		const char *s = ed_line_bytes(ed, line, &len);
		int nr = find_ranges(ed, s, len, ranges, 64);
		draw_line(ed, &f, y + row, line, ranges, nr);
	}
	if (ed->prompt != P_NONE) {
		draw_prompt(ed, &f, y + h - 1, x, w);
	} else {
		ed->scr_y = y + (int)(cl - ed->top);
		ed->scr_x = x + gutter + (int)(cc - ed->left);
		if (cl < ed->top || cl >= ed->top + (size_t)text_h)
			ed->scr_y = -1;           /* scrolled away: hide the cursor */
	}
	wattr_set(win, A_NORMAL, 0, NULL);
}

void editor_screen_cursor(const struct editor *ed, int *y, int *x)
{
	*y = ed->scr_y;
	*x = ed->scr_x;
}
