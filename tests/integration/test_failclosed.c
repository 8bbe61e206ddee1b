/* SPDX-License-Identifier: MIT */
/*
 * test_failclosed.c - a missing layer: required ones make the run refuse to
 * start and say which layer and how to get it; optional ones degrade and
 * the result's layers say so.
 *
 * The host here has every layer, so each test takes one away in a forked
 * child with a seccomp filter of its own (the way a locked-down container
 * or a hardened distribution takes it away): creating a user namespace
 * fails with EPERM, or Landlock answers ENOSYS as on an older kernel.
 */
#include "itest.h"

#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>

#define ARG0_HAS(flag) \
	((struct scmp_arg_cmp){ .arg = 0, .op = SCMP_CMP_MASKED_EQ, .datum_a = (flag), .datum_b = (flag) })

/* In this process: no new user namespaces (clone3's flags are out of a
 * filter's reach, so it answers ENOSYS and libc falls back to clone). */
static void forbid_user_namespaces(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	assert_non_null(ctx);
	assert_int_equal(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0), 0);
	assert_int_equal(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
					  ARG0_HAS(CLONE_NEWUSER)), 0);
	assert_int_equal(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 1,
					  ARG0_HAS(CLONE_NEWUSER)), 0);
	assert_int_equal(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	assert_int_equal(seccomp_load(ctx), 0);
	seccomp_release(ctx);
}

static void forbid_landlock(void)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);

	assert_non_null(ctx);
	assert_int_equal(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
					  SCMP_SYS(landlock_create_ruleset), 0), 0);
	assert_int_equal(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	assert_int_equal(seccomp_load(ctx), 0);
	seccomp_release(ctx);
}

/* Run fn in a child; the child's cmocka assertions become its exit code. */
static void in_child(void (*fn)(void))
{
	pid_t pid = fork();
	int st;

	assert_true(pid >= 0);
	if (pid == 0) {
		fn();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

#define CHILD_CHECK(cond)                                                    \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, \
				__LINE__, #cond);                            \
			_exit(1);                                            \
		}                                                            \
	} while (0)

static void no_userns_library(void)
{
	struct sp_config cfg = it_config("print('MUST NOT RUN')\n", "refused.py");
	struct sp_run *run = NULL;
	struct sp_error err = { "" };
	struct sp_layer ls[SP_MAX_LAYERS];
	size_t n;
	bool seen = false;

	forbid_user_namespaces();
	CHILD_CHECK(sp_run_start(&cfg, &run, &err) < 0);
	CHILD_CHECK(run == NULL);
	fprintf(stderr, "refused with: %s\n", err.msg);
	CHILD_CHECK(it_contains(err.msg, "user namespaces"));
	CHILD_CHECK(it_contains(err.msg, "sandpit doctor"));

	n = sp_doctor(ls, sizeof ls / sizeof ls[0]);
	for (size_t i = 0; i < n; i++)
		if (strcmp(ls[i].name, "user_namespace") == 0) {
			seen = true;
			CHILD_CHECK(!ls[i].active);
			CHILD_CHECK(it_contains(ls[i].detail, "not allowed"));
		}
	CHILD_CHECK(seen);
	CHILD_CHECK(sp_doctor_hint("user_namespace") != NULL);
	CHILD_CHECK(it_contains(sp_doctor_hint("user_namespace"), "max_user_namespaces"));
}

static void no_userns_cli(void)
{
	char *dir = it_tmpdir();
	static const char code[] = "print('MUST NOT RUN')\n";
	char *prog = it_write(dir, "refused.py", code, sizeof code - 1);
	const char *args[] = { "run", prog, NULL };
	const char *dargs[] = { "doctor", NULL };
	const char *jargs[] = { "run", "--json", prog, NULL };
	struct it_cli c;

	forbid_user_namespaces();
	it_cli(&c, false, args);
	CHILD_CHECK(c.status == 125);
	CHILD_CHECK(!it_contains(c.out, "MUST NOT RUN"));
	CHILD_CHECK(it_contains(c.err, "user namespaces"));
	it_cli_free(&c);
	it_cli(&c, true, jargs);
	CHILD_CHECK(c.status == 125);
	CHILD_CHECK(c.json != NULL);
	CHILD_CHECK(strcmp(it_jstr(c.json, "status"), "sandbox_error") == 0);
	CHILD_CHECK(it_contains(it_jstr(c.json, "error"), "user namespaces"));
	CHILD_CHECK(json_is_array(json_object_get(c.json, "violations")));
	it_cli_free(&c);
	it_cli(&c, false, dargs);
	CHILD_CHECK(c.status == 1);
	CHILD_CHECK(it_contains(c.out, "user_namespace"));
	CHILD_CHECK(it_contains(c.out, "NO"));
	CHILD_CHECK(it_contains(c.out, "max_user_namespaces"));
	CHILD_CHECK(it_contains(c.out, "refuse"));
	it_cli_free(&c);
	free(prog);
	it_rmdir(dir);
}

static void no_landlock_degrades(void)
{
	struct sp_config cfg = it_config("print('still confined')\n", "nolandlock.py");
	struct sp_result *r;
	struct sp_error err = { "" };
	const struct sp_layer *l;

	forbid_landlock();
	CHILD_CHECK(sp_run_blocking(&cfg, &r, &err) == 0);
	CHILD_CHECK(r->status == SP_STATUS_OK);
	CHILD_CHECK(it_contains(it_out(r), "still confined"));
	l = it_layer(r, "landlock");
	CHILD_CHECK(l && !l->active);
	l = it_layer(r, "seccomp");
	CHILD_CHECK(l && l->active);
	l = it_layer(r, "mount_namespace");
	CHILD_CHECK(l && l->active);
	sp_result_free(r);
}

static void test_no_user_namespaces_refuses_and_says_why(void **state)
{
	(void)state;
	in_child(no_userns_library);
}

static void test_cli_without_user_namespaces_exits_125(void **state)
{
	(void)state;
	in_child(no_userns_cli);
}

static void test_without_landlock_the_run_degrades_and_says_so(void **state)
{
	(void)state;
	in_child(no_landlock_degrades);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_user_namespaces_refuses_and_says_why),
		cmocka_unit_test(test_cli_without_user_namespaces_exits_125),
		cmocka_unit_test(test_without_landlock_the_run_degrades_and_says_so),
	};

	return cmocka_run_group_tests_name("integration/failclosed", tests, NULL, NULL);
}
