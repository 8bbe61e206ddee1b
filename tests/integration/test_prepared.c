/* SPDX-License-Identifier: MIT */
/*
 * test_prepared.c - prepared runs (issue 18), through real sandboxes: a
 * prepared run gives what a cold one gives (output, tracebacks, carry,
 * stdin, files, violations); CPU and wall limits count from the release;
 * runs from prepared sandboxes share nothing; a release that does not
 * match fails cleanly; freeing one leaves nothing behind; and a program
 * released into one sees nothing of its preparation.
 */
#include "prep.h"

/* A limit's violation says what was measured before the limit it names
 * ("CPU time 0.70 s of 0.70 s"): a busy machine moves the measure (the
 * kill lands at 0.70 s or 0.71 s), so those compare from the limit on;
 * every other violation word for word. */
static const char *measured_apart(const struct sp_violation *v)
{
	const char *of = NULL, *p = v->what;

	if (v->kind != SP_VIOL_CPU && v->kind != SP_VIOL_WALL && v->kind != SP_VIOL_MEMORY &&
	    v->kind != SP_VIOL_DISK)
		return v->what;
	while ((p = strstr(p, " of ")) != NULL)
		of = p++;
	return of ? of : v->what;
}

/* The same outcome, field by field: what a program can tell apart. */
static void same_outcome(const struct sp_result *cold, const struct sp_result *prep)
{
	IT_CHECK(prep, prep->prepared);
	IT_CHECK(cold, !cold->prepared);
	IT_CHECK(prep, prep->status == cold->status);
	IT_CHECK(prep, prep->exit_code == cold->exit_code);
	IT_CHECK(prep, prep->out_len == cold->out_len &&
		 memcmp(it_out(prep), it_out(cold), cold->out_len) == 0);
	IT_CHECK(prep, strcmp(it_err(prep), it_err(cold)) == 0);
	IT_CHECK(prep, (!prep->carry_out && !cold->carry_out) ||
		 (prep->carry_out && cold->carry_out &&
		  strcmp(prep->carry_out, cold->carry_out) == 0));
	IT_CHECK(prep, prep->n_violations == cold->n_violations);
	for (size_t i = 0; i < cold->n_violations && i < prep->n_violations; i++) {
		IT_CHECK(prep, prep->violations[i].kind == cold->violations[i].kind);
		IT_CHECK(prep, prep->violations[i].line == cold->violations[i].line);
		IT_CHECK(prep, strcmp(measured_apart(&prep->violations[i]),
				      measured_apart(&cold->violations[i])) == 0);
	}
	IT_CHECK(prep, prep->n_files == cold->n_files);
	for (size_t i = 0; i < cold->n_files && i < prep->n_files; i++) {
		IT_CHECK(prep, strcmp(prep->files[i].path, cold->files[i].path) == 0);
		IT_CHECK(prep, prep->files[i].bytes == cold->files[i].bytes);
	}
	IT_CHECK(prep, prep->n_files_in == cold->n_files_in);
	IT_CHECK(prep, prep->n_hints == cold->n_hints);
}

/* Run cfg cold and prepared; both results must agree. */
static void both_ways(const struct sp_config *cfg)
{
	struct sp_result *cold = it_run_cfg(cfg);
	struct sp_run *run = pt_run_cfg(cfg, NULL, 0);

	same_outcome(cold, sp_run_result(run));
	sp_result_free(cold);
	sp_run_free(run);
}

static void test_hello_as_cold(void **state)
{
	char *name = it_name("hello");
	struct sp_config cfg = it_config("print('hello from a prepared sandbox')\n", name);
	struct sp_run *run;
	char *json;

	/* numpy's import: CPU that registers even in clock ticks (without a
	 * CPU cgroup, /proc counts in 10 ms steps, and a bare start is 17 ms) */
	static const char *const pre[] = { "numpy" };

	(void)state;
	both_ways(&cfg);
	run = pt_run_cfg(&cfg, pre, 1);
	json = sp_result_to_json(sp_run_result(run));
	assert_non_null(json);
	IT_CHECK(sp_run_result(run), it_contains(json, "\"prepared\": true"));
	IT_CHECK(sp_run_result(run), it_contains(json, "\"prepare_ms\""));
	/* preparing costs CPU (Python's start); it is not the program's */
	IT_CHECK(sp_run_result(run), sp_run_result(run)->usage.prepare_ms > 0);
	free(json);
	sp_run_free(run);
	free(name);
}

