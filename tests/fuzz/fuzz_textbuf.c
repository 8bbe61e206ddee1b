/* SPDX-License-Identifier: MIT */
/* fuzz-sources: tui/text/textbuf.c tui/text/utf8text.c core/buf.c */
/*
 * fuzz_textbuf.c - random edit sequences against the text buffer.
 *
 * The input is a program: each op byte picks insert, delete, undo, redo,
 * a group break or a nested group, and the following bytes give offsets,
 * lengths and the text (random bytes, so invalid UTF-8 too). After every
 * op the buffer's invariants must hold (tb_check), and every line must
 * step cleanly by grapheme cluster both ways. At the end, from the tip
 * of the history, undoing everything must give the initial text back and
 * redoing everything the tip's text again, byte for byte.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text/textbuf.h"
#include "text/utf8text.h"

#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Crashes (so the fuzzer reports it) when cond is false. */
#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

/* Next input byte, 0 past the end. */
static uint8_t next(const uint8_t **p, const uint8_t *end)
{
	return *p < end ? *(*p)++ : 0;
}

/* Steps through every line by cluster, forward and back. */
static void check_lines(struct textbuf *tb)
{
	for (size_t l = 0; l < tb_lines(tb); l++) {
		size_t len;
		const char *s = tb_line_view(tb, l, &len);
		CHECK(!memchr(s, '\n', len));
		size_t p = 0;
		while (p < len) {
			struct u8_cluster c;
			u8_cluster_at(s, len, p, &c);
			CHECK(c.len >= 1 && p + c.len <= len);
			size_t q = u8_next(s, len, p);
			CHECK(q == p + c.len);
			CHECK(u8_prev(s, len, q) == p);
			CHECK(u8_floor(s, len, q - 1) == p || c.len == 1);
			p = q;
		}
		CHECK(u8_col_of(s, len, len, 4) >= 0);
	}
}

/* A copy of the whole text. */
static char *snapshot(const struct textbuf *tb, size_t *n)
{
	*n = tb_len(tb);
	char *s = malloc(*n + 1);
	CHECK(s);
	tb_copy(tb, 0, *n, s);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	struct textbuf *tb = tb_new();
	CHECK(tb);
	/* The first byte says how much of the input seeds the buffer. */
	size_t seed = next(&p, end) % 64;
	if (seed > (size_t)(end - p))
		seed = (size_t)(end - p);
	CHECK(tb_set(tb, (const char *)p, seed) == 0);
	p += seed;
	size_t n0;
	char *initial = snapshot(tb, &n0);
	int depth = 0;
	size_t cur = 0;
	while (p < end) {
		uint8_t op = next(&p, end);
		size_t len = tb_len(tb);
		size_t off = len ? ((size_t)next(&p, end) << 8 | next(&p, end)) % (len + 1) : 0;
		switch (op % 8) {
		case 0: case 1: case 2: {
			size_t n = next(&p, end) % 16;
			if (n > (size_t)(end - p))
				n = (size_t)(end - p);
			CHECK(tb_insert(tb, off, (const char *)p, n) == 0);
			CHECK(tb_len(tb) == len + n);
			p += n;
			break;
		}
		case 3: {
			size_t n = next(&p, end) % 8;
			CHECK(tb_delete(tb, off, n) == 0);
			break;
		}
		case 4:
			cur = 0;
			if (tb_undo(tb, &cur))
				CHECK(cur <= tb_len(tb));
			break;
		case 5:
			cur = 0;
			if (tb_redo(tb, &cur))
				CHECK(cur <= tb_len(tb));
			break;
		case 6: tb_break_group(tb); break;
		case 7:
			if (op & 8 && depth > 0) {
				tb_group_end(tb);
				depth--;
			} else if (depth < 4) {
				tb_group_begin(tb);
				depth++;
			}
			break;
		}
		CHECK(tb_check(tb) == NULL);
	}
	while (depth-- > 0)
		tb_group_end(tb);
	check_lines(tb);
	while (tb_redo(tb, &cur))         /* to the tip of the history */
		CHECK(tb_check(tb) == NULL);
	size_t nf;
	char *final = snapshot(tb, &nf);
	while (tb_undo(tb, &cur))
		CHECK(tb_check(tb) == NULL);
	size_t nu;
	char *undone = snapshot(tb, &nu);
	CHECK(nu == n0 && memcmp(undone, initial, n0) == 0);
	CHECK(!tb_modified(tb));
	while (tb_redo(tb, &cur))
		;
	size_t nr;
	char *redone = snapshot(tb, &nr);
	CHECK(nr == nf && memcmp(redone, final, nf) == 0);
	free(initial);
	free(final);
	free(undone);
	free(redone);
	tb_free(tb);
	return 0;
}
