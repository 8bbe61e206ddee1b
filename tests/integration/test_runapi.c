/* SPDX-License-Identifier: MIT */
/*
 * test_runapi.c - the run as an object driven by events (issue 3): usage
 * samples at least ten times a second, output streamed while the program
 * runs, violations announced live, cancel in the middle of a run, and the
 * API's own promises (events end at FINISHED, start refuses bad configs).
 */
#include "itest.h"

static void test_usage_samples_arrive_at_least_ten_times_a_second(void **state)
{
	char *name = it_name("samples");
	struct sp_config cfg = it_config(
		"import time\n"
		"t = time.monotonic()\n"
		"junk = []\n"
		"while time.monotonic() - t < 1.5:\n"
		"    junk.append(bytearray(1 << 16))\n"
		"    time.sleep(0.01)\n"
		"print('bye')\n", name);
	struct sp_run *run;
	struct sp_event ev;
	const struct sp_result *r;
	size_t n = 0;
	struct sp_usage prev = { 0 };
	bool monotonic = true, peak_ok = true, saw_procs = false;

	(void)state;
	run = it_start(&cfg);
	while (!sp_run_finished(run)) {
		struct pollfd p = { sp_run_fd(run), POLLIN, 0 };
		int t = sp_run_timeout_ms(run);
		if (t != 0)
			poll(&p, 1, t);
		while (sp_run_next_event(run, &ev) > 0) {
			if (ev.type != SP_EVENT_USAGE)
				continue;
			n++;
			if (ev.usage->wall_ms < prev.wall_ms || ev.usage->cpu_ms < prev.cpu_ms ||
			    ev.usage->peak_memory_bytes < prev.peak_memory_bytes ||
			    ev.usage->output_bytes < prev.output_bytes)
				monotonic = false;
			if (ev.usage->peak_memory_bytes < ev.usage->memory_bytes ||
			    ev.usage->procs_peak < ev.usage->procs)
				peak_ok = false;
			if (ev.usage->procs >= 1)
				saw_procs = true;
			prev = *ev.usage;
		}
	}
	r = sp_run_result(run);
	assert_non_null(r);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->usage.wall_ms >= 1500);
	/* ten a second over the run's own wall time, one short at either end
	 * (a busy machine wakes the sampler late: a bound on time) */
	IT_CHECK(r, n > 0);
	SP_TIMING(n + 2 >= r->usage.wall_ms / 100, "30 in 1,550 ms", "%zu usage samples in %llu ms",
		  n, (unsigned long long)r->usage.wall_ms);
	IT_CHECK(r, monotonic);
	IT_CHECK(r, peak_ok);
	IT_CHECK(r, saw_procs);
	IT_CHECK(r, prev.peak_memory_bytes > 0);
	sp_run_free(run);
	free(name);
}

/* The first line arrives while the program still runs; then cancel. */
static void test_output_streams_while_the_program_runs(void **state)
{
	char *name = it_name("stream");
	struct sp_config cfg = it_config("import time\n"
					 "print('first line')\n"
					 "time.sleep(30)\n"
					 "print('SECOND LINE')\n", name);
	struct sp_run *run;
	struct it_seen seen = { 0 };
	const struct sp_result *r;

	(void)state;
	cfg.limits.wall_ms = 60000;
	run = it_start(&cfg);
	assert_true(it_drive(run, &seen, "first line\n"));
	assert_false(sp_run_finished(run));
	assert_null(sp_run_result(run));
	sp_run_cancel(run);
	assert_false(it_drive(run, &seen, NULL));
	r = sp_run_result(run);
	assert_non_null(r);
	IT_CHECK(r, r->status == SP_STATUS_KILLED);
	IT_CHECK(r, it_contains(it_out(r), "first line"));
	IT_CHECK(r, !it_contains(it_out(r), "SECOND LINE"));
	IT_CHECK(r, !it_contains(seen.out, "SECOND LINE"));
	sp_run_free(run);
	free(seen.out);
	free(name);
}

/* Cancel a busy tree (threads, children, a setsid'd daemon) in the middle:
 * status killed, no limit blamed, nothing left on the host, and the event
 * stream ends for good. */
