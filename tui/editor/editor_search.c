/* SPDX-License-Identifier: MIT */
/*
 * editor_search.c - finding the search text in the buffer, for the find
 * prompt (editor_prompt.c), replacing (editor_replace.c) and the matches
 * drawn (editor_draw.c).
 *
 * Ignoring case compares code points by utf8proc's simple lower-case
 * mapping (so "Ä" finds "ä"); a match may then be longer or shorter in
 * bytes than the search text, so every match carries its own length.
 * Bytes that are not UTF-8 match only themselves.
 */
#include "editor/editor_impl.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "text/textbuf.h"
#include "text/utf8text.h"

#include "banned.h"

/* The code point at s[0..n) folded to lower case, and its byte count in
 * *k; a byte that starts no valid sequence stands for itself, outside
 * Unicode's range, so it only ever matches the same byte. */
static uint32_t folded_at(const char *s, size_t n, size_t *k)
{
	uint32_t cp;
	*k = u8_decode(s, n, &cp);
	if (*k == 0) {
		*k = 1;
		return 0x110000u + (unsigned char)s[0];
	}
	return (uint32_t)utf8proc_tolower((utf8proc_int32_t)cp);
}

/* The length of a match of needle at hay[0..hlen) ignoring case, or 0. */
static size_t match_folded(const char *needle, size_t nl, const char *hay, size_t hlen)
{
	size_t i = 0, j = 0, ki, kj;
	while (i < nl) {
		if (j >= hlen || folded_at(needle + i, nl - i, &ki) != folded_at(hay + j, hlen - j, &kj))
			return 0;
		i += ki;
		j += kj;
	}
	return j;
}

const char *ed_match(const struct editor *ed, const char *hay, size_t hlen, size_t *mlen)
{
	size_t nl = ed->needle_len;
	*mlen = nl;
	if (!ed->needle || nl == 0)
		return NULL;
	if (!ed->find_icase)
		return nl <= hlen ? memmem(hay, hlen, ed->needle, nl) : NULL;
	size_t k;
	uint32_t first = folded_at(ed->needle, nl, &k);
	for (size_t i = 0; i < hlen; i++) {
		if (((unsigned char)hay[i] & 0xc0) == 0x80)
			continue;                  /* not where a character starts */
		size_t kh;
		if (folded_at(hay + i, hlen - i, &kh) != first)
			continue;
		size_t m = match_folded(ed->needle, nl, hay + i, hlen - i);
		if (m) {
			*mlen = m;
			return hay + i;
		}
	}
	return NULL;
}

void editor_set_search(struct editor *ed, const char *needle, size_t len)
{
	char *n = malloc(len + 1);
	if (!n)
		return;
	memcpy(n, needle, len);
	n[len] = '\0';
	free(ed->needle);
	ed->needle = n;
	ed->needle_len = len;
}

void editor_set_ignore_case(struct editor *ed, bool on)
{
	ed->find_icase = on;
}

long ed_search(struct editor *ed, size_t from, bool backward, bool wrap, size_t *mlen)
{
	size_t len = tb_len(ed->tb), m;
	if (!ed->needle || ed->needle_len == 0)
		return -1;
	const char *all = tb_view(ed->tb, 0, len);
	if (!backward) {
		if (from > len)
			from = len;
		const char *p = ed_match(ed, all + from, len - from, mlen);
		if (!p && wrap)
			p = ed_match(ed, all, len, mlen);
		return p ? (long)(p - all) : -1;
	}
	/* Backward: the last match starting before from, else the last one. */
	long best = -1, last = -1;
	size_t best_len = 0, last_len = 0;
	for (const char *p = all; (p = ed_match(ed, p, len - (size_t)(p - all), &m)) != NULL; p++) {
		if ((size_t)(p - all) < from) {
			best = (long)(p - all);
			best_len = m;
		}
		last = (long)(p - all);
		last_len = m;
	}
	*mlen = best >= 0 ? best_len : last_len;
	return best >= 0 ? best : wrap ? last : -1;
}
