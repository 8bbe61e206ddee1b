/* SPDX-License-Identifier: MIT */
/*
 * utf8text.c - cluster stepping and cell widths over raw bytes.
 *
 * UTF-8 in one table (x = payload bits):
 *     U+0000..U+007F     0xxxxxxx
 *     U+0080..U+07FF     110xxxxx 10xxxxxx
 *     U+0800..U+FFFF     1110xxxx 10xxxxxx 10xxxxxx      (not D800..DFFF)
 *     U+10000..U+10FFFF  11110xxx 10xxxxxx 10xxxxxx 10xxxxxx
 * utf8proc_iterate() rejects everything else (overlongs, surrogates, stray
 * continuation bytes); we then take one byte as an invalid cluster.
 *
 * ASCII is the common case in source code, so each walker has a fast path:
 * two ASCII bytes in a row always have a boundary between them (except
 * CR LF, which never reaches us inside a line... but is handled anyway).
 */
#include "text/utf8text.h"

#include <stdio.h>
#include <utf8proc.h>

#include "banned.h"

/* Decodes one codepoint; 0 for an invalid byte. */
size_t u8_decode(const char *s, size_t len, uint32_t *cp)
{
	unsigned char b = (unsigned char)s[0];
	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	utf8proc_int32_t c;
	utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)s,
					      (utf8proc_ssize_t)(len < 4 ? len : 4), &c);
	if (n <= 0) {
		*cp = b;
		return 0;
	}
	*cp = (uint32_t)c;
	return (size_t)n;
}

/* True if a boundary surely lies between ASCII bytes a and b. */
static bool ascii_break(unsigned char a, unsigned char b)
{
	return a < 0x80 && b < 0x80 && !(a == '\r' && b == '\n');
}

/* Cells one codepoint takes when it is not the cluster's first. */
static int cp_width(uint32_t cp)
{
	int w = utf8proc_charwidth((utf8proc_int32_t)cp);
	return w > 0 ? w : 0;
}

/* True when a codepoint cannot start a printable cluster: controls,
 * format characters (bidi overrides, ZWSP, BOM), unassigned ones. */
static bool needs_escape(uint32_t cp)
{
	switch (utf8proc_category((utf8proc_int32_t)cp)) {
	case UTF8PROC_CATEGORY_CC:
	case UTF8PROC_CATEGORY_CF:
	case UTF8PROC_CATEGORY_CN:
	case UTF8PROC_CATEGORY_CS:
	case UTF8PROC_CATEGORY_ZL:
	case UTF8PROC_CATEGORY_ZP:
		return true;
	default:
		return false;
	}
}

/* True for combining marks (which need a base to draw on). */
static bool is_mark(uint32_t cp)
{
	utf8proc_category_t k = utf8proc_category((utf8proc_int32_t)cp);
	return k == UTF8PROC_CATEGORY_MN || k == UTF8PROC_CATEGORY_MC ||
	       k == UTF8PROC_CATEGORY_ME;
}

/* Next boundary after off. */
size_t u8_next(const char *s, size_t len, size_t off)
{
	if (off + 1 >= len)
		return len;
	if (ascii_break((unsigned char)s[off], (unsigned char)s[off + 1]))
		return off + 1;
	uint32_t prev, cp;
	size_t n = u8_decode(s + off, len - off, &prev);
	if (n == 0)
		return off + 1;
	utf8proc_int32_t state = 0;
	size_t pos = off + n;
	while (pos < len) {
		size_t m = u8_decode(s + pos, len - pos, &cp);
		if (m == 0 || utf8proc_grapheme_break_stateful((utf8proc_int32_t)prev,
				(utf8proc_int32_t)cp, &state))
			break;
		prev = cp;
		pos += m;
	}
	return pos;
}

/* A boundary at or before off from which a forward walk can start. */
static size_t safe_start(const char *s, size_t off)
{
	for (size_t p = off; p > 0; p--)
		if (ascii_break((unsigned char)s[p - 1], (unsigned char)s[p]))
			return p;
	return 0;
}

/* Previous boundary before off. */
size_t u8_prev(const char *s, size_t len, size_t off)
{
	if (off == 0)
		return 0;
	if (off > len)
		off = len;
	if (off >= 2 && ascii_break((unsigned char)s[off - 2], (unsigned char)s[off - 1]) &&
	    (off == len || (unsigned char)s[off] < 0x80))
		return off - 1;
	size_t p = safe_start(s, off - 1), last = p;
	while (p < off) {
		last = p;
		p = u8_next(s, len, p);
	}
	return last;
}