static void test_cancel_in_the_middle_kills_the_whole_tree(void **state)
{
	char *name = it_name("cancel");
	struct sp_config cfg = it_config(
		"import os, threading, time\n"
		"def spin():\n"
		"    while True:\n"
		"        pass\n"
		"for i in range(3):\n"
		"    if os.fork() == 0:\n"
		"        spin()\n"
		"if os.fork() == 0:\n"
		"    os.setsid()\n"
		"    if os.fork() == 0:\n"
		"        while True:\n"
		"            time.sleep(1)\n"
		"    os._exit(0)\n"
		"threading.Thread(target=spin, daemon=True).start()\n"
		"print('all busy', flush=True)\n"
		"spin()\n", name);
	struct sp_run *run;
	struct it_seen seen = { 0 };
	const struct sp_result *r;
	struct sp_event ev;

	(void)state;
	cfg.limits.cpu_ms = 120000;
	cfg.limits.wall_ms = 120000;
	run = it_start(&cfg);
	assert_true(it_drive(run, &seen, "all busy"));
	assert_true(it_host_procs_with(name) >= 4);
	sp_run_cancel(run);
	sp_run_cancel(run); /* twice is harmless */
	assert_false(it_drive(run, &seen, NULL));
	assert_true(seen.finished);
	r = sp_run_result(run);
	assert_non_null(r);
	IT_CHECK(r, r->status == SP_STATUS_KILLED);
	IT_CHECK(r, r->exit_code == -1);
	IT_CHECK(r, it_viol(r, SP_VIOL_CPU, NULL) == NULL);
	IT_CHECK(r, it_viol(r, SP_VIOL_WALL, NULL) == NULL);
	IT_CHECK(r, it_host_procs_with(name) == 0);
	/* after FINISHED: nothing more, ever, and no reason to poll */
	assert_int_equal(sp_run_next_event(run, &ev), 0);
	assert_int_equal(sp_run_next_event(run, &ev), 0);
	assert_true(sp_run_finished(run));
	assert_int_equal(sp_run_timeout_ms(run), -1);
	sp_run_cancel(run); /* and cancel after the end changes nothing */
	IT_CHECK(r, sp_run_result(run)->status == SP_STATUS_KILLED);
	sp_run_free(run);
	free(seen.out);
	free(name);
}

/* A denied call is announced as an event while the program goes on. */
static void test_violations_are_announced_live(void **state)
{
	char *name = it_name("liveviol");
	struct sp_config cfg = it_config(
		"import socket, time\n"
		"try:\n"
		"    socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
		"except OSError:\n"
		"    pass\n"
		"print('after the attempt')\n"
		"time.sleep(30)\n", name);
	struct sp_run *run;
	struct it_seen seen = { 0 };
	const struct sp_result *r;

	(void)state;
	cfg.limits.wall_ms = 60000;
	run = it_start(&cfg);
	assert_true(it_drive(run, &seen, "after the attempt"));
	assert_true(seen.n_violation_events >= 1);
	assert_false(sp_run_finished(run));
	sp_run_cancel(run);
	it_drive(run, &seen, NULL);
	r = sp_run_result(run);
	IT_CHECK(r, r->status == SP_STATUS_KILLED);
	IT_CHECK(r, it_viol(r, SP_VIOL_NETWORK, "socket(AF_INET, SOCK_STREAM)") != NULL);
	sp_run_free(run);
	free(seen.out);
	free(name);
}

/* The chunks handed out are exactly the output the result keeps. */
static void test_stdout_events_add_up_to_the_result(void **state)
{
	char *name = it_name("chunks");
	struct sp_config cfg = it_config(
		"import sys\n"
		"for i in range(20000):\n"
		"    sys.stdout.write('%06d abcdefghij\\n' % i)\n", name);
	struct sp_run *run;
	struct it_seen seen = { 0 };
	const struct sp_result *r;

	(void)state;
	run = it_start(&cfg);
	it_drive(run, &seen, NULL);
	r = sp_run_result(run);
	assert_non_null(r);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->out_len == 20000u * 18u);
	IT_CHECK(r, seen.out_len == r->out_len);
	IT_CHECK(r, memcmp(seen.out, r->out, r->out_len) == 0);
	IT_CHECK(r, it_contains(seen.out, "019999 abcdefghij\n"));
	sp_run_free(run);
	free(seen.out);
	free(name);
}

