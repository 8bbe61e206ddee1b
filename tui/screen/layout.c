/* SPDX-License-Identifier: MIT */
/*
 * layout.c - pane geometry and the shared drawing helpers.
 *
 * Wide screens (LAYOUT_WIDE_W x LAYOUT_WIDE_H and up):
 *
 *   +-- Editor ----------+-- Resources --+
 *   |                    +-- Violations -+
 *   +-- Output ----------+               |
 *   |                    +-- Carry ------+
 *   +--------------------+---------------+
 *   status line
 *
 * Narrow screens stack Editor, Output and Resources, with Violations and
 * Carry side by side at the bottom. Text is measured with utf8proc, so
 * widths do not depend on the C library's locale tables.
 */
#include <string.h>
#include <utf8proc.h>

#include "pane/gauges.h"
#include "screen/layout.h"
#include "screen/theme.h"
#include "buf.h"
#include "banned.h"

#define GAUGE_MIN_W 23

static struct rect mk(int y, int x, int h, int w)
{
	struct rect r = { y, x, h, w };
	return r;
}

struct rect rect_inner(struct rect r)
{
	return mk(r.y + 1, r.x + 1, r.h > 2 ? r.h - 2 : 0, r.w > 2 ? r.w - 2 : 0);
}

bool rect_contains(struct rect r, int y, int x)
{
	return y >= r.y && y < r.y + r.h && x >= r.x && x < r.x + r.w;
}

/* Rows the Resources pane needs to show every gauge at width w. */
static int resources_height(int w)
{
	int cols = (w - 2) / GAUGE_MIN_W;
	if (cols < 1) cols = 1;
	if (cols > GAUGE_COUNT) cols = GAUGE_COUNT;
	return (GAUGE_COUNT + cols - 1) / cols + 2;
}

static void layout_wide(struct layout *l)
{
	int avail = l->rows - 1;
	int right_w = l->cols * 2 / 5;
	int left_w, ed_h, res_h, rest, viol_h;

	if (right_w > 56) right_w = 56;
	if (right_w < 40) right_w = 40;
	left_w = l->cols - right_w;
	ed_h = avail * 3 / 5;
	l->pane[PANE_EDITOR] = mk(0, 0, ed_h, left_w);
	l->pane[PANE_OUTPUT] = mk(ed_h, 0, avail - ed_h, left_w);
	res_h = GAUGE_COUNT + 2; /* one gauge a row: the bars get long */
	rest = avail - res_h;
	viol_h = rest / 2;
	l->pane[PANE_RESOURCES] = mk(0, left_w, res_h, right_w);
	l->pane[PANE_VIOLATIONS] = mk(res_h, left_w, viol_h, right_w);
	l->pane[PANE_CARRY] = mk(res_h + viol_h, left_w, rest - viol_h, right_w);
}

static void layout_narrow(struct layout *l)
{
	int avail = l->rows - 1;
	int res_h = resources_height(l->cols);
	int bottom_h = avail / 5 < 3 ? 3 : avail / 5;
	int rest = avail - res_h - bottom_h;
	int ed_h = rest * 3 / 5 < 3 ? 3 : rest * 3 / 5;
	int out_h = rest - ed_h;
	int half = l->cols / 2;

	l->pane[PANE_EDITOR] = mk(0, 0, ed_h, l->cols);
	l->pane[PANE_OUTPUT] = mk(ed_h, 0, out_h, l->cols);
	l->pane[PANE_RESOURCES] = mk(ed_h + out_h, 0, res_h, l->cols);
	l->pane[PANE_VIOLATIONS] = mk(avail - bottom_h, 0, bottom_h, half);
	l->pane[PANE_CARRY] = mk(avail - bottom_h, half, bottom_h, l->cols - half);
	if (out_h < 3)
		l->too_small = true;
}

void layout_compute(struct layout *l, int rows, int cols)
{
	memset(l, 0, sizeof *l);
	l->rows = rows;
	l->cols = cols;
	l->status = mk(rows - 1, 0, 1, cols);
	if (rows < LAYOUT_MIN_H || cols < LAYOUT_MIN_W) {
		l->too_small = true;
		return;
	}
	l->wide = cols >= LAYOUT_WIDE_W && rows >= LAYOUT_WIDE_H;
	if (l->wide)
		layout_wide(l);
	else
		layout_narrow(l);
}

int layout_pane_at(const struct layout *l, int y, int x)
{
	if (l->too_small)
		return -1;
	for (int i = 0; i < PANE_COUNT; i++)
		if (rect_contains(l->pane[i], y, x))
			return i;
	return -1;
}

