/* SPDX-License-Identifier: MIT */
/*
 * test_utf8text.c - grapheme clusters, widths and escapes.
 */
#include "testlib.h"

#include <string.h>

#include "text/utf8text.h"

#include "banned.h"

/* Splits s into clusters; returns how many, lengths into lens. */
static int clusters(const char *s, size_t *lens, int max)
{
	size_t len = strlen(s), p = 0;
	int n = 0;
	while (p < len && n < max) {
		size_t q = u8_next(s, len, p);
		assert_true(q > p);
		assert_int_equal(u8_prev(s, len, q), p);   /* stepping back agrees */
		lens[n++] = q - p;
		p = q;
	}
	return n;
}

static void test_combining_marks(void **state)
{
	(void)state;
	size_t l[8];
	/* e + U+0301, then a + U+0308 + U+0323 */
	const char *s = "e\xcc\x81" "a\xcc\x88\xcc\xa3" "x";
	assert_int_equal(clusters(s, l, 8), 3);
	assert_int_equal(l[0], 3);
	assert_int_equal(l[1], 5);
	struct u8_cluster c;
	u8_cluster_at(s, strlen(s), 0, &c);
	assert_int_equal(c.kind, U8_TEXT);
	assert_int_equal(c.width, 1);
	assert_int_equal(u8_col_of(s, strlen(s), strlen(s), 4), 3);
}

static void test_zwj_flags_cjk(void **state)
{
	(void)state;
	size_t l[8];
	/* woman ZWJ girl, flag of Japan (two regional indicators), CJK "中" */
	const char *s = "\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7"
			"\xf0\x9f\x87\xaf\xf0\x9f\x87\xb5" "\xe4\xb8\xad";
	assert_int_equal(clusters(s, l, 8), 3);
	assert_int_equal(l[0], 11);
	assert_int_equal(l[1], 8);
	assert_int_equal(l[2], 3);
	struct u8_cluster c;
	u8_cluster_at(s, strlen(s), 19, &c);
	assert_int_equal(c.width, 2);                    /* CJK = 2 cells */
	u8_cluster_at(s, strlen(s), 11, &c);
	assert_int_equal(c.width, 2);                    /* a flag: 2 cells */
	u8_cluster_at(s, strlen(s), 0, &c);
	assert_int_equal(c.width, 4);                    /* drawn as two emoji */
	/* Column 5 is inside the flag; it maps back to the flag's start. */
	assert_int_equal(u8_off_of_col(s, strlen(s), 5, 4), 11);
	assert_int_equal(u8_off_of_col(s, strlen(s), 99, 4), strlen(s));
}

static void test_invalid_bytes(void **state)
{
	(void)state;
	size_t l[16];
	/* stray continuation, overlong '/', surrogate, truncated 3-byte, 0xff */
	const char *s = "a\x80" "\xc0\xaf" "\xed\xa0\x80" "\xe2\x82" "\xff" "b";
	int n = clusters(s, l, 16);
	assert_int_equal(n, 11);                          /* every bad byte alone */
	for (int i = 0; i < n; i++)
		assert_int_equal(l[i], 1);
	struct u8_cluster c;
	char esc[U8_ESCAPE_MAX];
	u8_cluster_at(s, strlen(s), 1, &c);
	assert_int_equal(c.kind, U8_INVALID);
	assert_int_equal(c.width, 4);
	assert_int_equal(u8_escape(&c, esc), 4);
	assert_string_equal(esc, "\\x80");
	/* An invalid byte never joins a following combining mark. */
	const char *t = "\xff\xcc\x81";
	assert_int_equal(u8_next(t, 3, 0), 1);
	u8_cluster_at(t, 3, 1, &c);
	assert_int_equal(c.kind, U8_MARK);
}

static void test_controls_and_tabs(void **state)
{
	(void)state;
	struct u8_cluster c;
	char esc[U8_ESCAPE_MAX];
	u8_cluster_at("\x1b[31m", 5, 0, &c);             /* ESC cannot reach the terminal */
	assert_int_equal(c.kind, U8_CONTROL);
	u8_escape(&c, esc);
	assert_string_equal(esc, "^[");
	u8_cluster_at("\xe2\x80\xae", 3, 0, &c);          /* RIGHT-TO-LEFT OVERRIDE */
	assert_int_equal(c.kind, U8_CONTROL);
	assert_int_equal(u8_escape(&c, esc), 6);
	assert_string_equal(esc, "\\u202E");
	assert_int_equal(c.width, 6);
	u8_cluster_at("\r", 1, 0, &c);
	u8_escape(&c, esc);
	assert_string_equal(esc, "^M");
	/* Tabs go to the next multiple of the tab width. */
	assert_int_equal(u8_col_of("a\tb", 3, 2, 4), 4);
	assert_int_equal(u8_col_of("abcd\t", 5, 5, 4), 8);
	assert_int_equal(u8_off_of_col("a\tb", 3, 3, 4), 1);
}

static void test_floor_and_words(void **state)
{
	(void)state;
	const char *s = "xe\xcc\x81y";
	assert_int_equal(u8_floor(s, 5, 2), 1);
	assert_int_equal(u8_floor(s, 5, 3), 1);
	assert_int_equal(u8_floor(s, 5, 4), 4);
	assert_true(u8_is_word('_'));
	assert_true(u8_is_word(0x00e9));
	assert_true(u8_is_word(0x4e2d));
	assert_false(u8_is_word('('));
	uint32_t cp;
	assert_int_equal(u8_decode("\xe4\xb8\xad", 3, &cp), 3);
	assert_int_equal(cp, 0x4e2d);
	assert_int_equal(u8_decode("\xe4\xb8", 2, &cp), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_combining_marks),
		cmocka_unit_test(test_zwj_flags_cjk),
		cmocka_unit_test(test_invalid_bytes),
		cmocka_unit_test(test_controls_and_tabs),
		cmocka_unit_test(test_floor_and_words),
	};
	return cmocka_run_group_tests_name("utf8text", tests, NULL, NULL);
}
