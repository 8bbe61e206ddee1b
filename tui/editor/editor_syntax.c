/* SPDX-License-Identifier: MIT */
/*
 * editor_syntax.c - what the highlighter tells the editor about its text:
 * the cached highlight state of each line start, the classes of one
 * line's bytes, and bracket matching that skips strings and comments.
 */
#include "editor/editor_impl.h"

#include <limits.h>
#include <stdlib.h>

#include "text/highlight.h"
#include "text/textbuf.h"
#include "text/utf8text.h"

#include "buf.h"
#include "banned.h"

#define BRACKET_SCAN_LINES 2000    /* how far bracket matching looks */

/* Makes room for n bytes of classes. */
static bool cls_reserve(struct editor *ed, size_t n)
{
	if (n <= ed->cls_cap)
		return true;
	unsigned char *c = sp_grow(ed->cls, &ed->cls_cap, n, 1);
	if (!c)
		return false;
	ed->cls = c;
	return true;
}

/* Makes hls[0..line] valid, after noting what the buffer changed.
 * Returns false when out of memory (then no state past hls_valid). */
bool ed_ensure_states(struct editor *ed, size_t line)
{
	size_t dirty = tb_dirty_line(ed->tb);
	if (dirty != (size_t)-1) {
		if (dirty + 1 < ed->hls_valid)
			ed->hls_valid = dirty + 1;
		tb_clear_dirty(ed->tb);
	}
	size_t n = tb_lines(ed->tb);
	if (line >= n)
		line = n - 1;
	if (ed->hls_cap < n + 1) {
		hl_state *h = sp_grow(ed->hls, &ed->hls_cap, n + 1, sizeof *h);
		if (!h)
			return false;
		ed->hls = h;
	}
	if (ed->hls_valid == 0) {
		ed->hls[0] = HL_START;
		ed->hls_valid = 1;
	}
	while (ed->hls_valid <= line) {
		size_t i = ed->hls_valid, len;
		const char *s = ed_line_bytes(ed, i - 1, &len);
		ed->hls[i] = hl_line(s, len, ed->hls[i - 1], NULL);
		ed->hls_valid++;
	}
	return true;
}

/* Classes of line into ed->cls; returns its bytes (valid until the next
 * buffer call) or NULL when out of memory. */
const char *ed_classify(struct editor *ed, size_t line, size_t *len)
{
	if (!ed_ensure_states(ed, line))
		return NULL;
	const char *s = ed_line_bytes(ed, line, len);
	if (!cls_reserve(ed, *len + 1))
		return NULL;
	hl_line(s, *len, ed->hls[line], ed->cls);
	return s;
}

/* ---- bracket matching ---------------------------------------------- */

/* The partner of a bracket byte, and +1 to search forward or -1 back. */
static int bracket_partner(unsigned char c, int *dir)
{
	switch (c) {
	case '(': *dir = 1; return ')';
	case '[': *dir = 1; return ']';
	case '{': *dir = 1; return '}';
	case ')': *dir = -1; return '(';
	case ']': *dir = -1; return '[';
	case '}': *dir = -1; return '{';
	default: return 0;
	}
}

/* True when the byte at off is code (not in a string or comment). */
static bool is_code(struct editor *ed, size_t off)
{
	size_t line = tb_line_of(ed->tb, off), len;
	if (!ed_classify(ed, line, &len))
		return false;
	size_t rel = off - tb_line_start(ed->tb, line);
	return rel < len && ed->cls[rel] == HL_TEXT;
}

/* Scans from the bracket at off for its partner, skipping strings and
 * comments, over at most BRACKET_SCAN_LINES lines. */
static bool scan_partner(struct editor *ed, size_t off, size_t *match)
{
	int dir = 0;
	unsigned char me = tb_byte(ed->tb, off);
	unsigned char want = (unsigned char)bracket_partner(me, &dir);
	size_t line = tb_line_of(ed->tb, off), nlines = tb_lines(ed->tb);
	long rel = (long)(off - tb_line_start(ed->tb, line)) + dir;
	int depth = 0;
	for (int k = 0; k < BRACKET_SCAN_LINES; k++) {
		size_t len;
		const char *s = ed_classify(ed, line, &len);
		if (!s)
			return false;
		if (rel == LONG_MIN)
			rel = dir > 0 ? 0 : (long)len - 1;
		for (; rel >= 0 && rel < (long)len; rel += dir) {
			if (ed->cls[rel] != HL_TEXT)
				continue;
			unsigned char c = (unsigned char)s[rel];
			if (c == me) {
				depth++;
			} else if (c == want && depth-- == 0) {
				*match = tb_line_start(ed->tb, line) + (size_t)rel;
				return true;
			}
		}
		if ((dir > 0 && line + 1 >= nlines) || (dir < 0 && line == 0))
			return false;
		line = dir > 0 ? line + 1 : line - 1;
		rel = LONG_MIN;
	}
	return false;
}

/* The bracket at or just before the cursor and its partner. */
bool ed_find_brackets(struct editor *ed, size_t *at, size_t *match)
{
	size_t cands[2] = { ed->cur, ed->cur - 1 };
	int dir = 0;
	for (int i = 0; i < 2; i++) {
		size_t o = cands[i];
		if ((i == 1 && ed->cur == 0) || o >= tb_len(ed->tb))
			continue;
		if (!bracket_partner(tb_byte(ed->tb, o), &dir) || !is_code(ed, o))
			continue;
		if (scan_partner(ed, o, match)) {
			*at = o;
			return true;
		}
		return false;
	}
	return false;
}

bool editor_matching_bracket(struct editor *ed, long *line, long *col)
{
	size_t at, m;
	if (!ed_find_brackets(ed, &at, &m))
		return false;
	size_t l = tb_line_of(ed->tb, m), len;
	const char *s = ed_line_bytes(ed, l, &len);
	*line = (long)l + 1;
	*col = u8_col_of(s, len, m - tb_line_start(ed->tb, l), TABW) + 1;
	return true;
}
