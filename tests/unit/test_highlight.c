/* SPDX-License-Identifier: MIT */
/*
 * test_highlight.c - tokens of tricky Python.
 *
 * Classes are written one letter per byte: . text, K keyword, B builtin,
 * S string, C comment, N number, D decorator.
 */
#include "testlib.h"

#include <stdio.h>
#include <string.h>

#include "text/highlight.h"

#include "banned.h"

static const char letters[] = ".KBSCND";

/* Highlights line from state in; the class letters into out; returns the
 * state after the line. */
static hl_state run(const char *line, hl_state in, char *out)
{
	unsigned char cls[256];
	size_t n = strlen(line);
	assert_true(n < sizeof cls);
	hl_state st = hl_line(line, n, in, cls);
	for (size_t i = 0; i < n; i++)
		out[i] = letters[cls[i]];
	out[n] = '\0';
	return st;
}

/* The state carried from line to line within a test. */
static hl_state now;

/* Asserts the classes of the next line and returns its end state. */
static hl_state expect(const char *line, const char *want)
{
	char got[256];
	hl_state st = now = run(line, now, got);
	if (strcmp(got, want))
		fprintf(stderr, "line: %s\ngot:  %s\nwant: %s\n", line, got, want);
	assert_string_equal(got, want);
	return st;
}

static void test_keywords_builtins(void **state)
{
	(void)state;
	now = HL_START;
	expect("def f(x): return len(x) if x else None",
	       "KKK.......KKKKKK.BBB....KK...KKKK.KKKK");
	/* Attributes are not builtins; names containing keywords are names. */
	expect("obj.print(iffy, format)",
	       "................BBBBBB.");
}

static void test_numbers(void **state)
{
	(void)state;
	now = HL_START;
	expect("a = 1_000 + 0x1F - 1e-3j * .5 + x1",
	       "....NNNNN...NNNN...NNNNN...NN.....");
	expect("b = 3.14e+10 + 0o17 + 0b1010",
	       "....NNNNNNNN...NNNN...NNNNNN");
}

static void test_strings_and_comments(void **state)
{
	(void)state;
	now = HL_START;
	/* A '#' inside a string is not a comment. */
	hl_state st = expect("s = \"a # b\"  # real comment",
			     "....SSSSSSS..CCCCCCCCCCCCCC");
	assert_int_equal(st, HL_START);
	expect("t = 'it''s' + rb'\\x00' + u\"\\\"q\"",
	       "....SSSSSSS...SSSSSSSS...SSSSSS");
}

static void test_triple_across_lines(void **state)
{
	(void)state;
	now = HL_START;
	hl_state st = expect("doc = \"\"\"first # not a comment", "......SSSSSSSSSSSSSSSSSSSSSSSS");
	assert_true(hl_in_string(st));
	st = expect("'still' \"inside\"", "SSSSSSSSSSSSSSSS");
	st = expect("end\"\"\" + 1  # c", "SSSSSS...N..CCC");
	assert_int_equal(st, HL_START);
	/* Single-quoted strings end with their line... */
	st = expect("x = 'open", "....SSSSS");
	assert_int_equal(st, HL_START);
	/* ...unless a backslash continues them. */
	st = expect("x = 'open\\", "....SSSSSS");
	assert_true(hl_in_string(st));
	expect("more' + 2", "SSSSS...N");
}

static void test_fstrings(void **state)
{
	(void)state;
	now = HL_START;
	/* Expressions inside an f-string are code; a format spec is string. */
	expect("f\"{len(x):>{w}} {{lit}} {1+2}\"",
	       "SSSBBB....SS.SSSSSSSSSSSSN.NSS");
	/* Nested f-strings reusing the same quote (PEP 701). */
	expect("f\"a{f\"b{x}\"}c\"", "SSSSSSSS.SSSSS");
	/* A triple-quoted f-string whose expression spans lines. */
	hl_state st = expect("msg = f\"\"\"total: {sum(", "......SSSSSSSSSSSSBBB.");
	assert_false(hl_in_string(st));
	st = expect("    [1, 2])} done", ".....N..N..SSSSSS");
	assert_true(hl_in_string(st));
	st = expect("\"\"\"", "SSS");
	assert_int_equal(st, HL_START);
}

static void test_decorators(void **state)
{
	(void)state;
	now = HL_START;
	expect("@functools.lru_cache(maxsize=None)",
	       "DDDDDDDDDDDDDDDDDDDD.........KKKK.");
	expect("    @property", "....DDDDDDDDD");
	/* Matrix multiplication is not a decorator. */
	expect("c = a @ b", ".........");
}

static void test_soft_keywords(void **state)
{
	(void)state;
	now = HL_START;
	expect("match command:", "KKKKK.........");
	expect("    case [x, y]:", "....KKKK........");
	expect("match = 3", "........N");
	expect("print(type(x))", "BBBBB.BBBB....");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keywords_builtins),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_strings_and_comments),
		cmocka_unit_test(test_triple_across_lines),
		cmocka_unit_test(test_fstrings),
		cmocka_unit_test(test_decorators),
		cmocka_unit_test(test_soft_keywords),
	};
	return cmocka_run_group_tests_name("highlight", tests, NULL, NULL);
}
