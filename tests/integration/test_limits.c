/* SPDX-License-Identifier: MIT */
/*
 * test_limits.c - constraints 4 and 5 and every other bound (issue 3),
 * each hit by a real program and reported with its status, its violation
 * kind and its usage figure: CPU (one thread and eight), wall clock,
 * memory (one huge allocation and a slow climb), processes (a fork bomb),
 * disk (one big file and many small ones), output (a 200 MB flood), a
 * daemon that outlives its parent, and numpy under the default limits.
 *
 * Limits here are small so the suite stays quick; nothing asserts how long
 * a run took, only how it ended.
 */
#include "itest.h"

/* A limit under its floor never starts a run, and the message names the
 * floors as sandpit.h sets them (SP_MIN_*), not as someone retyped them. */
static void test_limits_under_the_floors_are_refused_naming_them(void **state)
{
	char *name = it_name("floors");
	struct sp_config cfg = it_config("print(1)\n", name);
	struct sp_error err = { "" };
	struct sp_run *run = NULL;
	char want[64];

	(void)state;
	cfg.limits.memory_bytes = SP_MIN_MEMORY_BYTES - 1;
	assert_int_equal(sp_run_start(&cfg, &run, &err), -1);
	assert_null(run);
	snprintf(want, sizeof want, "memory at least %uM", SP_MIN_MEMORY_BYTES >> 20);
	if (!strstr(err.msg, want) || !strstr(err.msg, "memory at least 16M"))
		fail_msg("'%s' lacks '%s'", err.msg, want);
	cfg.limits.memory_bytes = SP_MIN_MEMORY_BYTES;
	cfg.limits.disk_bytes = SP_MIN_DISK_BYTES - 1;
	assert_int_equal(sp_run_start(&cfg, &run, &err), -1);
	assert_non_null(strstr(err.msg, "disk at least 4K"));
	free(name);
}

static void test_busy_loop_hits_the_cpu_limit(void **state)
{
	char *name = it_name("cpu");
	struct sp_config cfg = it_config("while True: pass\n", name);
	struct sp_result *r;
	const struct sp_violation *v;

	(void)state;
	cfg.limits.cpu_ms = 1000;
	cfg.limits.wall_ms = 30000;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_CPU_LIMIT);
	IT_CHECK(r, r->exit_code == -1);
	IT_CHECK(r, r->usage.cpu_ms >= 1000);
	v = it_viol(r, SP_VIOL_CPU, NULL);
	IT_CHECK(r, v != NULL);
	IT_CHECK(r, v->count == 1);
	IT_CHECK(r, it_contains(v->what, "of 1 s") || it_contains(v->what, "over 1 s"));
	IT_CHECK(r, it_viol(r, SP_VIOL_WALL, NULL) == NULL);
	IT_CHECK(r, it_host_procs_with(name) == 0);
	sp_result_free(r);
	free(name);
}

static void test_sleep_hits_the_wall_limit(void **state)
{
	char *name = it_name("wall");
	struct sp_config cfg = it_config("import time\ntime.sleep(1e6)\n", name);
	struct sp_result *r;
	const struct sp_violation *v;

	(void)state;
	cfg.limits.wall_ms = 1000;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_WALL_LIMIT);
	IT_CHECK(r, r->usage.wall_ms >= 1000);
	IT_CHECK(r, r->usage.cpu_ms < r->limits.cpu_ms);
	v = it_viol(r, SP_VIOL_WALL, NULL);
	IT_CHECK(r, v != NULL);
	IT_CHECK(r, it_contains(v->what, "of 1 s") || it_contains(v->what, "over 1 s"));
	IT_CHECK(r, it_viol(r, SP_VIOL_CPU, NULL) == NULL);
	IT_CHECK(r, it_host_procs_with(name) == 0);
	sp_result_free(r);
	free(name);
}

/* Eight spinning threads: the CPU limit counts all of them together, so
 * the run stops on CPU long before the generous wall limit. */