static void test_traceback_names_the_line(void **state)
{
	char *name = it_name("trace");
	struct sp_config cfg = it_config("x = 1\n\ndef f():\n    raise KeyError('deep')\n\nf()\n", name);
	struct sp_run *run;
	char *want = it_fmt("File \"%s\", line 4, in f\n    raise KeyError('deep')", name);

	(void)state;
	both_ways(&cfg);
	run = pt_run_cfg(&cfg, NULL, 0);
	IT_CHECK(sp_run_result(run), it_contains(it_err(sp_run_result(run)), want));
	sp_run_free(run);
	free(want);
	free(name);
}

/* The end is Python's own, though the prepared prelude skips tearing
 * the preloaded modules down: threads joined, atexit run, the status. */
static void test_exit_as_cold(void **state)
{
	static const char *const progs[] = {
		"import sys, atexit, threading, time\n"
		"atexit.register(lambda: print('atexit ran'))\n"
		"threading.Thread(target=lambda: (time.sleep(0.2), print('thread ran'))).start()\n"
		"sys.exit(3)\n",
		"import sys\nsys.stdout.write('no newline')\nsys.exit('bye text')\n",
		"import sys\nsys.exit(None)\n",
		"import os\nprint('x', end='')\nos._exit(7)\n",
	};
	char *name = it_name("exit");

	(void)state;
	for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
		struct sp_config cfg = it_config(progs[i], name);
		both_ways(&cfg);
	}
	free(name);
}

static void test_carry_in_and_out(void **state)
{
	static const char in[] = "{\"n\": 41, \"rows\": [1, 2, 3]}";
	char *name = it_name("carry");
	struct sp_config cfg = it_config(
		"import os\nprint(n, rows, os.path.exists('carry.json'))\n"
		"carry(n=n + 1, total=sum(rows))\n", name);
	struct sp_run *run;

	(void)state;
	cfg.carry_in = in;
	cfg.carry_in_len = sizeof in - 1;
	both_ways(&cfg);
	run = pt_run_cfg(&cfg, NULL, 0);
	IT_CHECK(sp_run_result(run), it_contains(it_out(sp_run_result(run)), "41 [1, 2, 3] True"));
	IT_CHECK(sp_run_result(run), sp_run_result(run)->carry_out &&
		 it_contains(sp_run_result(run)->carry_out, "\"n\":42"));
	sp_run_free(run);
	free(name);
}

static void test_stdin_small_and_big(void **state)
{
	char *name = it_name("stdin");
	struct sp_config cfg = it_config(
		"import sys, hashlib\nd = sys.stdin.buffer.read()\n"
		"print(len(d), hashlib.sha256(d).hexdigest())\n", name);
	size_t big = (3u << 20) / 2 + 17;
	char *data = malloc(big);

	(void)state;
	assert_non_null(data);
	for (size_t i = 0; i < big; i++)
		data[i] = (char)(i * 131 + (i >> 9));
	/* none: EOF at once, as /dev/null gives */
	both_ways(&cfg);
	cfg.stdin_data = "3\n4\n";
	cfg.stdin_len = 4;
	both_ways(&cfg);
	cfg.stdin_data = data;
	cfg.stdin_len = big;
	both_ways(&cfg);
	free(data);
	free(name);
}

/* A program bigger than the release socket's buffer streams through. */
static void test_big_program(void **state)
{
	char *name = it_name("bigprog");
	size_t n = 3u << 20;
	char *code = malloc(n + 64);
	struct sp_config cfg;
	int at;

	(void)state;
	assert_non_null(code);
	at = snprintf(code, 64, "x = len('");
	memset(code + at, 'y', n);
	snprintf(code + at + n, 64, "')\nprint(x, input())\n");
	cfg = it_config(code, name);
	cfg.stdin_data = "with stdin too\n";
	cfg.stdin_len = strlen(cfg.stdin_data);
	both_ways(&cfg);
	free(code);
	free(name);
}

