/* SPDX-License-Identifier: MIT */
/*
 * testlib.h - shared helpers for the C test programs (cmocka).
 * Each test file includes this, then defines its tests and a main() that
 * calls cmocka_run_group_tests_name().
 *
 * Tiers (docs/testing.md). `make check` runs every test that is quick and
 * decides the same way on a busy machine as on a quiet one. Two kinds of
 * check live elsewhere, chosen by $SANDPIT_TIER (tests/run.sh --tier sets it):
 *  - long: a test whose cmocka name starts with long_ and that opens with
 *    SP_TIER_LONG() (hundreds of runs, minutes of waiting). It skips itself
 *    in make check; under make check-long only the long_ tests run.
 *  - timing: a bound on how long something took (SP_TIMING()). make check
 *    runs the test and prints the measurement but never fails on it; make
 *    check-timing (a quiet machine) fails on a bound that is not met.
 */
#ifndef SP_TESTLIB_H
#define SP_TESTLIB_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "leaks.h" /* what a sandbox can leave on the host, counted */

static inline bool sp_tier_is(const char *tier)
{
	const char *t = getenv("SANDPIT_TIER");

	return t && strcmp(t, tier) == 0;
}

/* Which tests of the program run: under the long tier only those named
 * long_* (its run must not repeat the quick ones); $SANDPIT_TEST_FILTER
 * (a name, * and ? as wildcards) picks tests by name, to run one alone. */
__attribute__((constructor, unused)) static void sp_tier_select(void)
{
	const char *f = getenv("SANDPIT_TEST_FILTER");

	if (f && *f)
		cmocka_set_test_filter(f);
	else if (sp_tier_is("long"))
		cmocka_set_test_filter("long_*");
}

/* The first line of a long test: skipped (and said where it runs) in
 * make check. */
#define SP_TIER_LONG() do { \
	if (!sp_tier_is("long")) { \
		print_message("(a long test: make check-long runs it)\n"); \
		skip(); \
	} \
} while (0)

/* A bound on time: cond, with what was measured (fmt) and the same
 * measurement on an idle machine (idle) for the reader of a failure.
 * It fails only under make check-timing; make check says it and goes on. */
#define SP_TIMING(cond, idle, ...) do { \
	print_message("timing: " __VA_ARGS__); \
	print_message(" (bound: %s; idle: %s)\n", #cond, idle); \
	if (!(cond)) { \
		if (sp_tier_is("timing")) \
			fail_msg("%s:%d: timing bound not met: %s", __FILE__, __LINE__, #cond); \
		print_message("timing: bound not met, not a failure outside " \
			      "make check-timing\n"); \
	} \
} while (0)

#endif
