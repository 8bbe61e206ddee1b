/* SPDX-License-Identifier: MIT */
/*
 * base64.c - base64 both ways (base64.h); four characters carry three
 * bytes, six bits each.
 */
#include <stdint.h>
#include <stdlib.h>

#include "text/base64.h"
#include "banned.h"

static const char alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *base64_encode(const void *data, size_t n)
{
	const unsigned char *p = data;
	char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		*o++ = alphabet[v >> 18 & 63];
		*o++ = alphabet[v >> 12 & 63];
		*o++ = i + 1 < n ? alphabet[v >> 6 & 63] : '=';
		*o++ = i + 2 < n ? alphabet[v & 63] : '=';
	}
	*o = '\0';
	return out;
}

static int value_of(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

unsigned char *base64_decode(const char *text, size_t len, size_t *n, size_t *bad_at)
{
	unsigned char *out = malloc(len / 4 * 3 + 3), *o = out;
	uint32_t acc = 0;
	unsigned bits = 0, pad = 0, digits = 0;

	if (!out) {
		*bad_at = (size_t)-1;
		return NULL;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		int v;
		if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
			continue;
		if (c == '=' && digits % 4 >= 2 && pad < 2) {
			pad++;
			continue;
		}
		if (pad || (v = value_of(c)) < 0) {
			free(out);
			*bad_at = i;
			return NULL;
		}
		digits++;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			*o++ = (unsigned char)(acc >> bits);
		}
	}
	/* one lone digit in a group carries no whole byte: not base64 */
	if (digits % 4 == 1 || (pad && (digits + pad) % 4 != 0)) {
		free(out);
		*bad_at = len;
		return NULL;
	}
	*n = (size_t)(o - out);
	return out;
}