static void test_files_in_and_kept(void **state)
{
	char *name = it_name("files");
	char *dir = it_tmpdir(), *in = it_fmt("%s/data.csv", dir);
	char *keep_c = it_fmt("%s/kc", dir), *keep_p = it_fmt("%s/kp", dir);
	struct sp_file_in fi = { in, NULL };
	struct sp_config cfg = it_config(
		"rows = open('data.csv').read().split()\n"
		"open('out.txt', 'w').write(str(len(rows)))\nprint(rows)\n", name);
	struct sp_result *cold;
	struct sp_run *run;
	FILE *f = fopen(in, "w");
	char *kept;

	(void)state;
	assert_non_null(f);
	fputs("a\nb\nc\n", f);
	fclose(f);
	chmod(dir, 0755);
	chmod(in, 0644);
	cfg.files_in = &fi;
	cfg.n_files_in = 1;
	cfg.keep_dir = keep_c;
	cold = it_run_cfg(&cfg);
	cfg.keep_dir = keep_p;
	run = pt_run_cfg(&cfg, NULL, 0);
	same_outcome(cold, sp_run_result(run));
	kept = it_fmt("%s/out.txt", keep_p);
	f = fopen(kept, "r");
	IT_CHECK(sp_run_result(run), f != NULL);
	if (f) {
		char buf[16] = "";
		IT_CHECK(sp_run_result(run), fgets(buf, sizeof buf, f) && strcmp(buf, "3") == 0);
		fclose(f);
	}
	unlink(kept);
	free(kept);
	kept = it_fmt("%s/out.txt", keep_c);
	unlink(kept);
	free(kept);
	rmdir(keep_c);
	rmdir(keep_p);
	sp_result_free(cold);
	sp_run_free(run);
	unlink(in);
	rmdir(dir);
	free(dir);
	free(in);
	free(keep_c);
	free(keep_p);
	free(name);
}

static void test_violations_as_cold(void **state)
{
	static const char *const progs[] = {
		"import socket\nx = 1\ns = socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n",
		"x = 1\nopen('/etc/shadow')\n",
		"import ctypes\nlibc = ctypes.CDLL(None)\nlibc.ptrace(16, 1, 0, 0)\n",
		"open('/usr/lib/x', 'w')\n",
		"print('y' * 10000)\nimport time\ntime.sleep(5)\n",
		"while True:\n    pass\n",
		"import time\ntime.sleep(5)\n",
	};
	char *name = it_name("viol");

	(void)state;
	for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
		struct sp_config cfg = it_config(progs[i], name);
		cfg.limits.output_bytes = 4096;
		cfg.limits.cpu_ms = 700;
		cfg.limits.wall_ms = 700;
		if (i == 5)
			cfg.limits.wall_ms = 5000;
		both_ways(&cfg);
	}
	free(name);
}

/* The CPU limit counts from the release: preparing with numpy, pandas and
 * matplotlib costs far more than the 0.1 s this program has to spare. */
static void test_cpu_limit_counts_from_release(void **state)
{
	static const char *const pre[] = { "numpy", "pandas", "matplotlib.pyplot" };
	char *name = it_name("cpu");
	struct sp_config cfg = it_config(
		"import time\nt = time.process_time()\n"
		"while time.process_time() - t < 0.9:\n    pass\nprint('done')\n", name);
	struct sp_run *run;
	const struct sp_result *r;

	(void)state;
	cfg.limits.cpu_ms = 1000;
	run = pt_run_cfg(&cfg, pre, 3);
	r = sp_run_result(run);
	SP_TIMING(r->usage.prepare_ms > 100, "about 500 ms",
		  "preparing numpy, pandas, matplotlib took %llu ms",
		  (unsigned long long)r->usage.prepare_ms);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "done"));
	IT_CHECK(r, r->usage.cpu_ms < 1000);
	sp_run_free(run);

	/* and it still stops a program that goes over */
	cfg = it_config("while True:\n    pass\n", name);
	cfg.limits.cpu_ms = 1000;
	run = pt_run_cfg(&cfg, pre, 3);
	r = sp_run_result(run);
	IT_CHECK(r, r->status == SP_STATUS_CPU_LIMIT);
	IT_CHECK(r, it_viol(r, SP_VIOL_CPU, NULL) != NULL);
	sp_run_free(run);
	free(name);
}

