/* SPDX-License-Identifier: MIT */
/*
 * editor.c - the editor component's core: its state, the cursor moves,
 * the edits and the keys that drive them.
 *
 * The text lives in a textbuf (bytes, lines, undo); this file adds the
 * cursor, which is a byte offset kept on a grapheme-cluster boundary, and
 * everything a person expects around it. Vertical moves aim for a display
 * column (want_col) so that moving through a short line and back returns
 * to the same column, as in every editor.
 *
 * The struct and the helpers the editor's files share are in
 * editor_impl.h; the other jobs live beside this file: editor_buffer.c
 * (the state, its lifecycle and the shared helpers), editor_select.c
 * (selection, clipboard, inserting over a selection), editor_prompt.c
 * (find and go-to), editor_search.c (matching), editor_syntax.c
 * (highlight states, bracket matching), editor_file.c (open, save,
 * recovery) and editor_draw.c (drawing one frame). This file calls them;
 * they never call it.
 *
 * Sections: moves; edits; keys.
 */
#include "editor/editor_impl.h"

#include <stdlib.h>
#include <string.h>

#include "text/highlight.h"
#include "text/textbuf.h"
#include "text/utf8text.h"

#include "buf.h"
#include "banned.h"

/* ---- moves --------------------------------------------------------- */

/* Offset of the cluster boundary after (dir > 0) or before the cursor. */
static size_t step_cluster(struct editor *ed, size_t off, int dir)
{
	size_t line = tb_line_of(ed->tb, off), ls = tb_line_start(ed->tb, line), len;
	const char *s = ed_line_bytes(ed, line, &len);
	size_t rel = off - ls;
	if (dir > 0) {
		if (rel >= len)     /* at the end: over the '\n' */
			return off < tb_len(ed->tb) ? off + 1 : off;
		return ls + u8_next(s, len, rel);
	}
	if (rel == 0)
		return off > 0 ? off - 1 : 0;
	return ls + u8_prev(s, len, rel);
}

/* Moves to the start of the next or previous word. */
static size_t step_word(struct editor *ed, size_t off, int dir)
{
	size_t end = tb_len(ed->tb);
	/* Skip non-word clusters, then word clusters (or the reverse going left). */
	for (int phase = 0; phase < 2; phase++) {
		for (;;) {
			size_t o = dir > 0 ? off : step_cluster(ed, off, -1);
			if ((dir > 0 && off >= end) || (dir < 0 && off == 0))
				return off;
			char b[4];
			uint32_t cp;
			size_t n = tb_copy(ed->tb, o, 4, b);
			if (!u8_decode(b, n, &cp))
				cp = 0xfffd;
			if (u8_is_word(cp) != (phase == 1))
				break;
			off = dir > 0 ? step_cluster(ed, off, 1) : o;
		}
	}
	return off;
}

/* Offset in line at display column col (clamped to the line). */
static size_t off_at_col(struct editor *ed, size_t line, long col)
{
	size_t len;
	const char *s = ed_line_bytes(ed, line, &len);
	return tb_line_start(ed->tb, line) + u8_off_of_col(s, len, col, TABW);
}

/* Moves the cursor dl lines keeping the wanted column. */
static void move_lines(struct editor *ed, long dl)
{
	if (ed->want_col < 0)
		ed->want_col = ed_cur_col(ed);
	long line = (long)ed_cur_line(ed) + dl, n = (long)tb_lines(ed->tb);
	if (line < 0) {
		ed->cur = 0;
		return;
	}
	if (line >= n) {
		ed->cur = tb_len(ed->tb);
		return;
	}
	ed->cur = off_at_col(ed, (size_t)line, ed->want_col);
}

/* Home: first non-blank, or the line start when already there. */
static size_t smart_home(struct editor *ed)
{
	size_t line = ed_cur_line(ed), ls = tb_line_start(ed->tb, line), le = tb_line_end(ed->tb, line);
	size_t p = ls;
	while (p < le && (tb_byte(ed->tb, p) == ' ' || tb_byte(ed->tb, p) == '\t'))
		p++;
	return ed->cur == p ? ls : p;
}

/* ---- edits --------------------------------------------------------- */

void editor_replace_all(struct editor *ed, const char *text, size_t len)
{
	tb_break_group(ed->tb);
	tb_group_begin(ed->tb);
	tb_delete(ed->tb, 0, tb_len(ed->tb));
	tb_insert(ed->tb, 0, text, len);
	tb_group_end(ed->tb);
	tb_break_group(ed->tb);
	ed->cur = ed->anchor = 0;
	ed->sel = false;
	ed->want_col = -1;
	ed->top = 0;
	ed->follow = true;
}