static void test_eight_spinning_threads_share_one_cpu_limit(void **state)
{
	char *name = it_name("threads");
	struct sp_config cfg = it_config(
		"import threading\n"
		"def spin():\n"
		"    while True:\n"
		"        pass\n"
		"ts = [threading.Thread(target=spin, daemon=True) for _ in range(8)]\n"
		"for t in ts:\n"
		"    t.start()\n"
		"print('started', sum(t.is_alive() for t in ts))\n"
		"for t in ts:\n"
		"    t.join()\n", name);
	struct sp_result *r;

	(void)state;
	cfg.limits.cpu_ms = 1500;
	cfg.limits.wall_ms = 60000;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_CPU_LIMIT);
	IT_CHECK(r, it_contains(it_out(r), "started 8"));
	IT_CHECK(r, r->usage.cpu_ms >= 1500);
	IT_CHECK(r, r->usage.procs_peak >= 9);
	IT_CHECK(r, it_viol(r, SP_VIOL_CPU, NULL) != NULL);
	IT_CHECK(r, it_viol(r, SP_VIOL_WALL, NULL) == NULL);
	sp_result_free(r);
	free(name);
}

static void test_two_gib_allocation_under_256_mib_fails(void **state)
{
	char *name = it_name("bigalloc");
	struct sp_config cfg = it_config("x = 1\n"
					 "b = bytearray(2 * 1024 ** 3)\n"
					 "print('ALLOCATED', len(b))\n", name);
	struct sp_result *r;
	const struct sp_violation *v;

	(void)state;
	cfg.limits.memory_bytes = 256ull << 20;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_MEMORY_LIMIT);
	IT_CHECK(r, !it_contains(it_out(r), "ALLOCATED"));
	IT_CHECK(r, it_contains(it_err(r), "MemoryError"));
	IT_CHECK(r, r->usage.peak_memory_bytes > 0);
	IT_CHECK(r, r->usage.peak_memory_bytes <= (256ull << 20) + (16ull << 20));
	IT_CHECK(r, r->peak_memory_source != NULL);
	v = it_viol(r, SP_VIOL_MEMORY, NULL);
	IT_CHECK(r, v != NULL);
	IT_CHECK(r, v->line == 2);
	sp_result_free(r);
	free(name);
}

/* Memory that is really touched, a megabyte at a time: whatever stops it
 * (the cgroup's OOM killer, or the data rlimit's MemoryError), the status
 * and the record say memory. */
static void test_growing_memory_hits_the_memory_limit(void **state)
{
	char *name = it_name("climb");
	struct sp_config cfg = it_config("chunks = []\n"
					 "while True:\n"
					 "    chunks.append(bytearray(1 << 20))\n", name);
	struct sp_result *r;

	(void)state;
	cfg.limits.memory_bytes = 128ull << 20;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_MEMORY_LIMIT);
	IT_CHECK(r, it_viol(r, SP_VIOL_MEMORY, NULL) != NULL);
	IT_CHECK(r, r->usage.peak_memory_bytes >= (32ull << 20));
	IT_CHECK(r, r->usage.peak_memory_bytes <= (128ull << 20) + (32ull << 20));
	IT_CHECK(r, it_host_procs_with(name) == 0);
	sp_result_free(r);
	free(name);
}

/* A polite bomb: every process forks once more and sleeps, so the tree
 * grows to the limit; the parent sees fork fail and the run goes on. */
static void test_fork_fails_at_the_process_limit_and_the_run_goes_on(void **state)
{
	char *name = it_name("forks");
	struct sp_config cfg = it_config(
		"import os, time\n"
		"made = 0\n"
		"while True:\n"
		"    try:\n"
		"        pid = os.fork()\n"
		"    except OSError as e:\n"
		"        print('fork failed after', made, e.errno)\n"
		"        break\n"
		"    if pid == 0:\n"
		"        time.sleep(60)\n"
		"        os._exit(0)\n"
		"    made += 1\n"
		"print('still running')\n", name);
	struct sp_result *r;

	(void)state;
	cfg.limits.procs = 16;
	cfg.limits.wall_ms = 30000;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "fork failed after"));
	IT_CHECK(r, it_contains(it_out(r), "still running"));
	IT_CHECK(r, r->usage.procs_peak <= 16 + 1);
	IT_CHECK(r, it_viol(r, SP_VIOL_PROCESS, NULL) != NULL);
	IT_CHECK(r, it_host_procs_with(name) == 0);
	sp_result_free(r);
	free(name);
}

/* A real fork bomb: every process forks for ever and never looks back.
 * The run ends at a limit, nothing of it survives, and the host can still
 * fork and run the next sandbox. */