/* The wall limit counts from the release: waiting 5 s prepared costs the
 * program nothing. The program itself needs a moment of its 4 s (a busy
 * machine's moment is still far below them); had the wait counted, it
 * would end at the limit before its first line. */
static void test_wall_limit_counts_from_release(void **state)
{
	char *name = it_name("wall");
	struct sp_config cfg = it_config("print('woke')\n", name);
	struct sp_run *run;
	const struct sp_result *r;

	(void)state;
	cfg.limits.wall_ms = 4000;
	run = pt_prepare(&cfg.limits, NULL, 0);
	sleep(5);
	pt_release_drive(run, &cfg);
	r = sp_run_result(run);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "woke"));
	IT_CHECK(r, r->usage.wall_ms < 4000);
	/* the timeline starts at the release too */
	IT_CHECK(r, r->n_samples > 0 && r->samples[r->n_samples - 1].t_ms < 4000);
	sp_run_free(run);
	free(name);
}

/* Runs, each from its own prepared sandbox, one prepared while the last
 * runs (as the playground keeps one ready): none sees anything the one
 * before it left, in files, globals or the preloaded modules' state. */
static void runs_share_nothing(int runs)
{
	static const char *const pre[] = { "numpy", "matplotlib.pyplot" };
	char *name = it_name("share");
	struct sp_config cfg = it_config(
		"import os, builtins, sys, numpy, matplotlib\n"
		"seen = []\n"
		"me = {os.path.basename(__file__)}\n"
		"if set(os.listdir('/work')) - me: seen.append('work: %r' % os.listdir('/work'))\n"
		"if set(os.listdir('/tmp')) - me: seen.append('tmp: %r' % os.listdir('/tmp'))\n"
		"if hasattr(builtins, 'left_by_last'): seen.append('builtins')\n"
		"if 'left_mod' in sys.modules: seen.append('sys.modules')\n"
		"if matplotlib.rcParams['lines.linewidth'] != 1.5: seen.append('rcParams')\n"
		"numpy.random.seed(1234)\nseeded = numpy.random.random()\n"
		"import random\n"
		"print('SEEN', seen)\n"
		"open('/work/left.txt', 'w').write('x')\nopen('/tmp/left.txt', 'w').write('x')\n"
		"builtins.left_by_last = 1\nsys.modules['left_mod'] = sys\n"
		"matplotlib.rcParams['lines.linewidth'] = 7\n"
		"numpy.random.seed(1234)\n", name);
	struct sp_config probe = it_config(
		"import numpy\nprint('R', numpy.random.random())\n", name);
	struct sp_run *next = NULL;
	char first_r[64] = "";

	if (runs < 2)
		runs = 2;
	next = pt_prepare(&cfg.limits, pre, 2);
	for (int i = 0; i < runs; i++) {
		struct sp_run *run = next;
		const struct sp_result *r;
		bool is_probe = i % 10 == 9;

		next = pt_prepare(&cfg.limits, pre, 2);
		pt_release_drive(run, is_probe ? &probe : &cfg);
		r = sp_run_result(run);
		IT_CHECK(r, r->status == SP_STATUS_OK);
		IT_CHECK(r, r->prepared);
		if (is_probe) {
			/* a fresh generator, not the last run's seed 1234 */
			const char *o = it_out(r);
			IT_CHECK(r, !it_contains(o, "R 0.1915194503788923"));
			IT_CHECK(r, strcmp(o, first_r) != 0);
			snprintf(first_r, sizeof first_r, "%s", o);
		} else {
			IT_CHECK(r, it_contains(it_out(r), "SEEN []"));
		}
		sp_run_free(run);
	}
	sp_run_free(next);
	free(name);
}