/* Types text as from the keyboard: joins the current typing run. */
static void type_bytes(struct editor *ed, const char *s, size_t n)
{
	size_t a, b;
	if (ed_sel_range(ed, &a, &b)) {
		ed_insert_bytes(ed, s, n);
		tb_break_group(ed->tb);
		return;
	}
	ed->sel = false;
	if (tb_insert(ed->tb, ed->cur, s, n) == 0)
		ed->cur += n;
	ed->want_col = -1;
	ed->follow = true;
}

/* True when the last code byte before the cursor on its line is ':'
 * (strings and comments do not count). */
static bool opens_block(struct editor *ed, size_t line, size_t upto)
{
	size_t len;
	const char *s = ed_classify(ed, line, &len);
	if (!s)
		return false;
	for (size_t i = upto < len ? upto : len; i > 0; i--) {
		unsigned char c = (unsigned char)s[i - 1];
		if (ed->cls[i - 1] == HL_COMMENT || c == ' ' || c == '\t')
			continue;
		return c == ':' && ed->cls[i - 1] == HL_TEXT;
	}
	return false;
}

/* True when the line's code is a statement after which the block ends. */
static bool closes_block(const char *s, size_t len)
{
	static const char *const words[] = { "return", "pass", "break", "continue", "raise" };
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	for (size_t i = 0; i < SP_ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i]);
		if (len >= n && !memcmp(s, words[i], n) &&
		    (len == n || s[n] == ' ' || s[n] == '(' || s[n] == '#'))
			return true;
	}
	return false;
}

/* Enter: newline, keeping the indent; one step more after ':', one less
 * after return/pass/break/continue/raise. */
static void newline(struct editor *ed)
{
	size_t line = ed_cur_line(ed), ls = tb_line_start(ed->tb, line);
	size_t rel = ed->cur - ls;
	bool more = opens_block(ed, line, rel);
	size_t len;
	const char *s = ed_line_bytes(ed, line, &len);
	size_t ind = 0;
	while (ind < len && ind < rel && (s[ind] == ' ' || s[ind] == '\t'))
		ind++;
	bool less = !more && closes_block(s, rel);
	char buf[512];
	size_t n = 0;
	buf[n++] = '\n';
	if (ind > sizeof buf - 8)
		ind = sizeof buf - 8;
	memcpy(buf + n, s, ind);
	n += ind;
	if (more) {
		memcpy(buf + n, "    ", TABW);
		n += TABW;
	} else if (less) {
		long col = u8_col_of(s, len, ind, TABW);
		long target = col >= TABW ? (col - 1) / TABW * TABW : 0;
		n = 1 + (size_t)u8_off_of_col(s, ind, target, TABW);
	}
	tb_break_group(ed->tb);
	ed_insert_bytes(ed, buf, n);
}

/* Backspace: the selection, an indent step in leading spaces, the newline
 * at a line start, or one cluster. */
static void backspace(struct editor *ed)
{
	if (ed_delete_selection(ed)) {
		tb_break_group(ed->tb);
		return;
	}
	size_t line = ed_cur_line(ed), ls = tb_line_start(ed->tb, line);
	size_t rel = ed->cur - ls;
	if (rel == 0) {
		if (ed->cur > 0) {
			tb_delete(ed->tb, ed->cur - 1, 1);
			ed->cur--;
		}
		return;
	}
	size_t len;
	const char *s = ed_line_bytes(ed, line, &len);
	size_t k = 0;
	while (k < rel && s[k] == ' ')
		k++;
	size_t n;
	if (k == rel) {                       /* only spaces before the cursor */
		n = rel % TABW ? rel % TABW : TABW;
	} else {
		n = rel - u8_prev(s, len, rel);
	}
	tb_delete(ed->tb, ed->cur - n, n);
	ed->cur -= n;
}

/* Delete: the selection or the cluster (or newline) after the cursor. */
static void delete_forward(struct editor *ed)
{
	if (ed_delete_selection(ed)) {
		tb_break_group(ed->tb);
		return;
	}
	size_t next = step_cluster(ed, ed->cur, 1);
	tb_delete(ed->tb, ed->cur, next - ed->cur);
}