void layout_clear(WINDOW *win, struct rect r, attr_t attr)
{
	wattrset(win, (int)attr);
	for (int y = 0; y < r.h; y++)
		mvwhline(win, r.y + y, r.x, ' ', r.w);
}

void layout_draw_too_small(WINDOW *win, const struct layout *l,
			   const struct theme *th)
{
	char msg[96];
	int n = snprintf(msg, sizeof msg, "terminal too small: need %dx%d",
			 LAYOUT_MIN_W, LAYOUT_MIN_H);
	char have[48];
	int m = snprintf(have, sizeof have, "(now %dx%d)", l->cols, l->rows);
	int y = l->rows / 2 - 1;

	layout_clear(win, mk(0, 0, l->rows, l->cols), theme_attr(th, TR_NORMAL));
	if (y < 0) y = 0;
	text_draw(win, y, n < l->cols ? (l->cols - n) / 2 : 0, l->cols, msg,
		  (size_t)n, theme_attr(th, TR_ERROR));
	if (y + 1 < l->rows)
		text_draw(win, y + 1, m < l->cols ? (l->cols - m) / 2 : 0, l->cols,
			  have, (size_t)m, theme_attr(th, TR_NORMAL));
}

/* Draw one line-drawing glyph from the wide-char ACS set. */
static void put_glyph(WINDOW *win, int y, int x, const cchar_t *g, attr_t a)
{
	cchar_t c = *g;
	wchar_t wch[CCHARW_MAX];
	attr_t ga;
	short pair;

	getcchar(&c, wch, &ga, &pair, NULL);
	setcchar(&c, wch, a | (ga & A_ALTCHARSET), PAIR_NUMBER((int)a), NULL);
	mvwadd_wch(win, y, x, &c);
}

void layout_frame(WINDOW *win, struct rect r, const char *title,
		  const char *info, bool focused, const struct theme *th)
{
	attr_t a = theme_attr(th, focused ? TR_BORDER_FOCUSED : TR_BORDER);
	attr_t ta = theme_attr(th, focused ? TR_TITLE_FOCUSED : TR_TITLE);
	const cchar_t *hl = focused ? WACS_D_HLINE : WACS_HLINE;
	const cchar_t *vl = focused ? WACS_D_VLINE : WACS_VLINE;
	char buf[128];
	int n;

	if (r.h < 2 || r.w < 2)
		return;
	for (int x = 1; x < r.w - 1; x++) {
		put_glyph(win, r.y, r.x + x, hl, a);
		put_glyph(win, r.y + r.h - 1, r.x + x, hl, a);
	}
	for (int y = 1; y < r.h - 1; y++) {
		put_glyph(win, r.y + y, r.x, vl, a);
		put_glyph(win, r.y + y, r.x + r.w - 1, vl, a);
	}
	put_glyph(win, r.y, r.x, focused ? WACS_D_ULCORNER : WACS_ULCORNER, a);
	put_glyph(win, r.y, r.x + r.w - 1, focused ? WACS_D_URCORNER : WACS_URCORNER, a);
	put_glyph(win, r.y + r.h - 1, r.x, focused ? WACS_D_LLCORNER : WACS_LLCORNER, a);
	put_glyph(win, r.y + r.h - 1, r.x + r.w - 1,
		  focused ? WACS_D_LRCORNER : WACS_LRCORNER, a);

	n = snprintf(buf, sizeof buf, focused ? "[ %s ]" : " %s ", title);
	if (n > 0)
		text_draw(win, r.y, r.x + 2, r.w - 4, buf, (size_t)n,
			  ta | (focused ? A_BOLD : 0));
	if (info && info[0]) {
		int tw = n > 0 ? text_width(buf, (size_t)n) : 0;
		int room = r.w - 4 - tw - 2;
		n = snprintf(buf, sizeof buf, " %s ", info);
		if (n > 0 && room > 4) {
			int iw = text_width(buf, (size_t)n);
			if (iw > room) iw = room;
			text_draw(win, r.y, r.x + r.w - 2 - iw, iw, buf, (size_t)n, ta);
		}
	}
}

/* Decode one character; invalid bytes come back as U+FFFD, length 1. */
static size_t decode(const char *s, size_t len, utf8proc_int32_t *cp)
{
	utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)s,
					      (utf8proc_ssize_t)len, cp);
	if (n <= 0) {
		*cp = 0xFFFD;
		return 1;
	}
	return (size_t)n;
}

/* Cells a code point takes; controls and tabs are drawn as one cell. */
static int cp_width(utf8proc_int32_t cp)
{
	if (cp < 0x20 || cp == 0x7F)
		return 1;
	return utf8proc_charwidth(cp);
}

