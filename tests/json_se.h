/* SPDX-License-Identifier: MIT */
/*
 * json_se.h - read sandpit's JSON result in C tests, lone surrogates and all.
 *
 * The result keeps program bytes byte for byte: an invalid byte XX is the
 * lone surrogate escape \udcXX (Python's surrogateescape). jansson refuses
 * lone surrogates, so se_loadb() first rewrites each lone \udcXX escape
 * into the pair \udbff\udcXX, which jansson reads as the private-use
 * character U+10FC00 + XX (UTF-8 f4 8f b2/b3 ..); se_bytes() maps those
 * back to the raw byte. (A program that prints U+10FC80..U+10FCFF itself
 * reads back as that byte here: tests that must tell them apart compare
 * the stream's base64 or decode with Python.)
 */
#ifndef SP_JSON_SE_H
#define SP_JSON_SE_H

#include <stdlib.h>
#include <string.h>
#include <jansson.h>

static inline int se_hex4(const char *p, unsigned *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
			   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
			   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
		if (d > 15)
			return -1;
		*v = *v << 4 | d;
	}
	return 0;
}

/* json_loadb of text, with lone low surrogates read as U+10FC00 + byte. */
static inline json_t *se_loadb(const char *text, size_t len, json_error_t *e)
{
	char *fixed = malloc(len * 2 + 1);
	size_t o = 0;
	int in_string = 0;
	json_t *j;

	if (!fixed)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		unsigned v;
		if (!in_string) {
			if (text[i] == '"')
				in_string = 1;
			fixed[o++] = text[i];
		} else if (text[i] == '"') {
			in_string = 0;
			fixed[o++] = text[i];
		} else if (text[i] != '\\' || i + 1 >= len) {
			fixed[o++] = text[i];
		} else if (text[i + 1] == 'u' && i + 5 < len && se_hex4(text + i + 2, &v) == 0) {
			if (v >= 0xd800 && v <= 0xdbff && i + 11 < len && text[i + 6] == '\\' &&
			    text[i + 7] == 'u') {
				/* a pair stays a pair */
				memcpy(fixed + o, text + i, 12);
				o += 12;
				i += 11;
				continue;
			}
			if (v >= 0xdc00 && v <= 0xdfff) {
				memcpy(fixed + o, "\\udbff", 6);
				o += 6;
			}
			memcpy(fixed + o, text + i, 6);
			o += 6;
			i += 5;
		} else {
			fixed[o++] = text[i];
			fixed[o++] = text[++i];
		}
	}
	j = json_loadb(fixed, o, JSON_ALLOW_NUL, e);
	free(fixed);
	return j;
}

static inline json_t *se_loads(const char *text, json_error_t *e)
{
	return se_loadb(text, strlen(text), e);
}

/* The bytes a string of se_loadb's holds (malloc'd, NUL-terminated too). */
static inline char *se_bytes(const char *s, size_t len, size_t *out_len)
{
	char *out = malloc(len + 1);
	size_t o = 0;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		const unsigned char *u = (const unsigned char *)s + i;
		if (i + 3 < len && u[0] == 0xf4 && u[1] == 0x8f && (u[2] == 0xb2 || u[2] == 0xb3)) {
			out[o++] = (char)(0x80 | (u[2] & 1) << 6 | (u[3] & 0x3f));
			i += 3;
		} else {
			out[o++] = s[i];
		}
	}
	out[o] = '\0';
	*out_len = o;
	return out;
}

#endif