static void test_fork_bomb_ends_and_leaves_the_host_fine(void **state)
{
	char *name = it_name("bomb");
	struct sp_config cfg = it_config(
		"import os\n"
		"while True:\n"
		"    try:\n"
		"        os.fork()\n"
		"    except OSError:\n"
		"        pass\n", name);
	struct sp_result *r;
	pid_t pid;
	int st;

	(void)state;
	cfg.limits.cpu_ms = 2000;
	cfg.limits.wall_ms = 4000;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_CPU_LIMIT || r->status == SP_STATUS_WALL_LIMIT);
	IT_CHECK(r, r->usage.procs_peak <= r->limits.procs + 1);
	IT_CHECK(r, it_viol(r, SP_VIOL_PROCESS, NULL) != NULL);
	IT_CHECK(r, it_host_procs_with(name) == 0);
	sp_result_free(r);

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(7);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(WEXITSTATUS(st), 7);
	r = it_run("print('after the bomb')\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "after the bomb"));
	sp_result_free(r);
	free(name);
}

static void test_one_file_past_the_disk_limit_fails(void **state)
{
	char *name = it_name("bigfile");
	struct sp_config cfg = it_config(
		"import errno\n"
		"try:\n"
		"    with open('big.bin', 'wb') as f:\n"
		"        for i in range(64):\n"
		"            f.write(b'x' * (1 << 20))\n"
		"            f.flush()\n"
		"    print('WROTE IT ALL')\n"
		"except OSError as e:\n"
		"    print('write failed', errno.errorcode.get(e.errno))\n", name);
	struct sp_result *r;

	(void)state;
	cfg.limits.disk_bytes = 8ull << 20;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "write failed EFBIG") ||
		    it_contains(it_out(r), "write failed ENOSPC"));
	IT_CHECK(r, r->usage.disk_bytes <= (8ull << 20));
	IT_CHECK(r, r->usage.disk_bytes >= (7ull << 20));
	IT_CHECK(r, it_has_file(r, "big.bin"));
	IT_CHECK(r, it_viol(r, SP_VIOL_DISK, NULL) != NULL);
	sp_result_free(r);
	free(name);
}

/* Many half-megabyte files until the work dir is full: ENOSPC, caught by
 * the program, which then ends at once. The disk record must not depend
 * on a usage sample happening to fall inside the run. */
static void test_many_files_fill_the_work_dir(void **state)
{
	char *name = it_name("manyfiles");
	struct sp_config cfg = it_config(
		"import errno\n"
		"err = None\n"
		"for i in range(100):\n"
		"    try:\n"
		"        with open('part%d' % i, 'wb') as f:\n"
		"            f.write(b'y' * (512 << 10))\n"
		"    except OSError as e:\n"
		"        err = errno.errorcode.get(e.errno)\n"
		"        break\n"
		"print('stopped by', err)\n", name);
	struct sp_result *r;

	(void)state;
	cfg.limits.disk_bytes = 4ull << 20;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "stopped by ENOSPC") ||
		    it_contains(it_out(r), "stopped by EFBIG"));
	IT_CHECK(r, r->usage.disk_bytes <= (4ull << 20));
	IT_CHECK(r, it_viol(r, SP_VIOL_DISK, NULL) != NULL);
	sp_result_free(r);
	free(name);
}

/* 200 MB printed under a 1 MiB cap: exactly the first MiB is kept. */
static void test_output_flood_keeps_exactly_the_limit(void **state)
{
	char *name = it_name("flood");
	struct sp_config cfg = it_config(
		"import sys\n"
		"line = 'x' * 999 + '\\n'\n"
		"for i in range(200000):\n"
		"    sys.stdout.write(line)\n"
		"print('FINISHED')\n", name);
	struct sp_result *r;
	bool all_x = true;

	(void)state;
	cfg.limits.output_bytes = 1ull << 20;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OUTPUT_LIMIT);
	IT_CHECK(r, r->truncated);
	IT_CHECK(r, r->out_len == (1u << 20));
	IT_CHECK(r, r->usage.output_bytes == (1u << 20));
	for (size_t i = 0; i < r->out_len; i++)
		if (r->out[i] != ((i % 1000) == 999 ? '\n' : 'x'))
			all_x = false;
	IT_CHECK(r, all_x);
	IT_CHECK(r, it_viol(r, SP_VIOL_OUTPUT, NULL) != NULL);
	IT_CHECK(r, it_host_procs_with(name) == 0);
	sp_result_free(r);
	free(name);
}

