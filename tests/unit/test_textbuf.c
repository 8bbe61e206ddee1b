/* SPDX-License-Identifier: MIT */
/*
 * test_textbuf.c - the gap buffer, its line index and grouped undo.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

#include "text/textbuf.h"
#include "text/utf8text.h"

#include "banned.h"

/* The whole text as a NUL-terminated malloc'd string. */
static char *all(const struct textbuf *tb)
{
	size_t n = tb_len(tb);
	char *s = malloc(n + 1);
	assert_non_null(s);
	tb_copy(tb, 0, n, s);
	s[n] = '\0';
	return s;
}

static void assert_text(const struct textbuf *tb, const char *want)
{
	char *s = all(tb);
	assert_string_equal(s, want);
	free(s);
	assert_null(tb_check(tb));
}

static void test_insert_delete_lines(void **state)
{
	(void)state;
	struct textbuf *tb = tb_new();
	assert_int_equal(tb_lines(tb), 1);
	assert_int_equal(tb_insert(tb, 0, "hello\nworld", 11), 0);
	assert_text(tb, "hello\nworld");
	assert_int_equal(tb_lines(tb), 2);
	assert_int_equal(tb_line_start(tb, 1), 6);
	assert_int_equal(tb_line_end(tb, 0), 5);
	assert_int_equal(tb_line_end(tb, 1), 11);
	assert_int_equal(tb_line_of(tb, 5), 0);
	assert_int_equal(tb_line_of(tb, 6), 1);
	assert_int_equal(tb_line_of(tb, 11), 1);
	tb_insert(tb, 5, ",\nbig", 5);
	assert_text(tb, "hello,\nbig\nworld");
	assert_int_equal(tb_lines(tb), 3);
	tb_delete(tb, 5, 6);          /* ",\nbig\n" */
	assert_text(tb, "helloworld");
	assert_int_equal(tb_lines(tb), 1);
	tb_delete(tb, 8, 100);        /* clamped */
	assert_text(tb, "hellowor");
	tb_free(tb);
}

static void test_view_across_gap(void **state)
{
	(void)state;
	struct textbuf *tb = tb_new();
	tb_insert(tb, 0, "abcdef\nghij", 11);
	tb_insert(tb, 3, "X", 1);     /* gap now after X, mid-line */
	size_t len;
	const char *s = tb_line_view(tb, 0, &len);
	assert_int_equal(len, 7);
	assert_memory_equal(s, "abcXdef", 7);
	s = tb_line_view(tb, 1, &len);
	assert_memory_equal(s, "ghij", 4);
	assert_text(tb, "abcXdef\nghij");
	tb_free(tb);
}

static void test_undo_typing_run(void **state)
{
	(void)state;
	struct textbuf *tb = tb_new();
	const char *word = "print";
	for (size_t i = 0; i < 5; i++)
		tb_insert(tb, i, word + i, 1);
	tb_insert(tb, 5, "\n", 1);     /* a newline starts a new group */
	tb_insert(tb, 6, "x", 1);
	assert_text(tb, "print\nx");
	size_t cur = 99;
	assert_true(tb_undo(tb, &cur));
	assert_text(tb, "print");
	assert_int_equal(cur, 5);
	assert_true(tb_undo(tb, &cur));
	assert_text(tb, "");
	assert_int_equal(cur, 0);
	assert_false(tb_undo(tb, &cur));
	assert_true(tb_redo(tb, &cur));
	assert_text(tb, "print");
	assert_int_equal(cur, 5);
	assert_true(tb_redo(tb, &cur));
	assert_text(tb, "print\nx");
	assert_false(tb_redo(tb, &cur));
	tb_free(tb);
}

static void test_undo_backspace_run_and_break(void **state)
{
	(void)state;
	struct textbuf *tb = tb_new();
	tb_insert(tb, 0, "abcdef", 6);
	tb_break_group(tb);
	tb_delete(tb, 5, 1);          /* backspace x3 */
	tb_delete(tb, 4, 1);
	tb_delete(tb, 3, 1);
	tb_break_group(tb);           /* a cursor move */
	tb_delete(tb, 0, 1);          /* forward delete x2 */
	tb_delete(tb, 0, 1);
	assert_text(tb, "c");
	size_t cur;
	tb_undo(tb, &cur);
	assert_text(tb, "abc");
	assert_int_equal(cur, 2);
	tb_undo(tb, &cur);
	assert_text(tb, "abcdef");
	assert_int_equal(cur, 6);
	/* A new edit drops the redo tail. */
	tb_insert(tb, 0, "Z", 1);
	assert_false(tb_redo(tb, &cur));
	assert_text(tb, "Zabcdef");
	tb_free(tb);
}

static void test_group_nesting(void **state)
{
	(void)state;
	struct textbuf *tb = tb_new();
	tb_insert(tb, 0, "one two", 7);
	tb_break_group(tb);
	tb_group_begin(tb);
	tb_delete(tb, 0, 3);
	tb_group_begin(tb);
	tb_insert(tb, 0, "1", 1);
	tb_group_end(tb);
	tb_group_end(tb);
	assert_text(tb, "1 two");
	size_t cur;
	tb_undo(tb, &cur);
	assert_text(tb, "one two");
	tb_free(tb);
}

