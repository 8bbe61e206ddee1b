/* SPDX-License-Identifier: MIT */
/*
 * test_pane_violations.c - the Violations pane keys records on the
 * engine's id (issue 12), and text wraps at words.
 *
 * A runtime record the program forges can read word for word like a
 * kernel record (same kind, what and line); merged on its text, it would
 * hide the kernel's. Keyed on the id, both stay, each with its source.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

#include "pane/pane_violations.h"
#include "screen/wrap.h"

static struct sp_violation rec(unsigned id, bool kernel, unsigned count)
{
	struct sp_violation v;

	memset(&v, 0, sizeof v);
	v.id = id;
	v.kind = SP_VIOL_NETWORK;
	v.what = "socket(AF_INET, SOCK_STREAM)";
	v.message = "The program tried to reach a network.";
	v.from_kernel = kernel;
	v.line = 3;
	v.count = count;
	return v;
}

static void test_a_forged_record_stands_beside_the_kernel_one(void **state)
{
	struct violations vs;
	struct sp_violation k = rec(1, true, 1), f = rec(2, false, 1);

	(void)state;
	memset(&vs, 0, sizeof vs);
	violations_upsert(&vs, &k, NULL);
	violations_upsert(&vs, &f, NULL);
	assert_int_equal(vs.n, 2);
	assert_true(vs.items[0].from_kernel);
	assert_false(vs.items[1].from_kernel);
	violations_free(&vs);
}

static void test_a_grown_record_updates_its_own_row(void **state)
{
	struct violations vs;
	struct sp_violation a = rec(1, true, 1), b = rec(2, true, 1);

	(void)state;
	memset(&vs, 0, sizeof vs);
	b.line = 9;     /* the same call on another line: its own row */
	violations_upsert(&vs, &a, NULL);
	violations_upsert(&vs, &b, NULL);
	b.count = 5;    /* the second grows; the first does not */
	violations_upsert(&vs, &b, NULL);
	assert_int_equal(vs.n, 2);
	assert_int_equal(vs.items[0].count, 1);
	assert_int_equal(vs.items[1].count, 5);
	violations_free(&vs);
}

static void test_help_lines_wrap_under_their_text_column(void **state)
{
	struct wrap_row rows[8];
	int n;

	(void)state;
	n = wrap_hanging("  Esc, Ctrl-C      cancel the running program (Ctrl-C copies when not running)",
			 60, rows, 8);
	assert_int_equal(n, 2);
	/* a whole word moved down, under "cancel" */
	assert_int_equal(rows[1].indent, 19);
	assert_int_equal((int)rows[1].len, (int)strlen("when not running)"));
	assert_memory_equal(rows[1].s, "when not running)", rows[1].len);
	/* a word wider than the row is cut, as nothing else fits */
	n = wrap_hanging("abcdefghijklmnop", 5, rows, 8);
	assert_int_equal(n, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_forged_record_stands_beside_the_kernel_one),
		cmocka_unit_test(test_a_grown_record_updates_its_own_row),
		cmocka_unit_test(test_help_lines_wrap_under_their_text_column),
	};
	return cmocka_run_group_tests_name("pane_violations", tests, NULL, NULL);
}
