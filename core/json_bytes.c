/* SPDX-License-Identifier: MIT */
/*
 * json_bytes.c - any bytes as a JSON string, reversibly.
 *
 * Program output and file names are bytes; JSON strings are Unicode. The
 * rule (Python's "surrogateescape", PEP 383): every valid UTF-8 character
 * is itself (NUL too, as \u0000), and every byte that is not part of one
 * (always 0x80..0xff) becomes the lone surrogate U+DC00 + byte, written as
 * the escape \udcXX. A reader gets the bytes back exactly:
 *
 *     json.loads(text)["stdout"].encode("utf-8", "surrogateescape")
 *
 * Lone surrogates are valid JSON text (RFC 8259, section 7 and 8.2), but
 * jansson refuses to hold one. So a string that is not valid UTF-8 goes
 * into the jansson tree as a placeholder, a token with a random nonce, and
 * the dumped text gets the real literal spliced in where the token is.
 * Each token must be found exactly once: a program cannot guess the nonce,
 * and if its output held the token anyway, a new nonce is drawn.
 *
 * The registry of placeholders is per thread, so two threads can build
 * results at the same time.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include <utf8proc.h>

#include "result.h"
#include "buf.h"
#include "banned.h"

struct placeholder {
	json_t *str;    /* borrowed: the tree owns it */
	char *bytes;
	size_t len;
};

static _Thread_local struct placeholder *held;
static _Thread_local size_t n_held, cap_held;
static _Thread_local unsigned long long nonce;

/* Length of the valid UTF-8 character at s (NUL included), 0 if none. */
static size_t char_len(const char *s, size_t left)
{
	utf8proc_int32_t cp;
	utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)s,
					      (utf8proc_ssize_t)left, &cp);

	return n > 0 ? (size_t)n : 0;
}

bool sp_utf8_valid(const char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n = char_len(s + i, len - i);
		if (n == 0)
			return false;
		i += n;
	}
	return true;
}

char *sp_json_quote_bytes(const char *s, size_t len, size_t *out_len)
{
	/* worst case: every byte a 6-character escape, plus the quotes */
	size_t used = 0;
	char *out;

	if (len > (SIZE_MAX - 3) / 6)
		return NULL;
	out = malloc(len * 6 + 3);
	if (!out)
		return NULL;
	out[used++] = '"';
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		size_t n = char_len(s + i, len - i);

		if (n == 0) {
			used += (size_t)snprintf(out + used, 7, "\\udc%02x", c);
			i++;
		} else if (c == '"' || c == '\\') {
			out[used++] = '\\';
			out[used++] = (char)c;
			i++;
		} else if (c < 0x20) {
			static const char shorts[] = "btn\0fr"; /* \b \t \n - \f \r */
			if (c >= 8 && c <= 13 && shorts[c - 8]) {
				out[used++] = '\\';
				out[used++] = shorts[c - 8];
			} else {
				used += (size_t)snprintf(out + used, 7, "\\u%04X", c);
			}
			i++;
		} else {
			memcpy(out + used, s + i, n);
			used += n;
			i += n;
		}
	}
	out[used++] = '"';
	out[used] = '\0';
	if (out_len)
		*out_len = used;
	return out;
}

static void new_nonce(void)
{
	unsigned long long v = 0;

	if (getrandom(&v, sizeof v, GRND_NONBLOCK) != (ssize_t)sizeof v)
		v ^= (unsigned long long)time(NULL) * 0x9e3779b97f4a7c15ull ^
		     (unsigned long long)getpid() ^ (unsigned long long)(uintptr_t)&v;
	nonce = v;
}

static void token(char *buf, size_t size, size_t i)
{
	snprintf(buf, size, "sp-bytes:%016llx:%zu", nonce, i);
}

void sp_json_bytes_reset(void)
{
	for (size_t i = 0; i < n_held; i++)
		free(held[i].bytes);
	free(held);
	held = NULL;
	n_held = cap_held = 0;
}

json_t *sp_json_bytes(const char *s, size_t len)
{
	char tok[64];
	json_t *j;

	if (!s) {
		s = "";
		len = 0;
	}
	if (sp_utf8_valid(s, len))
		return json_stringn(s, len);
	if (n_held == 0)
		new_nonce();
	if (n_held == cap_held) {
		struct placeholder *bigger = sp_grow(held, &cap_held, n_held + 1, sizeof *held);
		if (!bigger)
			return NULL;
		held = bigger;
	}
	token(tok, sizeof tok, n_held);
	j = json_string(tok);
	held[n_held].bytes = malloc(len ? len : 1);
	if (!j || !held[n_held].bytes) {
		json_decref(j);
		free(held[n_held].bytes);
		return NULL;
	}
	memcpy(held[n_held].bytes, s, len);
	held[n_held].len = len;
	held[n_held].str = j;
	n_held++;
	return j;
}

