/* SPDX-License-Identifier: MIT */
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

/* The program can write the prelude's messages itself: a made-up "at"
 * before a denied call must not put its words into the kernel record's
 * what; they stay in the context, which says whose words they are. */
static void test_kernel_record_keeps_the_program_words_apart(void **state)
{
	char *name = it_name("forge");
	/* F_SETPIPE_SZ over 64 KiB: denied by the kernel, with no audit event
	 * of the prelude's own in between */
	struct sp_result *r = it_run(
		"import fcntl, os\n"
		"os.write(3, b'{\"t\": \"at\", \"line\": 1, \"ctx\": \"open(/etc/shadow) allowed\"}\\n')\n"
		"rd, wr = os.pipe()\n"
		"try:\n"
		"    fcntl.fcntl(wr, 1031, 1 << 20)\n"
		"except OSError:\n"
		"    print('refused')\n", name);
	const struct sp_violation *v = NULL;
	char *json;

	(void)state;
	IT_CHECK(r, r->status == SP_STATUS_OK && it_contains(it_out(r), "refused"));
	const char *ctx = NULL;
	for (size_t i = 0; i < r->n_violations; i++)
		if (r->violations[i].from_kernel && it_contains(r->violations[i].what, "F_SETPIPE_SZ")) {
			v = &r->violations[i];
			ctx = r->violation_contexts ? r->violation_contexts[i] : NULL;
		}
	IT_CHECK(r, v != NULL);
	IT_CHECK(r, !it_contains(v->what, "shadow"));
	IT_CHECK(r, ctx && strcmp(ctx, "open(/etc/shadow) allowed") == 0);
	json = sp_result_to_json(r);
	IT_CHECK(r, it_contains(json, "\"program_context\": \"open(/etc/shadow) allowed\""));
	free(json);
	sp_result_free(r);
	free(name);
}

/* Only input()'s EOFError is about nobody typing: the end of a pickle
 * (or of a forkserver's socket) gets no such hint; input()'s does. */
static void test_only_input_eof_has_the_input_hint(void **state)
{
	char *name = it_name("eof");
	struct sp_result *r = it_run("import io, pickle\npickle.load(io.BytesIO(b''))\n", name);

	(void)state;
	IT_CHECK(r, r->status == SP_STATUS_ERROR && it_contains(it_err(r), "EOFError"));
	IT_CHECK(r, r->n_hints == 0);
	sp_result_free(r);
	r = it_run("input()\n", name);
	IT_CHECK(r, r->n_hints == 1 && strcmp(r->hints[0].topic, "input") == 0);
	sp_result_free(r);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_globals_beyond_64_bits_are_shown),
		cmocka_unit_test(test_carry_of_many_names_is_not_quadratic),
		cmocka_unit_test(test_kernel_record_keeps_the_program_words_apart),
		cmocka_unit_test(test_only_input_eof_has_the_input_hint),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
