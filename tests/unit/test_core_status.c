/* SPDX-License-Identifier: MIT */
/*
 * test_core_status.c - the status of a run from the facts of its end
 * (core/status.c): one test per rule, and the order between the rules
 * (setting up, the supervisor's stop, the kernel, the program's ending).
 */
#include "testlib.h"

#include <signal.h>

#include "status.h"

/* A wait status as waitpid reports it (the Linux encoding). */
static int exited(int code) { return (code & 0xff) << 8; }
static int killed(int sig) { return sig & 0x7f; }

/* The facts of a program that ran and exited 0. */
static struct sp_end_facts plain(void)
{
	struct sp_end_facts f = {
		.have_status = true,
		.wstatus = exited(0),
		.prelude_started = true,
		.cpu_ms = 100,
		.cpu_limit_ms = 5000,
	};
	return f;
}

static void test_a_clean_exit_is_ok(void **state)
{
	struct sp_end_facts f = plain();
	struct sp_end_verdict v = sp_status_decide(&f);

	(void)state;
	assert_int_equal(v.status, SP_STATUS_OK);
	assert_int_equal(v.cause, SP_END_EXITED);
	assert_int_equal(v.exit_code, 0);
	assert_int_equal(v.signal, 0);
}

static void test_a_nonzero_exit_is_an_error(void **state)
{
	struct sp_end_facts f = plain();
	struct sp_end_verdict v;

	(void)state;
	f.wstatus = exited(3);
	v = sp_status_decide(&f);
	assert_int_equal(v.status, SP_STATUS_ERROR);
	assert_int_equal(v.cause, SP_END_EXITED);
	assert_int_equal(v.exit_code, 3);
}

static void test_an_uncaught_memory_error_is_the_memory_limit(void **state)
{
	struct sp_end_facts f = plain();
	struct sp_end_verdict v;

	(void)state;
	f.wstatus = exited(1);
	f.exc_memory = true;
	v = sp_status_decide(&f);
	assert_int_equal(v.status, SP_STATUS_MEMORY_LIMIT);
	assert_int_equal(v.cause, SP_END_EXITED);
	/* a program that caught it and exited 0 is fine */
	f.wstatus = exited(0);
	assert_int_equal(sp_status_decide(&f).status, SP_STATUS_OK);
}

static void test_a_setup_error_wins_over_everything(void **state)
{
	struct sp_end_facts f = plain();
	struct sp_end_verdict v;

	(void)state;
	f.setup_error = true;
	f.stopping = true;
	f.stop = SP_STATUS_WALL_LIMIT;
	f.oom_killed = true;
	v = sp_status_decide(&f);
	assert_int_equal(v.status, SP_STATUS_SANDBOX_ERROR);
	assert_int_equal(v.cause, SP_END_SETUP);
}

static void test_an_interpreter_that_died_before_the_prelude_is_sandpits(void **state)
{
	struct sp_end_facts f = plain();
	struct sp_end_verdict v;

	(void)state;
	f.prelude_started = false;
	f.wstatus = exited(1);
	v = sp_status_decide(&f);
	assert_int_equal(v.status, SP_STATUS_SANDBOX_ERROR);
	assert_int_equal(v.cause, SP_END_NO_PRELUDE);
	assert_int_equal(v.exit_code, 1);
	/* exiting 0 without the prelude is no failure of sandpit's */
	f.wstatus = exited(0);
	assert_int_equal(sp_status_decide(&f).cause, SP_END_EXITED);
	/* nor is a run the supervisor stopped */
	f.wstatus = killed(SIGKILL);
	f.stopping = true;
	f.stop = SP_STATUS_KILLED;
	assert_int_equal(sp_status_decide(&f).cause, SP_END_STOPPED);
}