/* The boundary at or before off. */
size_t u8_floor(const char *s, size_t len, size_t off)
{
	if (off >= len)
		return len;
	size_t p = safe_start(s, off), last = p;
	while (p <= off) {
		last = p;
		if (p == len)
			break;
		p = u8_next(s, len, p);
	}
	return last;
}

/* Fills c for the cluster at off. */
void u8_cluster_at(const char *s, size_t len, size_t off, struct u8_cluster *c)
{
	unsigned char b = (unsigned char)s[off];
	size_t end = u8_next(s, len, off);
	c->len = end - off;
	c->cp = b;
	if (b == '\t') {
		c->kind = U8_TAB;
		c->width = 0;
		return;
	}
	if (b >= 0x20 && b < 0x7f && c->len == 1) {
		c->kind = U8_TEXT;
		c->width = 1;
		return;
	}
	size_t n = u8_decode(s + off, len - off, &c->cp);
	if (n == 0) {
		c->kind = U8_INVALID;
		c->width = 4;                       /* \xNN */
		return;
	}
	if (needs_escape(c->cp)) {
		c->kind = U8_CONTROL;
		char tmp[U8_ESCAPE_MAX];
		c->width = u8_escape(c, tmp);
		return;
	}
	if (is_mark(c->cp)) {
		c->kind = U8_MARK;
		c->width = 1;
		return;
	}
	c->kind = U8_TEXT;
	int w = 0;
	uint32_t cp;
	for (size_t p = off; p < end; ) {
		size_t m = u8_decode(s + p, end - p, &cp);
		w += cp_width(cp);
		p += m ? m : 1;
	}
	c->width = w > 0 ? w : 1;
}

/* The column after cluster c drawn at col. */
long u8_next_col(const struct u8_cluster *c, long col, int tabw)
{
	if (c->kind == U8_TAB)
		return (col / tabw + 1) * tabw;
	return col + c->width;
}

/* Column of off, walking from the line start. */
long u8_col_of(const char *s, size_t len, size_t off, int tabw)
{
	long col = 0;
	struct u8_cluster c;
	for (size_t p = 0; p < off && p < len; p += c.len) {
		u8_cluster_at(s, len, p, &c);
		col = u8_next_col(&c, col, tabw);
	}
	return col;
}

/* Offset of the cluster covering col. */
size_t u8_off_of_col(const char *s, size_t len, long col, int tabw)
{
	long at = 0;
	struct u8_cluster c;
	size_t p = 0;
	while (p < len) {
		u8_cluster_at(s, len, p, &c);
		long next = u8_next_col(&c, at, tabw);
		if (next > col)
			return p;
		at = next;
		p += c.len;
	}
	return len;
}

/* Escape text for clusters that cannot be drawn as they are. */
int u8_escape(const struct u8_cluster *c, char *buf)
{
	if (c->kind == U8_INVALID)
		return snprintf(buf, U8_ESCAPE_MAX, "\\x%02X", (unsigned)c->cp & 0xff);
	if (c->cp < 0x20)
		return snprintf(buf, U8_ESCAPE_MAX, "^%c", (char)(c->cp + '@'));
	if (c->cp == 0x7f)
		return snprintf(buf, U8_ESCAPE_MAX, "^?");
	if (c->cp <= 0xffff)
		return snprintf(buf, U8_ESCAPE_MAX, "\\u%04X", (unsigned)c->cp);
	return snprintf(buf, U8_ESCAPE_MAX, "\\U%08X", (unsigned)c->cp);
}

/* Letters, digits, marks, connector punctuation. */
bool u8_is_word(uint32_t cp)
{
	if (cp < 0x80)
		return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
		       (cp >= '0' && cp <= '9') || cp == '_';
	switch (utf8proc_category((utf8proc_int32_t)cp)) {
	case UTF8PROC_CATEGORY_LU: case UTF8PROC_CATEGORY_LL:
	case UTF8PROC_CATEGORY_LT: case UTF8PROC_CATEGORY_LM:
	case UTF8PROC_CATEGORY_LO: case UTF8PROC_CATEGORY_MN:
	case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ND:
	case UTF8PROC_CATEGORY_NL: case UTF8PROC_CATEGORY_NO:
	case UTF8PROC_CATEGORY_PC:
		return true;
	default:
		return false;
	}
}
