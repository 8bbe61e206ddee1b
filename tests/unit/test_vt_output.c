/* SPDX-License-Identifier: MIT */
/*
 * test_vt_output.c - tui/text/vt_output.c: '\r', '\b' and SGR are done, split
 * across chunks too; every other escape comes out as the sanitizer's
 * visible text, byte for byte as written.
 */
#include "testlib.h"

#include <stdio.h>
#include <string.h>

#include "text/vt_output.h"

struct rec {
	char text[4096];
	unsigned char looks[4096];
	size_t n;
};

static void on_text(void *ctx, const char *s, size_t n, unsigned char look)
{
	struct rec *r = ctx;
	for (size_t i = 0; i < n && r->n + 1 < sizeof r->text; i++) {
		r->looks[r->n] = look;
		r->text[r->n++] = s[i];
	}
	r->text[r->n] = '\0';
}

static void on_cr(void *ctx) { on_text(ctx, "<CR>", 4, 0); }
static void on_bs(void *ctx) { on_text(ctx, "<BS>", 4, 0); }

/* Feed text in chunks of `step` bytes. */
static void feed(struct rec *r, const char *in, size_t step)
{
	struct vt_stream vs;
	struct vt_sink sink = { r, on_text, on_cr, on_bs };
	size_t len = strlen(in);

	memset(r, 0, sizeof *r);
	vt_init(&vs);
	for (size_t i = 0; i < len; i += step)
		vt_feed(&vs, in + i, len - i < step ? len - i : step, &sink);
	vt_finish(&vs, &sink);
}

static void test_sgr_sets_the_look_and_is_eaten_in_any_split(void **state)
{
	(void)state;
	for (size_t step = 1; step < 12; step++) {
		struct rec r;
		feed(&r, "a\x1b[31mb\x1b[1;92mc\x1b[0md\x1b[38;5;4me\x1b[39;22mf", step);
		assert_string_equal(r.text, "abcdef");
		assert_int_equal(r.looks[0], 0);
		assert_int_equal(r.looks[1], 1 + 1);
		assert_int_equal(r.looks[2], VT_BOLD | (1 + 10));
		assert_int_equal(r.looks[3], 0);
		assert_int_equal(r.looks[4], 1 + 4);
		assert_int_equal(r.looks[5], 0);
	}
}

static void test_cr_and_bs_reach_the_sink(void **state)
{
	struct rec r;

	(void)state;
	feed(&r, " 50%\r100%\n\bx", 3);
	assert_string_equal(r.text, " 50%<CR>100%\n<BS>x");
}

static void test_other_escapes_show_as_written(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "\x1b[2J", "^[[2J" },
		{ "\x1b]0;title\x07", "^[]0;title^G" },
		{ "\x1b[0001;31x", "^[[0001;31x" },
		{ "\x1b[?1049h", "^[[?1049h" },
		{ "\x1b" "c", "^[c" },
		{ "\x1b[31", "^[[31" },            /* cut off at the end */
		{ "\x1b[" "1111111111111111111111111111111111m", "^[[1111111111111111111111111111111111m" },
		{ "\x1b\x1b[31mz", "^[z" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		for (size_t step = 1; step < 6; step++) {
			struct rec r;
			feed(&r, cases[i].in, step);
			if (strcmp(r.text, cases[i].out) != 0)
				fail_msg("case %zu step %zu: got '%s', want '%s'", i, step,
					 r.text, cases[i].out);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sgr_sets_the_look_and_is_eaten_in_any_split),
		cmocka_unit_test(test_cr_and_bs_reach_the_sink),
		cmocka_unit_test(test_other_escapes_show_as_written),
	};

	return cmocka_run_group_tests_name("unit/vt_output", tests, NULL, NULL);
}