static void test_the_supervisors_stop_reason_wins_over_the_kernel(void **state)
{
	struct sp_end_facts f = plain();
	struct sp_end_verdict v;

	(void)state;
	f.wstatus = killed(SIGKILL);
	f.stopping = true;
	f.stop = SP_STATUS_OUTPUT_LIMIT;
	f.oom_killed = true;
	f.cpu_ms = f.cpu_limit_ms;
	v = sp_status_decide(&f);
	assert_int_equal(v.status, SP_STATUS_OUTPUT_LIMIT);
	assert_int_equal(v.cause, SP_END_STOPPED);
	assert_int_equal(v.signal, SIGKILL);
	assert_int_equal(v.exit_code, -1);
}

static void test_a_stopped_run_without_status_was_killed(void **state)
{
	struct sp_end_facts f = plain();
	struct sp_end_verdict v;

	(void)state;
	f.have_status = false;
	f.stopping = true;
	f.stop = SP_STATUS_WALL_LIMIT;
	v = sp_status_decide(&f);
	assert_int_equal(v.status, SP_STATUS_WALL_LIMIT);
	assert_int_equal(v.signal, SIGKILL);
	assert_int_equal(v.exit_code, -1);
}

static void test_the_oom_killer_is_the_memory_limit(void **state)
{
	struct sp_end_facts f = plain();
	struct sp_end_verdict v;

	(void)state;
	f.wstatus = killed(SIGKILL);
	f.oom_killed = true;
	f.cpu_ms = f.cpu_limit_ms; /* the OOM rule comes before the CPU one */
	v = sp_status_decide(&f);
	assert_int_equal(v.status, SP_STATUS_MEMORY_LIMIT);
	assert_int_equal(v.cause, SP_END_OOM);
}

static void test_sigxcpu_or_a_kill_at_the_cpu_limit_is_the_cpu_limit(void **state)
{
	struct sp_end_facts f = plain();
	struct sp_end_verdict v;

	(void)state;
	f.wstatus = killed(SIGXCPU);
	v = sp_status_decide(&f);
	assert_int_equal(v.status, SP_STATUS_CPU_LIMIT);
	assert_int_equal(v.cause, SP_END_CPU);
	assert_int_equal(v.signal, SIGXCPU);
	/* RLIMIT_CPU's hard limit is SIGKILL: within a second of the limit */
	f.wstatus = killed(SIGKILL);
	f.cpu_ms = f.cpu_limit_ms - 1000;
	assert_int_equal(sp_status_decide(&f).status, SP_STATUS_CPU_LIMIT);
	/* a SIGKILL far from the limit is the program's own error */
	f.cpu_ms = f.cpu_limit_ms - 1001;
	v = sp_status_decide(&f);
	assert_int_equal(v.status, SP_STATUS_ERROR);
	assert_int_equal(v.cause, SP_END_EXITED);
	assert_int_equal(v.signal, SIGKILL);
}

static void test_init_without_the_programs_status_is_a_sandbox_error(void **state)
{
	struct sp_end_facts f = plain();
	struct sp_end_verdict v;

	(void)state;
	f.have_status = false;
	v = sp_status_decide(&f);
	assert_int_equal(v.status, SP_STATUS_SANDBOX_ERROR);
	assert_int_equal(v.cause, SP_END_NO_STATUS);
	assert_int_equal(v.exit_code, -1);
	assert_int_equal(v.signal, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_clean_exit_is_ok),
		cmocka_unit_test(test_a_nonzero_exit_is_an_error),
		cmocka_unit_test(test_an_uncaught_memory_error_is_the_memory_limit),
		cmocka_unit_test(test_a_setup_error_wins_over_everything),
		cmocka_unit_test(test_an_interpreter_that_died_before_the_prelude_is_sandpits),
		cmocka_unit_test(test_the_supervisors_stop_reason_wins_over_the_kernel),
		cmocka_unit_test(test_a_stopped_run_without_status_was_killed),
		cmocka_unit_test(test_the_oom_killer_is_the_memory_limit),
		cmocka_unit_test(test_sigxcpu_or_a_kill_at_the_cpu_limit_is_the_cpu_limit),
		cmocka_unit_test(test_init_without_the_programs_status_is_a_sandbox_error),
	};

	return cmocka_run_group_tests_name("unit/core_status", tests, NULL, NULL);
}