/* Undo and redo of a whole cluster (e + combining acute, a ZWJ family). */
static void test_undo_graphemes(void **state)
{
	(void)state;
	struct textbuf *tb = tb_new();
	const char *t = "e\xcc\x81|\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7|";
	tb_insert(tb, 0, t, strlen(t));
	tb_break_group(tb);
	size_t len;
	const char *s = tb_line_view(tb, 0, &len);
	size_t c1 = u8_next(s, len, 0);             /* "é" is 3 bytes */
	assert_int_equal(c1, 3);
	size_t c2 = u8_next(s, len, c1 + 1);        /* the family is one cluster */
	assert_int_equal(c2 - (c1 + 1), 11);
	tb_delete(tb, c1 + 1, c2 - (c1 + 1));
	tb_delete(tb, 0, c1);
	assert_text(tb, "||");
	size_t cur;
	tb_undo(tb, &cur);            /* two deletes apart: two steps */
	assert_text(tb, "e\xcc\x81||");
	assert_int_equal(cur, 3);
	tb_undo(tb, &cur);
	assert_text(tb, t);
	tb_redo(tb, &cur);
	tb_redo(tb, &cur);
	assert_text(tb, "||");
	tb_undo(tb, &cur);
	tb_undo(tb, &cur);
	assert_text(tb, t);
	tb_free(tb);
}

static void test_modified(void **state)
{
	(void)state;
	struct textbuf *tb = tb_new();
	tb_set(tb, "x", 1);
	assert_false(tb_modified(tb));
	tb_insert(tb, 1, "y", 1);
	assert_true(tb_modified(tb));
	tb_mark_saved(tb);
	assert_false(tb_modified(tb));
	tb_insert(tb, 2, "z", 1);     /* must not merge into the saved group */
	assert_true(tb_modified(tb));
	size_t cur;
	tb_undo(tb, &cur);
	assert_false(tb_modified(tb));
	tb_undo(tb, &cur);
	assert_true(tb_modified(tb));
	tb_redo(tb, &cur);
	assert_false(tb_modified(tb));
	tb_free(tb);
}

static void test_set_bytes_exact(void **state)
{
	(void)state;
	const char raw[] = "a\xff\xfe\0b\r\nc\xc3\n\xe2\x82";
	struct textbuf *tb = tb_new();
	tb_set(tb, raw, sizeof raw - 1);
	assert_int_equal(tb_len(tb), sizeof raw - 1);
	assert_int_equal(tb_lines(tb), 3);
	char out[sizeof raw];
	assert_int_equal(tb_copy(tb, 0, sizeof raw, out), sizeof raw - 1);
	assert_memory_equal(out, raw, sizeof raw - 1);
	assert_null(tb_check(tb));
	tb_free(tb);
}

/* Random edits against a plain array; undo all, redo all. */
static void test_random_against_model(void **state)
{
	(void)state;
	srand(7);
	struct textbuf *tb = tb_new();
	char model[4096];
	size_t mlen = 0;
	static const char alphabet[] = "ab\n\xc3\xa9 \t";
	for (int i = 0; i < 3000; i++) {
		if (rand() % 3 || mlen == 0) {
			char ins[8];
			size_t n = (size_t)(rand() % 5) + 1, at = mlen ? (size_t)rand() % (mlen + 1) : 0;
			if (mlen + n >= sizeof model)
				continue;
			for (size_t k = 0; k < n; k++)
				ins[k] = alphabet[rand() % (int)(sizeof alphabet - 1)];
			assert_int_equal(tb_insert(tb, at, ins, n), 0);
			memmove(model + at + n, model + at, mlen - at);
			memcpy(model + at, ins, n);
			mlen += n;
		} else {
			size_t at = (size_t)rand() % mlen, n = (size_t)(rand() % 4) + 1;
			if (n > mlen - at)
				n = mlen - at;
			tb_delete(tb, at, n);
			memmove(model + at, model + at + n, mlen - at - n);
			mlen -= n;
		}
		if (rand() % 4 == 0)
			tb_break_group(tb);
	}
	char *s = all(tb);
	assert_int_equal(strlen(s), mlen);
	assert_memory_equal(s, model, mlen);
	free(s);
	assert_null(tb_check(tb));
	size_t cur;
	while (tb_undo(tb, &cur))
		assert_null(tb_check(tb));
	assert_int_equal(tb_len(tb), 0);
	while (tb_redo(tb, &cur))
		;
	s = all(tb);
	assert_memory_equal(s, model, mlen);
	free(s);
	tb_free(tb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_insert_delete_lines),
		cmocka_unit_test(test_view_across_gap),
		cmocka_unit_test(test_undo_typing_run),
		cmocka_unit_test(test_undo_backspace_run_and_break),
		cmocka_unit_test(test_group_nesting),
		cmocka_unit_test(test_undo_graphemes),
		cmocka_unit_test(test_modified),
		cmocka_unit_test(test_set_bytes_exact),
		cmocka_unit_test(test_random_against_model),
	};
	return cmocka_run_group_tests_name("textbuf", tests, NULL, NULL);
}