/* Indents (dir > 0) or dedents every line of the selection by one step. */
static void indent_lines(struct editor *ed, int dir)
{
	size_t l0, l1;
	ed_sel_lines(ed, &l0, &l1);
	tb_group_begin(ed->tb);
	for (size_t l = l0; l <= l1; l++) {
		size_t ls = tb_line_start(ed->tb, l);
		size_t n = 0;
		if (dir > 0) {
			tb_insert(ed->tb, ls, "    ", TABW);
			n = TABW;
		} else {
			while (n < TABW && ls + n < tb_line_end(ed->tb, l) && tb_byte(ed->tb, ls + n) == ' ')
				n++;
			tb_delete(ed->tb, ls, n);
		}
		/* Offsets move with the text as each line changes; one at the
		 * line's start stays there (a selection from column 0). */
		size_t *offs[2] = { &ed->cur, &ed->anchor };
		for (int i = 0; i < 2; i++) {
			size_t *o = offs[i];
			if (*o <= ls)
				continue;
			if (dir > 0)
				*o += n;
			else
				*o -= *o - ls < n ? *o - ls : n;
		}
	}
	tb_group_end(ed->tb);
	ed->follow = true;
}

/* Tab: indent the selected lines, or spaces to the next tab stop. */
static void tab(struct editor *ed)
{
	size_t a, b;
	if (ed_sel_range(ed, &a, &b) && tb_line_of(ed->tb, a) != tb_line_of(ed->tb, b)) {
		indent_lines(ed, 1);
		return;
	}
	long col = ed_cur_col(ed);
	size_t n = (size_t)(TABW - col % TABW);
	type_bytes(ed, "    ", n);
}

/* ---- keys ---------------------------------------------------------- */

/* Key codes of Ctrl+arrows and Ctrl+Home/End, which terminfo names as
 * extended capabilities (kLFT5...) and ncurses numbers at run time. */
enum { XK_WLEFT, XK_WRIGHT, XK_SWLEFT, XK_SWRIGHT, XK_TOP, XK_BOTTOM, XK_N };
static int xkeys[XK_N];
static bool xkeys_done;

/* Looks the extended keys up once a terminal exists. */
static void lookup_xkeys(void)
{
	static const char *const caps[XK_N] = { "kLFT5", "kRIT5", "kLFT6", "kRIT6", "kHOM5", "kEND5" };
	if (xkeys_done || !stdscr)
		return;
	for (int i = 0; i < XK_N; i++) {
		char *s = tigetstr(caps[i]);
		int k = (s && s != (char *)-1) ? key_defined(s) : -1;
		xkeys[i] = k > 0 ? k : -1;
	}
	xkeys_done = true;
}

/* Types a character, keeping the cursor on a cluster boundary (a typed
 * combining mark or ZWJ joins the cluster before it). */
static void type_char(struct editor *ed, wint_t ch)
{
	char mb[8];
	size_t n = ed_encode(ch, mb);
	if (n == 0)
		return;
	type_bytes(ed, mb, n);
	if (n > 1) {
		size_t line = ed_cur_line(ed), ls = tb_line_start(ed->tb, line), len;
		const char *s = ed_line_bytes(ed, line, &len);
		size_t rel = ed->cur - ls, fl = u8_floor(s, len, rel);
		if (fl != rel)
			ed->cur = ls + u8_next(s, len, fl);
	}
}

/* A KEY_* code outside prompts. */
static bool special_key(struct editor *ed, wint_t k)
{
	lookup_xkeys();
	int page = ed->view_h > 2 ? ed->view_h - 1 : 1;
	bool shift = k == KEY_SLEFT || k == KEY_SRIGHT || k == KEY_SR || k == KEY_SF ||
		     k == KEY_SHOME || k == KEY_SEND || k == KEY_SPREVIOUS || k == KEY_SNEXT ||
		     (int)k == xkeys[XK_SWLEFT] || (int)k == xkeys[XK_SWRIGHT];
	size_t a, b;
	bool had = ed_sel_range(ed, &a, &b);
	switch (k) {
	case KEY_LEFT: case KEY_SLEFT:
		ed_pre_move(ed, shift);
		ed->cur = had && !shift ? a : step_cluster(ed, ed->cur, -1);
		ed->want_col = -1;
		return true;
	case KEY_RIGHT: case KEY_SRIGHT:
		ed_pre_move(ed, shift);
		ed->cur = had && !shift ? b : step_cluster(ed, ed->cur, 1);
		ed->want_col = -1;
		return true;
	case KEY_UP: case KEY_SR:
		ed_pre_move(ed, shift);
		move_lines(ed, -1);
		return true;
	case KEY_DOWN: case KEY_SF:
		ed_pre_move(ed, shift);
		move_lines(ed, 1);
		return true;
	case KEY_HOME: case KEY_SHOME:
		ed_pre_move(ed, shift);
		ed->cur = smart_home(ed);
		ed->want_col = -1;
		return true;
	case KEY_END: case KEY_SEND:
		ed_pre_move(ed, shift);
		ed->cur = tb_line_end(ed->tb, ed_cur_line(ed));
		ed->want_col = -1;
		return true;
	case KEY_PPAGE: case KEY_SPREVIOUS:
		ed_pre_move(ed, shift);
		move_lines(ed, -page);
		ed->top = ed->top > (size_t)page ? ed->top - (size_t)page : 0;
		return true;
	case KEY_NPAGE: case KEY_SNEXT:
		ed_pre_move(ed, shift);
		move_lines(ed, page);
		if (ed->top + (size_t)page < tb_lines(ed->tb))
			ed->top += (size_t)page;
		return true;
	case KEY_BACKSPACE:
		backspace(ed);
		ed->want_col = -1;
		ed->follow = true;
		return true;
	case KEY_DC:
		delete_forward(ed);
		ed->want_col = -1;
		ed->follow = true;
		return true;
	case KEY_ENTER:
		newline(ed);
		return true;
	case KEY_BTAB:                          /* Shift-Tab dedents */
		indent_lines(ed, -1);
		return true;
	default:
		break;
	}
	if ((int)k == xkeys[XK_WLEFT] || (int)k == xkeys[XK_SWLEFT] ||
	    (int)k == xkeys[XK_WRIGHT] || (int)k == xkeys[XK_SWRIGHT]) {
		int dir = ((int)k == xkeys[XK_WLEFT] || (int)k == xkeys[XK_SWLEFT]) ? -1 : 1;
		ed_pre_move(ed, shift);
		ed->cur = step_word(ed, ed->cur, dir);
		ed->want_col = -1;
		return true;
	}
	if ((int)k == xkeys[XK_TOP] || (int)k == xkeys[XK_BOTTOM]) {
		ed_pre_move(ed, false);
		ed->cur = (int)k == xkeys[XK_TOP] ? 0 : tb_len(ed->tb);
		ed->want_col = -1;
		return true;
	}
	return false;
}