/* Ten in make check (a probe among them), */
static void test_runs_share_nothing(void **state)
{
	(void)state;
	runs_share_nothing(10);
}

/* and 100 (SANDPIT_PREPARED_RUNS) in make check-long: a leak that shows
 * only after many runs. */
static void long_runs_share_nothing(void **state)
{
	const char *env = getenv("SANDPIT_PREPARED_RUNS");

	(void)state;
	SP_TIER_LONG();
	runs_share_nothing(env ? atoi(env) : 100);
}

static void test_release_must_match(void **state)
{
	char *name = it_name("match");
	struct sp_config cfg = it_config("print('ran')\n", name);
	struct sp_limits l;
	struct sp_run *run;
	struct sp_error err = { "" };

	(void)state;
	sp_limits_default(&l);
	run = pt_prepare(&l, NULL, 0);
	cfg.limits.memory_bytes = 256u << 20;
	assert_int_equal(sp_run_release(run, &cfg, &err), -1);
	assert_true(it_contains(err.msg, "other limits"));
	assert_true(sp_run_ready(run));
	cfg.limits = l;
	cfg.python = "/bin/sh";
	assert_int_equal(sp_run_release(run, &cfg, &err), -1);
	assert_true(it_contains(err.msg, "prepared for /usr/bin/python3"));
	assert_true(sp_run_ready(run));
	/* a bad carry-in is refused the same way, the run untouched */
	cfg.python = NULL;
	cfg.carry_in = "[1]";
	cfg.carry_in_len = 3;
	assert_int_equal(sp_run_release(run, &cfg, &err), -1);
	assert_true(sp_run_ready(run));
	cfg.carry_in = NULL;
	cfg.carry_in_len = 0;
	pt_release_drive(run, &cfg);
	IT_CHECK(sp_run_result(run), it_contains(it_out(sp_run_result(run)), "ran"));
	/* used once */
	assert_int_equal(sp_run_release(run, &cfg, &err), -1);
	assert_true(it_contains(err.msg, "released already"));
	sp_run_free(run);

	/* a cold run is not a prepared one */
	run = it_start(&cfg);
	assert_int_equal(sp_run_release(run, &cfg, &err), -1);
	assert_false(sp_run_ready(run));
	sp_run_free(run);
	free(name);
}

static void test_preloaded_names_what_imported(void **state)
{
	static const char *const pre[] = { "json", "no_such_module_sandpit", "csv" };
	static const char *const bad[] = { "os; print(1)" };
	struct sp_limits l;
	struct sp_prepare p;
	struct sp_run *run;
	struct sp_error err = { "" };
	char *name = it_name("pre");
	struct sp_config cfg = it_config(
		"import sys\nprint('json' in sys.modules, 'csv' in sys.modules)\n", name);

	(void)state;
	l = cfg.limits;
	run = pt_prepare(&l, pre, 3);
	assert_string_equal(sp_run_preloaded(run), "json, csv");
	pt_release_drive(run, &cfg);
	IT_CHECK(sp_run_result(run), it_contains(it_out(sp_run_result(run)), "True True"));
	sp_run_free(run);
	memset(&p, 0, sizeof p);
	p.limits = l;
	p.preload = bad;
	p.n_preload = 1;
	assert_int_equal(sp_run_prepare(&p, &run, &err), -1);
	assert_true(it_contains(err.msg, "not a module name"));
	free(name);
}

/* Freed while preparing, while ready, after a failed release, and
 * cancelled while ready: no process, cgroup, temp entry or fd stays. */