/*
 * One try at the dumped text with every token replaced by its literal.
 * NULL when a token is not there exactly once (the caller draws a new
 * nonce) or out of memory (*oom set).
 */
static char *splice(const char *text, bool *oom)
{
	char prefix[64];
	size_t plen, cap, used = 0, found = 0, tlen = strlen(text);
	bool *seen = calloc(n_held, sizeof *seen);
	char *out;
	const char *p = text;

	snprintf(prefix, sizeof prefix, "\"sp-bytes:%016llx:", nonce);
	plen = strlen(prefix);
	cap = tlen + 1;
	for (size_t i = 0; i < n_held; i++)
		cap += held[i].len * 6 + 3;
	out = malloc(cap);
	if (!seen || !out) {
		*oom = true;
		free(seen);
		free(out);
		return NULL;
	}
	for (;;) {
		const char *at = strstr(p, prefix), *q;
		char *end;
		unsigned long long idx;
		char *lit;
		size_t lit_len;

		if (!at)
			break;
		q = at + plen;
		idx = strtoull(q, &end, 10);
		if (end == q || *end != '"' || idx >= n_held || seen[idx])
			goto collided;
		seen[idx] = true;
		found++;
		memcpy(out + used, p, (size_t)(at - p));
		used += (size_t)(at - p);
		lit = sp_json_quote_bytes(held[idx].bytes, held[idx].len, &lit_len);
		if (!lit) {
			*oom = true;
			goto collided;
		}
		memcpy(out + used, lit, lit_len);
		used += lit_len;
		free(lit);
		p = end + 1;
	}
	if (found != n_held)
		goto collided;
	memcpy(out + used, p, strlen(p) + 1);
	free(seen);
	return out;
collided:
	free(seen);
	free(out);
	return NULL;
}

char *sp_json_dump_bytes(json_t *root, size_t flags)
{
	char *out = NULL;

	for (int attempt = 0; attempt < 4; attempt++) {
		char *text = sp_json_dumps(root, flags);
		bool oom = false;

		if (!text)
			break;
		if (n_held == 0) {
			out = text;
			break;
		}
		out = splice(text, &oom);
		free(text);
		if (out || oom)
			break;
		/* the token was in the output itself: draw another */
		new_nonce();
		for (size_t i = 0; i < n_held; i++) {
			char tok[64];
			token(tok, sizeof tok, i);
			json_string_set(held[i].str, tok);
		}
	}
	sp_json_bytes_reset();
	return out;
}

char *sp_base64(const char *s, size_t len)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *u = (const unsigned char *)s;
	char *out = malloc((len + 2) / 3 * 4 + 1), *o = out;
	size_t i = 0;

	if (!out)
		return NULL;
	for (; i + 2 < len; i += 3) {
		*o++ = digits[u[i] >> 2];
		*o++ = digits[(u[i] & 3) << 4 | u[i + 1] >> 4];
		*o++ = digits[(u[i + 1] & 15) << 2 | u[i + 2] >> 6];
		*o++ = digits[u[i + 2] & 63];
	}
	if (i < len) {
		*o++ = digits[u[i] >> 2];
		if (i + 1 < len) {
			*o++ = digits[(u[i] & 3) << 4 | u[i + 1] >> 4];
			*o++ = digits[(u[i + 1] & 15) << 2];
		} else {
			*o++ = digits[(u[i] & 3) << 4];
			*o++ = '=';
		}
		*o++ = '=';
	}
	*o = '\0';
	return out;
}

/*
 * The old escaping (invalid bytes and NUL as the text \xNN), kept for
 * callers not yet moved to sp_json_bytes(): it is not reversible, so
 * nothing in the result should use it.
 */
char *sp_json_escape_bytes(const char *s, size_t len, size_t *out_len)
{
	size_t cap = len + 16, used = 0;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	for (size_t i = 0; i < len;) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
						      (utf8proc_ssize_t)(len - i), &cp);
		/* a valid character is copied; NUL and invalid bytes become \xNN */
		size_t need = n > 0 && cp != 0 ? (size_t)n : 4;
		if (used + need + 1 > cap) {
			char *bigger = sp_grow(out, &cap, used + need + 1, 1);
			if (!bigger) {
				free(out);
				return NULL;
			}
			out = bigger;
		}
		if (n > 0 && cp != 0) {
			memcpy(out + used, s + i, (size_t)n);
			used += (size_t)n;
			i += (size_t)n;
		} else if (n > 0) {
			/* NUL is valid UTF-8 but jansson strings are C strings */
			memcpy(out + used, "\\x00", 4);
			used += 4;
			i += 1;
		} else {
			snprintf(out + used, 5, "\\x%02x", (unsigned char)s[i]);
			used += 4;
			i += 1;
		}
	}
	out[used] = '\0';
	if (out_len)
		*out_len = used;
	return out;
}