bool editor_key(struct editor *ed, bool is_key, wint_t ch)
{
	bool cutting = ed->cutting_lines;
	ed->cutting_lines = false;
	if (ed->prompt != P_NONE)
		return ed_prompt_key(ed, is_key, ch);
	if (is_key)
		return special_key(ed, ch);
	switch (ch) {
	case '\r': case '\n':
		newline(ed);
		return true;
	case '\t':
		tab(ed);
		return true;
	case 127: case 8:                       /* Backspace as DEL or ^H */
		backspace(ed);
		ed->want_col = -1;
		ed->follow = true;
		return true;
	case 26:                                /* Ctrl-Z */
		ed_undo_redo(ed, false);
		return true;
	case 25:                                /* Ctrl-Y */
		ed_undo_redo(ed, true);
		return true;
	case 24:                                /* Ctrl-X */
		ed_cut(ed);
		return true;
	case 3:                                 /* Ctrl-C: copy, else the app's cancel */
		return ed_copy(ed);
	case 22:                                /* Ctrl-V */
		if (ed->clip) {
			tb_break_group(ed->tb);
			ed_insert_bytes(ed, ed->clip, ed->cliplen);
			tb_break_group(ed->tb);
		}
		return true;
	case 6:                                 /* Ctrl-F */
		editor_begin_find(ed);
		return true;
	case 1:                                 /* Ctrl-A: as Home */
		return special_key(ed, KEY_HOME);
	case 5:                                 /* Ctrl-E: as End */
		return special_key(ed, KEY_END);
	case 11:                                /* Ctrl-K: cut the line(s) */
		ed_cut_lines(ed, cutting);
		ed->cutting_lines = true;
		return true;
	case 31:                                /* Ctrl-/ (and Ctrl-_) */
		ed_toggle_comment(ed);
		return true;
	case 27:                                /* Esc clears a selection */
		if (!ed->sel)
			return false;
		ed->sel = false;
		return true;
	default:
		break;
	}
	if (ch < 32 || ch == 127 || (ch >= 0x80 && ch < 0xa0))
		return false;
	type_char(ed, ch);
	return true;
}

void editor_mouse_click(struct editor *ed, int row, int col)
{
	if (row < 0 || col < 0)
		return;
	size_t line = ed->top + (size_t)row;
	if (line >= tb_lines(ed->tb))
		line = tb_lines(ed->tb) - 1;
	long c = col < ed->gutter ? 0 : (long)(col - ed->gutter) + ed->left;
	ed_pre_move(ed, false);
	ed->cur = off_at_col(ed, line, c);
	ed->want_col = -1;
	ed->follow = false;      /* the click is already in view */
}

void editor_scroll(struct editor *ed, int lines)
{
	size_t n = tb_lines(ed->tb);
	long top = (long)ed->top + lines;
	long max = (long)n - (ed->view_h > 1 ? ed->view_h / 2 : 1);
	if (top > max)
		top = max;
	if (top < 0)
		top = 0;
	ed->top = (size_t)top;
	ed->follow = false;
}