/* stdout and stderr share one cap: 200 KiB to stderr, then 200 KiB to
 * stdout, under a cap of 256 KiB. Each alone fits; together they do not.
 * stderr is written whole before stdout begins, so whichever pipe the
 * supervisor reads first, both have bytes when the cap is reached. */
static void test_output_limit_counts_stdout_and_stderr_together(void **state)
{
	char *name = it_name("flood2");
	struct sp_config cfg = it_config(
		"import os\n"
		"for fd, c in ((2, b'e'), (1, b'o')):\n"
		"    for i in range(50):\n"
		"        os.write(fd, c * 4095 + b'\\n')\n"
		"import time\ntime.sleep(30)\n", name);
	struct sp_result *r;

	(void)state;
	cfg.limits.output_bytes = 256u << 10;
	cfg.limits.wall_ms = 60000;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OUTPUT_LIMIT);
	IT_CHECK(r, r->truncated);
	IT_CHECK(r, r->out_len + r->err_len == (256u << 10));
	IT_CHECK(r, r->out_len > 0 && r->err_len > 0);
	sp_result_free(r);
	free(name);
}

/* The daemon keeps the output pipe open and sleeps for ever; its parent
 * exits. The run ends with the program (not at the wall limit), and the
 * daemon dies with it. */
static void test_daemon_that_outlives_its_parent_is_stopped(void **state)
{
	char *name = it_name("outlive");
	struct sp_config cfg = it_config(
		"import os, time\n"
		"if os.fork() == 0:\n"
		"    os.setsid()\n"
		"    if os.fork() == 0:\n"
		"        while True:\n"
		"            print('daemon tick', flush=True)\n"
		"            time.sleep(0.05)\n"
		"    os._exit(0)\n"
		"os.wait()\n"
		"time.sleep(0.3)\n"
		"print('parent exits')\n", name);
	struct sp_result *r;

	(void)state;
	cfg.limits.wall_ms = 20000;
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->exit_code == 0);
	IT_CHECK(r, it_contains(it_out(r), "daemon tick"));
	IT_CHECK(r, it_contains(it_out(r), "parent exits"));
	IT_CHECK(r, it_viol(r, SP_VIOL_WALL, NULL) == NULL);
	IT_CHECK(r, it_host_procs_with(name) == 0);
	sp_result_free(r);
	free(name);
}

static void test_numpy_works_under_the_default_memory_limit(void **state)
{
	char *name = it_name("numpy");
	struct sp_result *r;

	(void)state;
	/* the sandbox runs /usr/bin/python3; numpy is there or not at all */
	if (system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0) {
		free(name);
		skip();
	}
	r = it_run("import numpy as np\n"
		   "a = np.arange(1000000, dtype=np.float64)\n"
		   "m = np.ones((300, 300)) @ np.ones((300, 300))\n"
		   "print('sum', int(a.sum()), 'm', int(m[0, 0]))\n", name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "sum 499999500000 m 300"));
	IT_CHECK(r, r->n_violations == 0);
	sp_result_free(r);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_busy_loop_hits_the_cpu_limit),
		cmocka_unit_test(test_sleep_hits_the_wall_limit),
		cmocka_unit_test(test_eight_spinning_threads_share_one_cpu_limit),
		cmocka_unit_test(test_two_gib_allocation_under_256_mib_fails),
		cmocka_unit_test(test_growing_memory_hits_the_memory_limit),
		cmocka_unit_test(test_fork_fails_at_the_process_limit_and_the_run_goes_on),
		cmocka_unit_test(test_fork_bomb_ends_and_leaves_the_host_fine),
		cmocka_unit_test(test_one_file_past_the_disk_limit_fails),
		cmocka_unit_test(test_many_files_fill_the_work_dir),
		cmocka_unit_test(test_output_flood_keeps_exactly_the_limit),
		cmocka_unit_test(test_output_limit_counts_stdout_and_stderr_together),
		cmocka_unit_test(test_daemon_that_outlives_its_parent_is_stopped),
		cmocka_unit_test(test_numpy_works_under_the_default_memory_limit),
		cmocka_unit_test(test_limits_under_the_floors_are_refused_naming_them),
	};

	return cmocka_run_group_tests_name("integration/limits", tests, NULL, NULL);
}