static void test_free_leaves_nothing(void **state)
{
	/* the marker rides in the interpreter's command line as a module
	 * that does not exist (skipped) */
	char *marker = it_fmt("no_such_marker_%d", (int)getpid());
	const char *pre[] = { marker };
	struct sp_limits l;
	struct sp_prepare p;
	long cg0, tmp0, fd0;
	struct sp_error err = { "" };

	(void)state;
	sp_limits_default(&l);
	{
		/* warm caches that stay (libseccomp's, the name counter's) */
		struct sp_run *w = pt_prepare(&l, pre, 1);
		sp_run_free(w);
	}
	cg0 = leak_count_cgroups();
	tmp0 = leak_count_tmp("/tmp", NULL);
	fd0 = leak_count_fds();
	for (int i = 0; i < 8; i++) {
		struct sp_run *run;
		memset(&p, 0, sizeof p);
		p.limits = l;
		p.preload = pre;
		p.n_preload = 1;
		if (i % 4 == 0) {
			assert_int_equal(sp_run_prepare(&p, &run, &err), 0);
		} else {
			run = pt_prepare(&l, pre, 1);
			assert_int_equal(it_host_procs_with(marker) >= 1, 1);
		}
		if (i % 4 == 2) {
			struct sp_config cfg = it_config("print(1)\n", "x.py");
			cfg.limits.cpu_ms = 1;
			assert_int_equal(sp_run_release(run, &cfg, &err), -1);
		}
		if (i % 4 == 3) {
			struct it_seen seen = { 0 };
			sp_run_cancel(run);
			it_drive(run, &seen, NULL);
			free(seen.out);
			assert_int_equal(sp_run_result(run)->status, SP_STATUS_KILLED);
		}
		sp_run_free(run);
	}
	it_wait_gone(marker, cg0);
	assert_int_equal(it_host_procs_with(marker), 0);
	assert_int_equal(leak_count_cgroups(), cg0);
	assert_int_equal(leak_count_tmp("/tmp", NULL), tmp0);
	if (leak_count_fds() != fd0)
		leak_print_fds(); /* say which, for the log */
	assert_int_equal(leak_count_fds(), fd0);
	free(marker);
}

/* Preparing that fails says so: an interpreter that dies before it is
 * ready ends the run as sandbox_error with its words, and nothing of a
 * program ran; one cancelled while preparing ends as killed. */
static void test_failed_preparation_is_explained(void **state)
{
	static const char crash[] =
		"#!/usr/bin/python3\n"
		"import os\n"
		"os.write(3, b'{\"t\": \"hello\", \"python\": [3, 11, 2]}\\n')\n"
		"os.write(2, b'the fake interpreter fell over\\n')\n"
		"os._exit(9)\n";
	char *dir = it_python_dir("sandpit-fakepy"), *bin, *python;
	struct sp_prepare p;
	struct sp_run *run;
	struct sp_error err = { "" };
	struct it_seen seen = { 0 };
	const struct sp_result *r;

	(void)state;
	chmod(dir, 0755);
	bin = it_fmt("%s/bin", dir);
	assert_int_equal(mkdir(bin, 0755), 0);
	python = it_write(bin, "python3", crash, sizeof crash - 1);
	chmod(python, 0755);
	memset(&p, 0, sizeof p);
	sp_limits_default(&p.limits);
	p.python = python;
	assert_int_equal(sp_run_prepare(&p, &run, &err), 0);
	it_drive(run, &seen, NULL);
	r = sp_run_result(run);
	IT_CHECK(r, r->status == SP_STATUS_SANDBOX_ERROR);
	IT_CHECK(r, it_contains(r->error, "ended before its release (exit 9)"));
	IT_CHECK(r, it_contains(r->error, "the fake interpreter fell over"));
	IT_CHECK(r, !r->prepared);
	assert_false(sp_run_ready(run));
	sp_run_free(run);
	free(seen.out);
	unlink(python);
	rmdir(bin);
	rmdir(dir);
	free(dir);
	free(python);
	free(bin);

	memset(&seen, 0, sizeof seen);
	p.python = NULL;
	assert_int_equal(sp_run_prepare(&p, &run, &err), 0);
	sp_run_cancel(run);
	it_drive(run, &seen, NULL);
	free(seen.out);
	r = sp_run_result(run);
	IT_CHECK(r, r->status == SP_STATUS_KILLED);
	sp_run_free(run);
}

/* ---- hostile: what a released program can see of its preparation ---- */

