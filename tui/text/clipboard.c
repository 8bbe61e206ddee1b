/* SPDX-License-Identifier: MIT */
/*
 * clipboard.c - OSC 52: the text, base64-encoded (RFC 4648, with '='
 * padding), inside ESC ] 52 ; c ; ... BEL. "c" names the clipboard
 * selection (as opposed to "p", the primary one).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "text/clipboard.h"
#include "banned.h"

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t clipboard_osc52(const char *text, size_t len, char *out, size_t outlen)
{
	static const char head[] = "\033]52;c;";
	size_t need = sizeof head - 1 + (len + 2) / 3 * 4 + 1, o = 0;
	const unsigned char *s = (const unsigned char *)text;

	if (len > CLIPBOARD_OSC52_MAX || need + 1 > outlen)
		return 0;
	for (size_t i = 0; i < sizeof head - 1; i++)
		out[o++] = head[i];
	for (size_t i = 0; i < len; i += 3) {
		unsigned v = (unsigned)s[i] << 16;
		if (i + 1 < len)
			v |= (unsigned)s[i + 1] << 8;
		if (i + 2 < len)
			v |= s[i + 2];
		out[o++] = b64[v >> 18 & 63];
		out[o++] = b64[v >> 12 & 63];
		out[o++] = i + 1 < len ? b64[v >> 6 & 63] : '=';
		out[o++] = i + 2 < len ? b64[v & 63] : '=';
	}
	out[o++] = '\a';
	out[o] = '\0';
	return o;
}

bool clipboard_copy(const char *text, size_t len)
{
	size_t cap = 16 + (len + 2) / 3 * 4;
	char *seq;
	size_t n;

	if (len > CLIPBOARD_OSC52_MAX || !(seq = malloc(cap)))
		return false;
	n = clipboard_osc52(text, len, seq, cap);
	/* between frames: ncurses has flushed, so the sequence goes whole */
	fflush(stdout);
	for (size_t off = 0; n && off < n;) {
		ssize_t w = write(STDOUT_FILENO, seq + off, n - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	free(seq);
	return n > 0;
}
