/* SPDX-License-Identifier: MIT */
/*
 * sanitized_text.h - the sanitizer's invariants, for the fuzz targets
 * whose output goes through it: valid UTF-8, no NUL, no control but '\n'
 * and '\t', no C1 control, bidi mark or other character a terminal
 * would obey or that hides its neighbour. check_text() aborts, naming
 * what it found, when any is broken.
 */
#ifndef SANDPIT_FUZZ_SANITIZED_TEXT_H
#define SANDPIT_FUZZ_SANITIZED_TEXT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decode one UTF-8 sequence strictly; its length, or 0 when invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xE0) == 0xC0) { len = 2; c = s[0] & 0x1F; min = 0x80; }
	else if ((s[0] & 0xF0) == 0xE0) { len = 3; c = s[0] & 0x0F; min = 0x800; }
	else if ((s[0] & 0xF8) == 0xF0) { len = 4; c = s[0] & 0x07; min = 0x10000; }
	else return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return len;
}

static void check_text(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;

	if (strlen(text) != len) {
		fprintf(stderr, "a NUL byte inside the sanitized text\n");
		abort();
	}
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = utf8_seq(s + i, len - i, &cp);
		if (n == 0) {
			fprintf(stderr, "invalid UTF-8 at %zu\n", i);
			abort();
		}
		if ((cp < 0x20 && cp != '\n' && cp != '\t') || cp == 0x7F ||
		    (cp >= 0x80 && cp <= 0x9F) ||
		    (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
		    cp == 0x200E || cp == 0x200F || cp == 0x061C || cp == 0x2028 ||
		    cp == 0x2029 || (cp >= 0x0600 && cp <= 0x0605) || cp == 0x110BD) {
			fprintf(stderr, "U+%04X left in the text at %zu\n", (unsigned)cp, i);
			abort();
		}
		i += n;
	}
}

#endif