static void test_program_sees_no_release_socket(void **state)
{
	char *name = it_name("relfd");
	struct sp_config cfg = it_config(
		"import os, stat\n"
		"fds = sorted(int(x) for x in os.listdir('/proc/self/fd'))\n"
		"print('FDS', fds)\n"
		"for fd in range(4, 64):\n"
		"    try:\n"
		"        os.fstat(fd)\n"
		"        print('OPEN', fd, os.readlink('/proc/self/fd/%d' % fd))\n"
		"    except OSError:\n"
		"        pass\n"
		"print('STDIN', stat.S_ISCHR(os.fstat(0).st_mode))\n"
		"import __main__\n"
		"print('BODY', [k for k in vars(__main__) if 'release' in k.lower()])\n", name);
	struct sp_run *run;
	const struct sp_result *r;

	(void)state;
	run = pt_run_cfg(&cfg, NULL, 0);
	r = sp_run_result(run);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	/* 0, 1, 2, the channel, and the listing's own fd */
	IT_CHECK(r, it_contains(it_out(r), "FDS [0, 1, 2, 3, 4]"));
	IT_CHECK(r, !it_contains(it_out(r), "OPEN"));
	IT_CHECK(r, it_contains(it_out(r), "STDIN True")); /* /dev/null, as cold */
	sp_run_free(run);
	free(name);
}

/* A program cannot reach the next program: each sandbox has its own
 * release socket, closed before the program's first line, and nothing
 * it leaves (a process that waits, files) outlives it into the next. */
static void test_program_cannot_reach_the_next(void **state)
{
	char *name = it_name("next");
	struct sp_config spy = it_config(
		"import os, socket\n"
		"found = []\n"
		"for pid in os.listdir('/proc'):\n"
		"    if pid.isdigit():\n"
		"        try:\n"
		"            for fd in os.listdir('/proc/%s/fd' % pid):\n"
		"                found.append(os.readlink('/proc/%s/fd/%s' % (pid, fd)))\n"
		"        except OSError:\n"
		"            pass\n"
		"print('SOCKETS', [f for f in found if f.startswith('socket:')])\n"
		"if os.fork() == 0:\n"
		"    import time\n"
		"    time.sleep(30)\n"
		"    os._exit(0)\n", name);
	struct sp_config victim = it_config(
		"secret = 'NEXT-PROGRAM-SECRET'\nimport os\n"
		"print('PIDS', sorted(int(p) for p in os.listdir('/proc') if p.isdigit()))\n", name);
	struct sp_run *a, *b;
	const struct sp_result *r;

	(void)state;
	a = pt_prepare(&spy.limits, NULL, 0);
	b = pt_prepare(&spy.limits, NULL, 0);
	pt_release_drive(a, &spy);
	r = sp_run_result(a);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "SOCKETS []"));
	pt_release_drive(b, &victim);
	r = sp_run_result(b);
	IT_CHECK(r, r->status == SP_STATUS_OK);
	/* its own pid namespace: init and the interpreter; the spy's child,
	 * asleep for 30 s, is not among them */
	IT_CHECK(r, it_contains(it_out(r), "PIDS [1, 2]\n"));
	sp_run_free(a);
	sp_run_free(b);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hello_as_cold),
		cmocka_unit_test(test_traceback_names_the_line),
		cmocka_unit_test(test_exit_as_cold),
		cmocka_unit_test(test_carry_in_and_out),
		cmocka_unit_test(test_stdin_small_and_big),
		cmocka_unit_test(test_big_program),
		cmocka_unit_test(test_files_in_and_kept),
		cmocka_unit_test(test_violations_as_cold),
		cmocka_unit_test(test_cpu_limit_counts_from_release),
		cmocka_unit_test(test_wall_limit_counts_from_release),
		cmocka_unit_test(test_release_must_match),
		cmocka_unit_test(test_preloaded_names_what_imported),
		cmocka_unit_test(test_free_leaves_nothing),
		cmocka_unit_test(test_failed_preparation_is_explained),
		cmocka_unit_test(test_program_sees_no_release_socket),
		cmocka_unit_test(test_program_cannot_reach_the_next),
		cmocka_unit_test(test_runs_share_nothing),
		cmocka_unit_test(long_runs_share_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