/*
 * One write on the channel can make one pump record hundreds of violations
 * (six kinds at 32 records each). Every event must still come out: each
 * record announced once, the output after the burst, and FINISHED. The
 * queue once held 64 events and dropped the rest, FINISHED among them,
 * and the event loop then spun forever.
 */
static void test_a_burst_of_records_loses_no_event(void **state)
{
	char *name = it_name("burst");
	struct sp_config cfg = it_config(
		"import os, sys\n"
		"kinds = (b'network', b'filesystem', b'process', b'syscall', b'memory', b'disk')\n"
		"os.write(3, b''.join(b'{\"t\": \"ev\", \"k\": \"%s\", \"what\": \"w%d\", \"line\": 1}\\n' % (k, i)\n"
		"                     for k in kinds for i in range(40)))\n"
		"sys.stdout.write('the line after the burst\\n')\n"
		"sys.stdout.flush()\n"
		"os._exit(0)\n", name);
	struct sp_run *run;
	struct it_seen seen = { 0 };
	const struct sp_result *r;

	(void)state;
	run = it_start(&cfg);
	it_drive(run, &seen, NULL);
	assert_true(sp_run_finished(run));
	r = sp_run_result(run);
	assert_non_null(r);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, r->n_violations == 6 * 32);
	IT_CHECK(r, seen.n_violation_events >= r->n_violations);
	IT_CHECK(r, seen.out && it_contains(seen.out, "the line after the burst"));
	sp_run_free(run);
	free(seen.out);
	free(name);
}

static void test_stdin_data_reaches_the_program(void **state)
{
	char *name = it_name("stdin");
	struct sp_config cfg = it_config("import sys\n"
					 "data = sys.stdin.read()\n"
					 "print('got', len(data), data.split()[-1])\n", name);
	struct sp_result *r;

	(void)state;
	cfg.stdin_data = "1 2 3\nlast-word\n";
	cfg.stdin_len = strlen(cfg.stdin_data);
	r = it_run_cfg(&cfg);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "got 16 last-word"));
	sp_result_free(r);
	free(name);
}

/* Freeing a run that is still going stops it and leaves nothing. */
static void test_freeing_a_running_run_stops_it(void **state)
{
	char *name = it_name("free");
	struct sp_config cfg = it_config("import time\n"
					 "print('up', flush=True)\n"
					 "time.sleep(60)\n", name);
	struct sp_run *run;
	struct it_seen seen = { 0 };

	(void)state;
	cfg.limits.wall_ms = 120000;
	run = it_start(&cfg);
	assert_true(it_drive(run, &seen, "up"));
	assert_true(it_host_procs_with(name) >= 1);
	sp_run_free(run);
	assert_int_equal(it_host_procs_with(name), 0);
	free(seen.out);
	free(name);
}

static void test_start_refuses_bad_configs_with_a_message(void **state)
{
	char *name = it_name("refuse");
	struct sp_config cfg;
	struct sp_run *run = NULL;
	struct sp_error err;

	(void)state;
	cfg = it_config("print(1)\n", name);
	cfg.python = "/nonexistent/python3";
	memset(&err, 0, sizeof err);
	assert_int_equal(sp_run_start(&cfg, &run, &err), -1);
	assert_null(run);
	assert_true(it_contains(err.msg, "/nonexistent/python3"));

	cfg = it_config("print(1)\n", name);
	cfg.python = "/usr";
	memset(&err, 0, sizeof err);
	assert_int_equal(sp_run_start(&cfg, &run, &err), -1);
	assert_true(err.msg[0] != '\0');

	cfg = it_config("print(1)\n", name);
	cfg.limits.memory_bytes = 1 << 20;
	memset(&err, 0, sizeof err);
	assert_int_equal(sp_run_start(&cfg, &run, &err), -1);
	assert_true(it_contains(err.msg, "memory"));

	cfg = it_config("print(1)\n", name);
	cfg.limits.wall_ms = 0;
	memset(&err, 0, sizeof err);
	assert_int_equal(sp_run_start(&cfg, &run, &err), -1);
	assert_true(err.msg[0] != '\0');
	free(name);
}

