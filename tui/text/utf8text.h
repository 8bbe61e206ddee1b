/* SPDX-License-Identifier: MIT */
/*
 * utf8text.h - grapheme clusters and display cells of UTF-8 text (utf8proc).
 *
 * Invariants:
 *  - Every function takes arbitrary bytes. An invalid byte (bad lead,
 *    truncated or overlong sequence, surrogate, > U+10FFFF) is a cluster
 *    of its own, one byte long, never merged with a neighbour, so stepping
 *    over text always moves and never loses or rewrites a byte.
 *  - Boundaries follow Unicode's extended grapheme clusters (UAX #29 as
 *    utf8proc implements it): a base and its combining marks, ZWJ emoji
 *    sequences and flag pairs are one cluster each.
 *  - A cluster's width is the cells it takes on screen, counted the way
 *    the terminal and ncurses count them: the sum of each codepoint's width
 *    (CJK and emoji 2, combining marks 0). Clusters that would draw as
 *    nothing or move the terminal's cursor (controls, format characters,
 *    invalid bytes) are given a visible escape instead: ^X, \xNN, \uXXXX.
 *  - Tabs are clusters of kind U8_TAB; their width depends on the column,
 *    so the column functions here take the tab width.
 * No terminal code here.
 */
#ifndef SP_UTF8TEXT_H
#define SP_UTF8TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum u8_kind {
	U8_TEXT,     /* printable: draw the codepoints */
	U8_TAB,      /* '\t': spaces to the next tab stop */
	U8_INVALID,  /* one byte that is not UTF-8: drawn as \xNN */
	U8_CONTROL,  /* control or format codepoint: drawn as ^X or \uXXXX */
	U8_MARK,     /* combining mark with no base: drawn on a space */
};

struct u8_cluster {
	size_t len;          /* bytes, >= 1 */
	int width;           /* cells (0 for a tab: see u8_next_col) */
	enum u8_kind kind;
	uint32_t cp;         /* first codepoint, or the byte for U8_INVALID */
};

/* Longest escape text plus NUL ("\U0010FFFF"). */
#define U8_ESCAPE_MAX 12

/* Decodes one codepoint at s[0..len) (len >= 1). Returns its byte count,
 * or 0 when s[0] does not start a valid sequence (then *cp = the byte). */
size_t u8_decode(const char *s, size_t len, uint32_t *cp);

/* Describes the cluster starting at s[off] (off < len). */
void u8_cluster_at(const char *s, size_t len, size_t off, struct u8_cluster *c);

/* Offset of the next cluster boundary after off (off < len), <= len. */
size_t u8_next(const char *s, size_t len, size_t off);

/* Offset of the cluster boundary before off (0 < off <= len). s must
 * start at a boundary (a line start does). */
size_t u8_prev(const char *s, size_t len, size_t off);

/* Snaps off down to the cluster boundary at or before it. */
size_t u8_floor(const char *s, size_t len, size_t off);

/* The column after a cluster that starts at column col. */
long u8_next_col(const struct u8_cluster *c, long col, int tabw);

/* Display column of offset off in s (off a boundary), tabs every tabw. */
long u8_col_of(const char *s, size_t len, size_t off, int tabw);

/* Offset of the cluster that covers column col (the line's end when col
 * is past it). A wide cluster covers both of its cells. */
size_t u8_off_of_col(const char *s, size_t len, long col, int tabw);

/* The escape text shown for a U8_INVALID, U8_CONTROL cluster into buf
 * (U8_ESCAPE_MAX bytes); returns its length, which equals c->width. */
int u8_escape(const struct u8_cluster *c, char *buf);

/* True for codepoints that make up words (letters, digits, marks, '_')
 * for word-wise moves. */
bool u8_is_word(uint32_t cp);

#endif
