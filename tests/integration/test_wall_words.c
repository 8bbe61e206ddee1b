/* SPDX-License-Identifier: MIT */
/*
 * test_wall_words.c - a wall-clock record says how much CPU the program
 * had used when it is far from its CPU limit: the program waited, or
 * the machine is busy (a classroom laptop), so the person is not told a
 * CPU story by a wall record. Near the CPU limit it says the wall alone.
 */
#include "itest.h"

static void test_a_wall_record_far_from_the_cpu_limit_says_so(void **state)
{
	struct sp_config c = it_config("import time\ntime.sleep(100)\n", "sleepy.py");
	struct sp_result *r;
	const struct sp_violation *v = NULL;

	(void)state;
	c.limits.wall_ms = 700;
	c.limits.cpu_ms = 5000;
	r = it_run_cfg(&c);
	IT_CHECK(r, r->status == SP_STATUS_WALL_LIMIT);
	for (size_t i = 0; i < r->n_violations; i++)
		if (r->violations[i].kind == SP_VIOL_WALL)
			v = &r->violations[i];
	IT_CHECK(r, v != NULL);
	IT_CHECK(r, it_contains(v->what, "wall-clock time over 0.70 s after under a "
				"quarter of the CPU limit of 5 s: the program waited, or "
				"the machine is busy"));
	sp_result_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_wall_record_far_from_the_cpu_limit_says_so),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
