/* SPDX-License-Identifier: MIT */
/* fuzz-sources: tui/text/vt_output.c tui/text/sanitize.c */
/*
 * fuzz_vt_output.c - program output through the Output pane's terminal
 * rules (tui/text/vt_output.c) in front of the sanitizer.
 *
 * The first input byte picks a split point; the rest is a program's
 * output. Whole, split in two anywhere, or a byte at a time, the same
 * text, looks and '\r'/'\b' steps must come out (an SGR split across
 * chunks is still one), and the text must keep the sanitizer's
 * invariants: valid UTF-8, no control but '\n' and '\t', no C1 control
 * or bidi override - nothing a terminal would obey.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/vt_output.h"
#include "sanitized_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What came out: text bytes, each with its look; '\r' and '\b' as the
 * bytes 1 and 2 with the look 0xff (the sanitizer never emits those). */
struct rec {
	char *text;
	unsigned char *look;
	size_t n, cap;
};

static void put(struct rec *r, const char *s, size_t n, unsigned char look)
{
	if (r->n + n + 1 > r->cap) {
		r->cap = (r->n + n + 1) * 2;
		r->text = realloc(r->text, r->cap);
		r->look = realloc(r->look, r->cap);
		if (!r->text || !r->look)
			abort();
	}
	memcpy(r->text + r->n, s, n);
	memset(r->look + r->n, look, n);
	r->n += n;
	r->text[r->n] = '\0';
}

static void on_text(void *ctx, const char *s, size_t n, unsigned char look)
{
	char *copy = malloc(n + 1);

	if (!copy)
		abort();
	memcpy(copy, s, n);
	copy[n] = '\0';
	check_text(copy, n);
	free(copy);
	if (look == 0xff)
		abort();
	put(ctx, s, n, look);
}

static void on_cr(void *ctx) { put(ctx, "\1", 1, 0xff); }
static void on_bs(void *ctx) { put(ctx, "\2", 1, 0xff); }

/* Feed in chunks of at most step bytes after the first `first`. */
static void run(const char *in, size_t len, size_t first, size_t step, struct rec *r)
{
	struct vt_stream vs;
	struct vt_sink sink = { r, on_text, on_cr, on_bs };
	size_t at = 0;

	memset(r, 0, sizeof *r);
	vt_init(&vs);
	if (first) {
		vt_feed(&vs, in, first, &sink);
		at = first;
	}
	while (at < len) {
		size_t n = len - at < step ? len - at : step;
		vt_feed(&vs, in + at, n, &sink);
		at += n;
	}
	vt_finish(&vs, &sink);
}

static void same(const struct rec *a, const struct rec *b, const char *how)
{
	if (a->n != b->n || (a->n && (memcmp(a->text, b->text, a->n) ||
				    memcmp(a->look, b->look, a->n)))) {
		fprintf(stderr, "%s changed what came out\n", how);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rec whole, two, bytes;
	const char *in;
	size_t len, split;

	if (size < 1)
		return 0;
	in = (const char *)data + 1;
	len = size - 1;
	split = len ? data[0] % (len + 1) : 0;
	run(in, len, 0, len ? len : 1, &whole);
	run(in, len, split, len ? len : 1, &two);
	same(&whole, &two, "splitting the input in two");
	if (len <= 4096) {
		run(in, len, 0, 1, &bytes);
		same(&whole, &bytes, "feeding byte by byte");
		free(bytes.text);
		free(bytes.look);
	}
	free(whole.text);
	free(whole.look);
	free(two.text);
	free(two.look);
	return 0;
}