/* Several runs at once do not see each other. */
static void test_concurrent_runs_are_separate(void **state)
{
	char *name = it_name("together");
	struct sp_config a = it_config("import os, time\n"
				       "open('mine_a', 'w').close()\n"
				       "time.sleep(0.5)\n"
				       "print(sorted(set(os.listdir('.')) - {os.path.basename(__file__)}))\n",
				       name);
	struct sp_config b = it_config("import os, time\n"
				       "open('mine_b', 'w').close()\n"
				       "time.sleep(0.5)\n"
				       "print(sorted(set(os.listdir('.')) - {os.path.basename(__file__)}))\n",
				       name);
	struct sp_run *ra = it_start(&a), *rb = it_start(&b);
	struct it_seen sa = { 0 }, sb = { 0 };

	(void)state;
	while (!sp_run_finished(ra) || !sp_run_finished(rb)) {
		struct pollfd p[2] = { { sp_run_fd(ra), POLLIN, 0 }, { sp_run_fd(rb), POLLIN, 0 } };
		poll(p, 2, 100);
		it_drain(ra, &sa);
		it_drain(rb, &sb);
	}
	IT_CHECK(sp_run_result(ra), sp_run_result(ra)->status == SP_STATUS_OK);
	IT_CHECK(sp_run_result(rb), sp_run_result(rb)->status == SP_STATUS_OK);
	IT_CHECK(sp_run_result(ra), it_contains(sa.out, "['mine_a']"));
	IT_CHECK(sp_run_result(rb), it_contains(sb.out, "['mine_b']"));
	sp_run_free(ra);
	sp_run_free(rb);
	free(sa.out);
	free(sb.out);
	free(name);
}

/* The prelude compiles the program without running it (see _compile in
 * core/prelude.py): every line runs once, and every code object, nested
 * ones too, carries the program's own name; a syntax error names it. */
static void test_program_runs_once_under_its_own_name(void **state)
{
	char *name = it_name("once");
	struct sp_result *r;
	char *want;

	(void)state;
	r = it_run("import os\n"
		   "fd = os.open('/work/count', os.O_WRONLY | os.O_CREAT | os.O_APPEND)\n"
		   "os.write(fd, b'x')\n"
		   "def f():\n"
		   "    class C:\n"
		   "        def m(self): return 1\n"
		   "    return C.m.__code__.co_filename\n"
		   "print(os.path.getsize('/work/count'), __file__, f.__code__.co_filename, f())\n",
		   name);
	/* __file__ is the program's file in the work dir (test_main_module.c) */
	want = it_fmt("1 /work/%s %s %s\n", name, name, name);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, strcmp(it_out(r), want) == 0);
	sp_result_free(r);
	free(want);

	/* a compile-time warning names the program too */
	r = it_run("x = 1\nif x is 1:\n    print('one')\n", name);
	want = it_fmt("%s:2: SyntaxWarning", name);
	IT_CHECK(r, r->status == SP_STATUS_OK && strcmp(it_out(r), "one\n") == 0);
	IT_CHECK(r, it_contains(it_err(r), want) && !it_contains(it_err(r), "<string>"));
	sp_result_free(r);
	free(want);

	r = it_run("print('fine')\nx = (\n", name);
	IT_CHECK(r, r->status == SP_STATUS_ERROR);
	IT_CHECK(r, strcmp(it_out(r), "") == 0);
	want = it_fmt("File \"%s\", line 2", name);
	IT_CHECK(r, it_contains(it_err(r), want) && it_contains(it_err(r), "SyntaxError"));
	sp_result_free(r);
	free(want);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_usage_samples_arrive_at_least_ten_times_a_second),
		cmocka_unit_test(test_output_streams_while_the_program_runs),
		cmocka_unit_test(test_cancel_in_the_middle_kills_the_whole_tree),
		cmocka_unit_test(test_violations_are_announced_live),
		cmocka_unit_test(test_stdout_events_add_up_to_the_result),
		cmocka_unit_test(test_a_burst_of_records_loses_no_event),
		cmocka_unit_test(test_stdin_data_reaches_the_program),
		cmocka_unit_test(test_freeing_a_running_run_stops_it),
		cmocka_unit_test(test_start_refuses_bad_configs_with_a_message),
		cmocka_unit_test(test_concurrent_runs_are_separate),
		cmocka_unit_test(test_program_runs_once_under_its_own_name),
	};

	return cmocka_run_group_tests_name("integration/runapi", tests, NULL, NULL);
}
