/* SPDX-License-Identifier: MIT */
/* fuzz-sources: tui/text/sanitize.c */
/*
 * fuzz_sanitize.c - program output through the playground's sanitizer.
 *
 * The first input byte picks a split point; the rest is the output of a
 * program. Fed in one chunk, or in two chunks split anywhere, or one byte
 * at a time, the sanitizer must give the same text (a character split
 * across chunks is still one character), within sanitize_max_out(), and
 * that text must keep the header's invariants: valid UTF-8, no control
 * byte but '\n' and '\t', no DEL, no C1 control and no bidi override
 * left as a code point - nothing a terminal would obey.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/sanitize.h"
#include "sanitized_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Sanitize in as the given chunks (sizes in parts, 0-terminated). */
static char *run(const char *in, size_t len, const size_t *parts, size_t *out_len)
{
	size_t cap = sanitize_max_out(len) + 1, o = 0, at = 0;
	char *out = malloc(cap);
	struct sanitizer s;

	if (!out)
		abort();
	out[0] = '\0';
	sanitize_init(&s);
	for (size_t k = 0; at < len; k++) {
		size_t n = parts[k] ? parts[k] : len - at;
		if (n > len - at)
			n = len - at;
		size_t before = o;
		o += sanitize_feed(&s, in + at, n, out + o, cap - o);
		/* each feed's own output stays within its bound */
		if (o - before > sanitize_max_out(n) || o >= cap)
			abort();
		at += n;
	}
	o += sanitize_finish(&s, out + o, cap - o);
	if (o >= cap)
		abort();
	out[o] = '\0';
	*out_len = o;
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in;
	size_t len, split, l1, l2, l3;
	size_t whole[] = { 0 }, two[3], *bytes;
	char *a, *b, *c;

	if (size < 1)
		return 0;
	in = (const char *)data + 1;
	len = size - 1;
	split = len ? data[0] % (len + 1) : 0;
	a = run(in, len, whole, &l1);
	check_text(a, l1);
	two[0] = split ? split : len;
	two[1] = 0;
	two[2] = 0;
	b = run(in, len, two, &l2);
	if (l1 != l2 || memcmp(a, b, l1) != 0) {
		fprintf(stderr, "splitting the input at %zu changed the text\n", split);
		abort();
	}
	if (len <= 4096) {
		bytes = malloc((len + 1) * sizeof *bytes);
		if (!bytes)
			abort();
		for (size_t i = 0; i < len; i++)
			bytes[i] = 1;
		bytes[len] = 0;
		c = run(in, len, bytes, &l3);
		if (l1 != l3 || memcmp(a, c, l1) != 0) {
			fprintf(stderr, "feeding byte by byte changed the text\n");
			abort();
		}
		free(c);
		free(bytes);
	}
	free(a);
	free(b);
	return 0;
}
