/* SPDX-License-Identifier: MIT */
/*
 * test_sanitize.c - program output becomes inert, visible, valid UTF-8.
 */
#include "testlib.h"

#include <stdlib.h>

#include <string.h>

#include "text/sanitize.h"

/* Sanitize in (in chunks of `step` bytes) and compare with want. */
static void check(const char *in, size_t len, size_t step, const char *want)
{
	struct sanitizer s;
	char out[4096], buf[1024];
	size_t o = 0;

	sanitize_init(&s);
	for (size_t i = 0; i < len; i += step) {
		size_t n = len - i < step ? len - i : step;
		size_t m = sanitize_feed(&s, in + i, n, buf, sizeof buf);
		assert_true(o + m < sizeof out);
		memcpy(out + o, buf, m);
		o += m;
	}
	o += sanitize_finish(&s, out + o, sizeof out - o);
	out[o] = '\0';
	assert_string_equal(out, want);
}

static void test_plain_text_passes(void **state)
{
	(void)state;
	check("hello\tworld\n", 12, 100, "hello\tworld\n");
	check("h\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80", 12, 100,
	      "h\xc3\xa9 \xe6\x97\xa5 \xf0\x9f\x98\x80");
}

static void test_controls_become_carets(void **state)
{
	(void)state;
	check("\x1b]0;pwned\x07", 10, 100, "^[]0;pwned^G");
	check("\x1b[2J\r\x7f\x00", 7, 100, "^[[2J^M^?^@");
}

static void test_c1_controls_named(void **state)
{
	(void)state;
	check("a\x9b" "2J", 4, 100, "a\\x9b2J");          /* raw byte */
	check("a\xc2\x9b" "2J", 5, 100, "a\\x9b2J");      /* as U+009B */
}

static void test_invalid_utf8_replaced(void **state)
{
	(void)state;
	check("\xff", 1, 100, "\xef\xbf\xbd");
	check("\xc0\xaf", 2, 100, "\xef\xbf\xbd\xef\xbf\xbd");   /* overlong */
	check("\xed\xa0\x80", 3, 100, "\xef\xbf\xbd\xef\xbf\xbd\\x80"); /* surrogate */
	check("\xe6\x97", 2, 100, "\xef\xbf\xbd\\x97");         /* cut at end */
	check("\xe6" "A", 2, 100, "\xef\xbf\xbd" "A");
}

static void test_split_across_chunks(void **state)
{
	(void)state;
	check("\xf0\x9f\x98\x80!", 5, 1, "\xf0\x9f\x98\x80!");
	check("x\xe6\x97\xa5y", 5, 2, "x\xe6\x97\xa5y");
}

static void test_bidi_overrides_shown(void **state)
{
	(void)state;
	check("a\xe2\x80\xae" "b", 5, 100, "a<U+202E>b");
	/* marks and separators that move or hide text, by name too */
	check("a\xe2\x80\x8f" "b\xe2\x80\xa8" "c", 9, 100, "a<U+200F>b<U+2028>c");
	check("t\xd8\x80X", 4, 100, "t<U+0600>X");
	check("\xf0\x91\x82\xbd" "X", 5, 100, "<U+110BD>X");
}

/* one_line: a name inside sandpit's own text keeps to one line */
static void test_one_line_shows_breaks(void **state)
{
	char *a = sanitize_dup("a\nb\tc\x1b]0;t\x07", true);
	char *b = sanitize_dup("a\nb\tc", false);
	char *c = sanitize_dup(NULL, true);

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_string_equal(a, "a^Jb^Ic^[]0;t^G");
	assert_string_equal(b, "a\nb\tc");
	assert_string_equal(c, "");
	free(a);
	free(b);
	free(c);
}

static void test_output_is_always_safe(void **state)
{
	unsigned char in[256];
	char out[256 * 8 + 64];
	struct sanitizer s;
	(void)state;

	for (int i = 0; i < 256; i++)
		in[i] = (unsigned char)i;
	sanitize_init(&s);
	size_t n = sanitize_feed(&s, (const char *)in, sizeof in, out, sizeof out);
	n += sanitize_finish(&s, out + n, sizeof out - n);
	assert_true(n < sizeof out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)out[i];
		assert_false((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_text_passes),
		cmocka_unit_test(test_controls_become_carets),
		cmocka_unit_test(test_c1_controls_named),
		cmocka_unit_test(test_invalid_utf8_replaced),
		cmocka_unit_test(test_split_across_chunks),
		cmocka_unit_test(test_bidi_overrides_shown),
		cmocka_unit_test(test_one_line_shows_breaks),
		cmocka_unit_test(test_output_is_always_safe),
	};
	return cmocka_run_group_tests_name("sanitize", tests, NULL, NULL);
}