int text_width(const char *s, size_t len)
{
	int w = 0;
	for (size_t i = 0; i < len;) {
		utf8proc_int32_t cp;
		i += decode(s + i, len - i, &cp);
		w += cp_width(cp);
	}
	return w;
}

int text_draw(WINDOW *win, int y, int x, int maxw, const char *s, size_t len,
	      attr_t attr)
{
	wchar_t buf[512];
	size_t nb = 0;
	int w = 0;

	if (maxw <= 0)
		return 0;
	for (size_t i = 0; i < len && nb + 1 < SP_ARRAY_SIZE(buf);) {
		utf8proc_int32_t cp;
		i += decode(s + i, len - i, &cp);
		int cw = cp_width(cp);
		if (w + cw > maxw)
			break;
		if (cp < 0x20 || cp == 0x7F)
			cp = cp == '\t' ? ' ' : '?';
		if (cw == 0 && nb == 0)
			continue; /* a combining mark needs a base cell */
		buf[nb++] = (wchar_t)cp;
		w += cw;
	}
	buf[nb] = L'\0';
	wattrset(win, (int)attr);
	mvwaddnwstr(win, y, x, buf, (int)nb);
	return w;
}

size_t text_wrap_row(const char *s, size_t len, int maxw, bool words)
{
	size_t i = 0, last_space = 0;
	int w = 0;

	while (i < len) {
		utf8proc_int32_t cp;
		size_t n = decode(s + i, len - i, &cp);
		int cw = cp_width(cp);
		if (w + cw > maxw && i > 0) {
			if (words && cp == ' ')
				return i + n; /* a word ends right at the edge: its space goes too */
			if (words && last_space > 0)
				return last_space;
			return i;
		}
		w += cw;
		i += n;
		if (cp == ' ')
			last_space = i;
	}
	return i;
}

int text_wrap_rows(const char *s, size_t len, int maxw, bool words)
{
	int rows = 0;
	size_t i = 0;

	if (maxw <= 0)
		return 1;
	do {
		i += text_wrap_row(s + i, len - i, maxw, words);
		rows++;
	} while (i < len);
	return rows;
}

void layout_editor_first(struct layout *l)
{
	int avail = l->rows - 1, bottom = avail >= 20 ? 6 : 5;
	int ed = avail - bottom, side = l->cols / 4, out = l->cols - 2 * side;

	/* only where the Editor gains: the stacked layout gave it 3/5 of
	 * what Resources and the bottom row left */
	if (l->too_small || l->wide || l->zoomed || ed <= l->pane[PANE_EDITOR].h)
		return;
	l->pane[PANE_EDITOR] = mk(0, 0, ed, l->cols);
	l->pane[PANE_OUTPUT] = mk(ed, 0, bottom, out);
	l->pane[PANE_VIOLATIONS] = mk(ed, out, bottom, side);
	l->pane[PANE_CARRY] = mk(ed, out + side, bottom, l->cols - out - side);
	l->pane[PANE_RESOURCES] = mk(0, 0, 0, 0);
	l->editor_first = true;
}

void layout_grow_bottom(struct layout *l)
{
	struct rect *ed = &l->pane[PANE_EDITOR];
	int g = ed->h - 4;

	if (l->too_small || l->wide || l->zoomed || g <= 0)
		return;
	if (g > 6)
		g = 6;
	if (l->editor_first) {
		/* the whole bottom row grows, Output with Violations */
		ed->h -= g;
		for (int p = PANE_OUTPUT; p < PANE_COUNT; p++)
			if (p != PANE_RESOURCES) {
				l->pane[p].y -= g;
				l->pane[p].h += g;
			}
		return;
	}
	/* the Editor gives up rows; everything below it moves up by as many */
	ed->h -= g;
	l->pane[PANE_OUTPUT].y -= g;
	l->pane[PANE_RESOURCES].y -= g;
	l->pane[PANE_VIOLATIONS].y -= g;
	l->pane[PANE_VIOLATIONS].h += g;
	l->pane[PANE_CARRY].y -= g;
	l->pane[PANE_CARRY].h += g;
}

void layout_zoom(struct layout *l, int pane)
{
	if (l->too_small || pane < 0 || pane >= PANE_COUNT)
		return;
	for (int p = 0; p < PANE_COUNT; p++)
		l->pane[p] = mk(0, 0, 0, 0);
	l->pane[pane] = mk(0, 0, l->rows - 1, l->cols);
	l->zoomed = true;
}
