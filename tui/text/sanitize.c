/* SPDX-License-Identifier: MIT */
/*
 * sanitize.c - output bytes to visible, inert UTF-8 (see sanitize.h).
 *
 * UTF-8 in brief: 0xxxxxxx is ASCII; 110xxxxx 10xxxxxx, 1110xxxx + 2, and
 * 11110xxx + 3 continuation bytes encode larger code points. A sequence is
 * invalid when a continuation byte is missing or stray, when it is longer
 * than needed (overlong), encodes a surrogate (D800-DFFF), or goes past
 * U+10FFFF. Such bytes are shown, never dropped and never passed on.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/sanitize.h"
#include "banned.h"

/* Longest text one input byte can become: "<U+202E>" is 8 bytes. */
#define MAX_PER_BYTE 8

void sanitize_init(struct sanitizer *s)
{
	memset(s, 0, sizeof *s);
}

size_t sanitize_max_out(size_t len)
{
	return (len + 4) * MAX_PER_BYTE + 1;
}

/*
 * Code points shown by name: the bidi overrides, isolates and marks would
 * reorder what the screen shows; the line and paragraph separators break
 * lines behind the layout's back; the prepended concatenation marks
 * (U+0600 and kin) take a cell by the terminal's count but none by
 * utf8proc's, and can hide the character after them.
 */
static bool shown_as_code(unsigned cp)
{
	return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x200E || cp == 0x200F || cp == 0x061C ||
	       cp == 0x2028 || cp == 0x2029 ||
	       (cp >= 0x0600 && cp <= 0x0605) || cp == 0x06DD || cp == 0x070F ||
	       cp == 0x0890 || cp == 0x0891 || cp == 0x08E2 ||
	       cp == 0x110BD || cp == 0x110CD;
}

bool sanitize_hides(unsigned cp)
{
	return (cp < 0x20 && cp != '\n' && cp != '\t') || (cp >= 0x7F && cp <= 0x9F) ||
	       shown_as_code(cp);
}

/* Append n bytes to out if they fit (they always do given max_out). */
static void put(char *out, size_t cap, size_t *o, const char *b, size_t n)
{
	if (*o + n + 1 > cap)
		return;
	memcpy(out + *o, b, n);
	*o += n;
	out[*o] = '\0';
}

static void put_replacement(char *out, size_t cap, size_t *o)
{
	put(out, cap, o, "\xEF\xBF\xBD", 3);
}

/* Expected length of a sequence from its first byte; 0 if it cannot lead. */
static size_t seq_len(unsigned char c)
{
	if (c < 0x80) return 1;
	if (c >= 0xC2 && c <= 0xDF) return 2;
	if (c >= 0xE0 && c <= 0xEF) return 3;
	if (c >= 0xF0 && c <= 0xF4) return 4;
	return 0;
}

/*
 * Is b[i] a valid continuation at position i of a sequence led by b[0]?
 * The second byte's range depends on the lead: this is what rules out
 * overlongs, surrogates and code points past U+10FFFF.
 */
static int cont_ok(const unsigned char *b, size_t i)
{
	unsigned char c = b[i];
	if (i == 1) {
		switch (b[0]) {
		case 0xE0: return c >= 0xA0 && c <= 0xBF;
		case 0xED: return c >= 0x80 && c <= 0x9F;
		case 0xF0: return c >= 0x90 && c <= 0xBF;
		case 0xF4: return c >= 0x80 && c <= 0x8F;
		default: break;
		}
	}
	return c >= 0x80 && c <= 0xBF;
}

/* Emit one complete, valid sequence, escaping what must not be obeyed. */
static void put_char(const struct sanitizer *s, const unsigned char *b, size_t n,
		     char *out, size_t cap, size_t *o)
{
	char esc[16];
	unsigned cp;

	if (n == 1) {
		unsigned char c = b[0];
		if (((c == '\n' || c == '\t') && !s->one_line) || (c >= 0x20 && c < 0x7F)) {
			put(out, cap, o, (const char *)b, 1);
		} else {
			esc[0] = '^';
			esc[1] = c == 0x7F ? '?' : (char)(c + 0x40);
			put(out, cap, o, esc, 2);
		}
		return;
	}
	if (n == 2)
		cp = (unsigned)(b[0] & 0x1F) << 6 | (b[1] & 0x3F);
	else if (n == 3)
		cp = (unsigned)(b[0] & 0x0F) << 12 | (unsigned)(b[1] & 0x3F) << 6 |
		     (b[2] & 0x3F);
	else
		cp = (unsigned)(b[0] & 0x07) << 18 | (unsigned)(b[1] & 0x3F) << 12 |
		     (unsigned)(b[2] & 0x3F) << 6 | (b[3] & 0x3F);

	if (cp >= 0x80 && cp <= 0x9F) {
		/* C1 controls: U+009B is CSI to some terminals. */
		snprintf(esc, sizeof esc, "\\x%02x", cp);
		put(out, cap, o, esc, 4);
	} else if (shown_as_code(cp)) {
		snprintf(esc, sizeof esc, "<U+%04X>", cp);
		put(out, cap, o, esc, strlen(esc));
	} else {
		put(out, cap, o, (const char *)b, n);
	}
}

/* An invalid lone byte: C1-range bytes are named, others become U+FFFD. */
static void put_bad_byte(unsigned char c, char *out, size_t cap, size_t *o)
{
	char esc[8];
	if (c >= 0x80 && c <= 0x9F) {
		snprintf(esc, sizeof esc, "\\x%02x", c);
		put(out, cap, o, esc, 4);
	} else {
		put_replacement(out, cap, o);
	}
}

size_t sanitize_feed(struct sanitizer *s, const char *in, size_t len,
		     char *out, size_t cap)
{
	size_t o = 0;
	const unsigned char *p = (const unsigned char *)in;

	if (cap)
		out[0] = '\0';
	for (size_t i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (s->npending) {
			s->pending[s->npending] = c;
			if (cont_ok(s->pending, s->npending)) {
				s->npending++;
				if (s->npending == seq_len(s->pending[0])) {
					put_char(s, s->pending, s->npending, out, cap, &o);
					s->npending = 0;
				}
				continue;
			}
			/* Broken sequence: its lead byte is bad; re-read c. */
			put_bad_byte(s->pending[0], out, cap, &o);
			for (size_t k = 1; k < s->npending; k++)
				put_bad_byte(s->pending[k], out, cap, &o);
			s->npending = 0;
		}
		size_t n = seq_len(c);
		if (n == 1) {
			put_char(s, &c, 1, out, cap, &o);
		} else if (n == 0) {
			put_bad_byte(c, out, cap, &o);
		} else {
			s->pending[0] = c;
			s->npending = 1;
		}
	}
	return o;
}

size_t sanitize_finish(struct sanitizer *s, char *out, size_t cap)
{
	size_t o = 0;
	if (cap)
		out[0] = '\0';
	for (size_t k = 0; k < s->npending; k++)
		put_bad_byte(s->pending[k], out, cap, &o);
	s->npending = 0;
	return o;
}

char *sanitize_dup(const char *text, bool one_line)
{
	struct sanitizer san;
	size_t len = text ? strlen(text) : 0, cap = sanitize_max_out(len), n;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	sanitize_init(&san);
	san.one_line = one_line;
	n = sanitize_feed(&san, text ? text : "", len, out, cap);
	sanitize_finish(&san, out + n, cap - n);
	return out;
}
