/* SPDX-License-Identifier: MIT */
/*
 * test_cli.c - `sandpit run` as a person and a script use it: the exit
 * statuses of the contract (the program's own, 124 at a limit, 2 for bad
 * usage), bad input refused before anything runs, --json always one valid
 * object (output byte for byte), human mode, --stdin, and
 * SIGINT/SIGTERM cancelling cleanly.
 */
#include "itest.h"

#include <sys/file.h>

static void test_exit_status_is_the_programs_own(void **state)
{
	struct it_dir *f = *state;
	static const struct { const char *code; int status; } cases[] = {
		{ "print('fine')\n", 0 },
		{ "raise SystemExit(3)\n", 3 },
		{ "import sys\nsys.exit(42)\n", 42 },
		{ "import os\nos._exit(7)\n", 7 },
		{ "1 / 0\n", 1 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *prog = it_program(f, "exit", cases[i].code);
		const char *args[] = { "run", prog, NULL };
		struct it_cli c;

		it_cli(&c, false, args);
		IT_CLI_CHECK(&c, c.status == cases[i].status);
		it_cli_free(&c);
		free(prog);
	}
}

static void test_a_limit_exits_124(void **state)
{
	struct it_dir *f = *state;
	static const struct { const char *opt, *val, *code, *status; } cases[] = {
		{ "--cpu", "0.5", "while True: pass\n", "cpu_limit" },
		{ "--wall", "0.5", "import time\ntime.sleep(60)\n", "wall_limit" },
		{ "--memory", "64M", "b = bytearray(1 << 30)\n", "memory_limit" },
		{ "--output", "1K", "while True: print('z' * 80)\n", "output_limit" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *prog = it_program(f, "limit", cases[i].code);
		const char *args[] = { "run", "--json", cases[i].opt, cases[i].val, prog, NULL };
		struct it_cli c;

		it_cli(&c, true, args);
		IT_CLI_CHECK(&c, c.status == 124);
		IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), cases[i].status) == 0);
		IT_CLI_CHECK(&c, json_array_size(json_object_get(c.json, "violations")) >= 1);
		it_cli_free(&c);
		free(prog);
	}
}

/* Each is refused with exit 2 and a message, and runs nothing. */
static void test_bad_usage_exits_2_and_runs_nothing(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "usage", "print('PROGRAM RAN')\n");
	char *missing = it_fmt("%s/no-such-file.py", f->dir);
	const char *const cases[][8] = {
		{ "run", NULL },
		{ "run", missing, NULL },
		{ "run", f->dir, NULL },
		{ "run", prog, prog, NULL },
		{ "run", "--bogus", prog, NULL },
		{ "run", "--memory", "12Q", prog, NULL },
		{ "run", "--memory", "-5M", prog, NULL },
		{ "run", "--disk", "lots", prog, NULL },
		{ "run", "--cpu", "abc", prog, NULL },
		{ "run", "--wall", "0", prog, NULL },
		{ "run", "--procs", "0", prog, NULL },
		{ "run", "--procs", "many", prog, NULL },
		{ "run", "--cpu", NULL },
		{ "run", "--python", "/nonexistent/python3", prog, NULL },
		{ "run", "--stdin", missing, prog, NULL },
		{ "run", "--carry", missing, prog, NULL },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct it_cli c;

		it_cli(&c, false, cases[i]);
		print_message("case %zu: exit %d: %s", i, c.status, c.err);
		IT_CLI_CHECK(&c, c.status == 2);
		IT_CLI_CHECK(&c, c.out_len == 0);
		IT_CLI_CHECK(&c, c.err_len > 0);
		IT_CLI_CHECK(&c, it_contains(c.err, "sandpit"));
		it_cli_free(&c);
	}
	free(missing);
	free(prog);
}

/* With --json every refusal is still one JSON object on stdout, status
 * "refused" and the message stderr has, exit 2 as without it: a wrapper
 * always has something to parse. A file over the disk limit is one, with
 * both sizes in the message. */
static void test_json_refusals_are_one_object(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "refusedjson", "print('PROGRAM RAN')\n");
	char *missing = it_fmt("%s/no-such-file.py", f->dir);
	char *big = it_fmt("%s/big.csv", f->dir);
	const char *const cases[][8] = {
		{ "run", "--json", missing, NULL },
		{ "run", "--bogus", "--json", prog, NULL },
		{ "run", "--cpu", "abc", "--json", prog, NULL },
		{ "run", "--jso", "--procs", "0", prog, NULL },
		{ "run", "--json", "--carry", missing, prog, NULL },
		{ "run", "--json", "--disk", "1M", "--file", big, prog, NULL },
	};
	int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0 && ftruncate(fd, 2 << 20) == 0);
	close(fd);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct it_cli c;
		const char *msg;

		it_cli(&c, true, cases[i]);
		print_message("case %zu: exit %d: %s", i, c.status, c.out);
		IT_CLI_CHECK(&c, c.status == 2);
		IT_CLI_CHECK(&c, c.json != NULL);
		IT_CLI_CHECK(&c, !strcmp(json_string_value(json_object_get(c.json, "status")),
					 "refused"));
		msg = json_string_value(json_object_get(c.json, "message"));
		IT_CLI_CHECK(&c, msg && msg[0] && it_contains(c.err, msg));
		IT_CLI_CHECK(&c, !it_contains(c.out, "PROGRAM RAN"));
		if (i == 5)
			IT_CLI_CHECK(&c, it_contains(msg, "is 2 MiB") &&
					 it_contains(msg, "holds 1 MiB (the disk limit"));
		it_cli_free(&c);
	}
	unlink(big);
	free(big);
	free(missing);
	free(prog);
}

/* An unreadable program file (as root every file is readable: skipped). */
static void test_unreadable_program_exits_2(void **state)
{
	struct it_dir *f = *state;
	char *prog;
	const char *args[3] = { "run", NULL, NULL };
	struct it_cli c;

	if (geteuid() == 0)
		skip();
	prog = it_program(f, "unreadable", "print('PROGRAM RAN')\n");
	chmod(prog, 0);
	args[1] = prog;
	it_cli(&c, false, args);
	IT_CLI_CHECK(&c, c.status == 2);
	IT_CLI_CHECK(&c, c.out_len == 0);
	IT_CLI_CHECK(&c, it_contains(c.err, "Permission denied"));
	it_cli_free(&c);
	free(prog);
}

/* Interpreters and limits that cannot work are bad usage too (2), not a
 * sandbox failure (125), and the message names what was given. */
static void test_impossible_options_are_bad_usage(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "impossible", "print('PROGRAM RAN')\n");
	const char *const cases[][8] = {
		{ "run", "--python", f->dir, prog, NULL },
		{ "run", "--python", "python3", prog, NULL },
		{ "run", "--output", "0", prog, NULL },
		{ "run", "--memory", "1M", prog, NULL },
	};
	const char *const names[] = { "sandpit-itest-", "python3", "0", "1M" };
	int bad = 0;

	/* every case is tried, then the test fails once if any was wrong */
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct it_cli c;

		it_cli(&c, false, cases[i]);
		if (c.status != 2 || c.out_len != 0 || !it_contains(c.err, names[i])) {
			fprintf(stderr, "case %s %s: exit %d (want 2), stderr: %s",
				cases[i][1], cases[i][2], c.status, c.err);
			bad++;
		}
		it_cli_free(&c);
	}
	free(prog);
	assert_int_equal(bad, 0);
}

/* Whatever bytes the program writes, --json prints one valid object that
 * holds them all where they were (invalid bytes as lone surrogates). */
static void test_json_is_valid_whatever_the_output(void **state)
{
	struct it_dir *f = *state;
	static const char want_out[] =
		"A\xff\xfe" "B\xc3\x28" "C\x00" "D\xe2\x82" "E \xc3\xa9 \xf0\x9f\x98\x80\n"
		"\xed\xa0\x80 surrogate \xf4\x90\x80\x80 too big\n";
	static const char want_err[] = "err \x80\x81 \x1b[31mred\x1b[0m \"quoted\" \\ back\n";
	char *prog = it_program(f, "bytes",
		"import os\n"
		"os.write(1, b'A\\xff\\xfeB\\xc3\\x28C\\x00D\\xe2\\x82E \\xc3\\xa9 \\xf0\\x9f\\x98\\x80\\n')\n"
		"os.write(2, b'err \\x80\\x81 \\x1b[31mred\\x1b[0m \"quoted\" \\\\ back\\n')\n"
		"os.write(1, b'\\xed\\xa0\\x80 surrogate \\xf4\\x90\\x80\\x80 too big\\n')\n");
	const char *args[] = { "run", "--json", prog, NULL };
	struct it_cli c;
	char *out, *err;
	size_t out_len = 0, err_len = 0;

	it_cli(&c, true, args);
	IT_CLI_CHECK(&c, c.status == 0);
	out = se_bytes(it_jstr(c.json, "stdout"), json_string_length(json_object_get(c.json, "stdout")), &out_len);
	err = se_bytes(it_jstr(c.json, "stderr"), json_string_length(json_object_get(c.json, "stderr")), &err_len);
	IT_CLI_CHECK(&c, out_len == sizeof want_out - 1 && memcmp(out, want_out, out_len) == 0);
	IT_CLI_CHECK(&c, err_len == sizeof want_err - 1 && memcmp(err, want_err, err_len) == 0);
	IT_CLI_CHECK(&c, it_contains(c.out, "A\\udcff\\udcfeB\\udcc3(C\\u0000D\\udce2\\udc82E"));
	IT_CLI_CHECK(&c, json_is_string(json_object_get(c.json, "stdout_base64")));
	IT_CLI_CHECK(&c, json_is_string(json_object_get(c.json, "stderr_base64")));
	free(out);
	free(err);
	/* every field of the contract is there */
	{
		static const char *const keys[] = {
			"status", "exit_code", "signal", "stdout", "stderr", "truncated",
			"usage", "limits", "violations", "files", "carry_out", "layers",
		};
		static const char *const usage[] = {
			"cpu_ms", "wall_ms", "peak_memory_bytes", "procs_peak",
			"output_bytes", "disk_bytes",
		};
		static const char *const limits[] = {
			"cpu_ms", "wall_ms", "memory_bytes", "output_bytes", "disk_bytes", "procs",
		};
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
			IT_CLI_CHECK(&c, json_object_get(c.json, keys[i]) != NULL);
		for (size_t i = 0; i < sizeof usage / sizeof usage[0]; i++)
			IT_CLI_CHECK(&c, json_is_integer(json_object_get(
				json_object_get(c.json, "usage"), usage[i])));
		for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++)
			IT_CLI_CHECK(&c, json_is_integer(json_object_get(
				json_object_get(c.json, "limits"), limits[i])));
		IT_CLI_CHECK(&c, json_is_null(json_object_get(c.json, "signal")));
		IT_CLI_CHECK(&c, json_is_false(json_object_get(c.json, "truncated")));
		IT_CLI_CHECK(&c, json_is_null(json_object_get(c.json, "carry_out")));
	}
	it_cli_free(&c);
	free(prog);
}

/* A violation record in JSON has every field, with the right types. */
static void test_json_violation_records_are_complete(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "jviol",
		"import socket\n"
		"try:\n"
		"    socket.socket(socket.AF_INET6, socket.SOCK_STREAM)\n"
		"except OSError:\n"
		"    pass\n");
	const char *args[] = { "run", "--json", prog, NULL };
	struct it_cli c;
	json_t *v;

	it_cli(&c, true, args);
	IT_CLI_CHECK(&c, c.status == 0);
	v = it_jviol(c.json, "network", "AF_INET6");
	IT_CLI_CHECK(&c, v != NULL);
	IT_CLI_CHECK(&c, strcmp(it_jstr(v, "source"), "kernel") == 0);
	IT_CLI_CHECK(&c, json_integer_value(json_object_get(v, "line")) == 3);
	IT_CLI_CHECK(&c, json_integer_value(json_object_get(v, "count")) == 1);
	IT_CLI_CHECK(&c, strlen(it_jstr(v, "message")) > 40);
	it_cli_free(&c);
	free(prog);
}

/* Human mode: the program's output passes through; violations and a
 * one-line summary follow on stderr. */
static void test_human_mode_passes_output_through(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "human",
		"import sys, socket\n"
		"print('to stdout')\n"
		"sys.stderr.write('to stderr\\n')\n"
		"try:\n"
		"    socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
		"except OSError:\n"
		"    pass\n");
	const char *args[] = { "run", prog, NULL };
	struct it_cli c;
	const char *viol, *summary;

	it_cli(&c, false, args);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, strcmp(c.out, "to stdout\n") == 0);
	IT_CLI_CHECK(&c, strncmp(c.err, "to stderr\n", 10) == 0);
	viol = strstr(c.err, "socket(AF_INET, SOCK_DGRAM)");
	summary = strstr(c.err, "sandpit: ok");
	IT_CLI_CHECK(&c, viol != NULL);
	IT_CLI_CHECK(&c, summary != NULL && summary > viol);
	IT_CLI_CHECK(&c, it_contains(c.err, "line 5"));
	it_cli_free(&c);
	free(prog);
}

/* sandpit's own summary lines carry text the program chose (a file name,
 * a made-up report): it is shown, never obeyed, and cannot forge a line. */
static void test_the_summary_shows_program_text_inert(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "inert",
		"import os\n"
		"open('a\\x1b]0;pwned\\x07\\nsandpit: ok (exit 0) fake', 'w').write('x')\n"
		"os.write(3, b'{\"t\": \"ev\", \"k\": \"network\", \"line\": 3, \"what\": "
		"\"\\\\u001b[2J\\\\u009b\\\\nsandpit: forged\"}\\n')\n");
	const char *args[] = { "run", prog, NULL };
	struct it_cli c;

	it_cli(&c, false, args);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, strchr(c.err, '\x1b') == NULL);
	IT_CLI_CHECK(&c, strchr(c.err, '\x07') == NULL);
	IT_CLI_CHECK(&c, strstr(c.err, "\xc2\x9b") == NULL);
	IT_CLI_CHECK(&c, strstr(c.err, "\nsandpit: forged") == NULL);
	IT_CLI_CHECK(&c, strstr(c.err, "\nsandpit: ok (exit 0) fake") == NULL);
	IT_CLI_CHECK(&c, it_contains(c.err, "^[]0;pwned^G^Jsandpit: ok (exit 0) fake"));
	IT_CLI_CHECK(&c, it_contains(c.err, "^[[2J"));
	it_cli_free(&c);
	free(prog);
}

/* `sandpit run big.py | head -c 10`: the reader leaves early; sandpit
 * must neither die of SIGPIPE nor hang, and the program is not blamed. */
static void test_a_reader_that_leaves_early(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "early",
		"import sys\n"
		"for i in range(50):\n"
		"    sys.stdout.write('y' * 100000)\n");
	const char *args[] = { "run", "--output", "16M", prog, NULL };
	struct it_cli c;
	char first[10];

	it_cli_start(&c, args);
	assert_int_equal(read(c.out_fd, first, sizeof first), (ssize_t)sizeof first);
	close(c.out_fd);
	c.out_fd = -1;
	it_cli_finish(&c, false);
	IT_CLI_CHECK(&c, memcmp(first, "yyyyyyyyyy", sizeof first) == 0);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, it_contains(c.err, "sandpit: ok"));
	it_cli_free(&c);
	free(prog);
}

/* SIGKILL of sandpit itself (nothing can be cleaned up then): the kernel
 * must still take the whole sandbox down with it, through the
 * parent-death signal init re-arms after it changes credentials. */
static void test_killing_sandpit_kills_the_sandbox(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "orphan",
		"import time\n"
		"print('waiting', flush=True)\n"
		"time.sleep(300)\n");
	const char *base = strrchr(prog, '/') + 1;
	const char *args[] = { "run", "--wall", "600", "--cpu", "600", prog, NULL };
	struct it_cli c;
	char *cleanup;
	int tries = 0, st = 0, left;

	it_cli_start(&c, args);
	assert_true(it_cli_read(&c, "waiting\n"));
	assert_true(it_host_procs_with(base) >= 2);
	assert_int_equal(kill(c.pid, SIGKILL), 0);
	assert_int_equal(waitpid(c.pid, &st, 0), c.pid);
	/* not read to the end: a surviving sandbox could hold them open */
	close(c.out_fd);
	close(c.err_fd);
	while ((left = it_host_procs_with(base)) > 0 && ++tries < 250)
		usleep(20000);
	/* whatever survived (a failure), and the cgroups a killed sandpit
	 * could not remove (v1, as root) */
	cleanup = it_fmt("pkill -KILL -f '%s' 2>/dev/null; sleep 0.2; "
			 "find /sys/fs/cgroup -maxdepth 7 -depth -type d -name 'sandpit-%d-*' "
			 "-exec rmdir {} + 2>/dev/null", base, (int)c.pid);
	if (system(cleanup) < 0) { /* best effort */ }
	free(cleanup);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	assert_int_equal(left, 0);
	free(c.out);
	free(c.err);
	free(prog);
}

/* After the program, sandpit waits for a slow reader of its stdout as
 * cat would, but a SIGTERM then still ends it promptly. */
static void test_sigterm_ends_a_wait_for_a_stalled_reader(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "stalled",
		"import sys, time\n"
		"sys.stdout.write('z' * (4 << 20))\n"
		"sys.stdout.flush()\n");
	const char *base = strrchr(prog, '/') + 1;
	const char *args[] = { "run", "--output", "16M", "--wall", "2", prog, NULL };
	struct it_cli c;
	int st = 0, tries = 0;
	pid_t done = 0;

	it_cli_start(&c, args);
	/* nobody reads stdout: the pipes hold 2 MiB of the 4, the program
	 * blocks until the wall limit ends it; then only sandpit is left,
	 * waiting on the full stdout */
	while (it_host_procs_with(base) < 3 && ++tries < 1500)
		usleep(5000); /* sandpit, its init and the program */
	tries = 0;
	while (it_host_procs_with(base) != 1 && ++tries < 1500)
		usleep(20000);
	assert_int_equal(it_host_procs_with(base), 1);
	usleep(200000);
	assert_int_equal(kill(c.pid, SIGTERM), 0);
	tries = 0;
	while ((done = waitpid(c.pid, &st, WNOHANG)) == 0 && ++tries < 500)
		usleep(20000);
	if (done == 0) {
		kill(c.pid, SIGKILL);
		waitpid(c.pid, &st, 0);
	}
	close(c.out_fd);
	close(c.err_fd);
	assert_int_equal(done, c.pid);
	assert_true(WIFEXITED(st));
	free(prog);
}

/* The v1 pids directory sandpit makes its cgroups in, when it can (root,
 * cgroup v1); NULL otherwise. */
static char *v1_pids_parent(void)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[4096], *path = NULL;

	if (!f)
		return NULL;
	while (fgets(line, sizeof line, f)) {
		char *p = strstr(line, ":pids:");
		if (p && !path) {
			p += 6;
			p[strcspn(p, "\n")] = '\0';
			path = it_fmt("/sys/fs/cgroup/pids%s", strcmp(p, "/") ? p : "");
		}
	}
	fclose(f);
	if (path && (geteuid() != 0 || access(path, W_OK) < 0)) {
		free(path);
		path = NULL;
	}
	return path;
}

/* A sandpit killed outright leaves its cgroups behind; the next one
 * removes those that no sandpit holds (core/cgroup.c's lock), and only
 * those, whatever the pid in their names: a held one is kept though its
 * pid is gone, and a name of the older form (never held) is left alone.
 * test_cgroup_shared.c has the same across pid namespaces. */
static void test_stale_cgroups_of_dead_sandpits_are_removed(void **state)
{
	struct it_dir *f = *state;
	char *parent = v1_pids_parent(), *dead_dir, *held_dir, *old_dir, *prog;
	const char *args[] = { "run", NULL, NULL };
	struct it_cli c;
	struct stat st;
	pid_t dead;
	int held;

	if (!parent)
		skip(); /* cgroup v1 as root only */
	dead = fork();
	assert_true(dead >= 0);
	if (dead == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);
	dead_dir = it_fmt("%s/sandpit-%d-cafebabedeadbeef", parent, (int)dead);
	held_dir = it_fmt("%s/sandpit-%d-cafebabeaaaaaaaa", parent, (int)dead);
	old_dir = it_fmt("%s/sandpit-%d-0", parent, (int)dead);
	assert_int_equal(mkdir(dead_dir, 0755), 0);
	assert_int_equal(mkdir(held_dir, 0755), 0);
	assert_int_equal(mkdir(old_dir, 0755), 0);
	held = open(held_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(held >= 0);
	assert_int_equal(flock(held, LOCK_EX), 0);
	prog = it_program(f, "sweep", "print('ok')\n");
	args[1] = prog;
	it_cli(&c, false, args);
	close(held);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, stat(dead_dir, &st) < 0 && errno == ENOENT);
	IT_CLI_CHECK(&c, stat(held_dir, &st) == 0);
	IT_CLI_CHECK(&c, stat(old_dir, &st) == 0);
	rmdir(held_dir);
	rmdir(dead_dir);
	rmdir(old_dir);
	it_cli_free(&c);
	free(prog);
	free(dead_dir);
	free(held_dir);
	free(old_dir);
	free(parent);
}

static void test_stdin_file_and_program_from_stdin(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_program(f, "stdin", "import sys\nprint('read', sys.stdin.read().strip())\n");
	char *input = it_write(f->dir, "input.txt", "hello from a file\n", 18);
	const char *args[] = { "run", "--stdin", input, prog, NULL };
	struct it_cli c;

	it_cli(&c, false, args);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, strcmp(c.out, "read hello from a file\n") == 0);
	it_cli_free(&c);
	free(input);
	free(prog);
}

/* SIGINT or SIGTERM to `sandpit run` cancels the run: killed, and nothing
 * of it is left on the host. */
static void cancel_by_signal(struct it_dir *f, int sig, bool json)
{
	char *prog = it_program(f, sig == SIGINT ? "sigint" : "sigterm",
			     "import os, time\n"
			     "if os.fork() == 0:\n"
			     "    os.setsid()\n"
			     "    time.sleep(300)\n"
			     "print('waiting', flush=True)\n"
			     "time.sleep(300)\n");
	const char *base = strrchr(prog, '/') + 1;
	const char *args[] = { "run", "--wall", "600", "--cpu", "600", json ? "--json" : prog,
			       json ? prog : NULL, NULL };
	struct it_cli c;

	it_cli_start(&c, args);
	if (json) {
		/* --json prints nothing until the end: wait until the host
		 * shows sandpit, its init, the program and its child (each has
		 * the file name in its command line) */
		int tries = 0;
		while (it_host_procs_with(base) < 4) {
			assert_true(++tries < 1500);
			usleep(20000);
		}
	} else {
		assert_true(it_cli_read(&c, "waiting\n"));
	}
	assert_int_equal(kill(c.pid, sig), 0);
	it_cli_finish(&c, json);
	IT_CLI_CHECK(&c, c.status != 0 && c.status != 124 && c.status != 125);
	if (json)
		IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), "killed") == 0);
	else
		IT_CLI_CHECK(&c, it_contains(c.err, "sandpit: killed"));
	IT_CLI_CHECK(&c, it_host_procs_with(base) == 0);
	it_cli_free(&c);
	free(prog);
}

static void test_sigint_cancels_the_run(void **state)
{
	cancel_by_signal(*state, SIGINT, false);
}

static void test_sigterm_cancels_the_run(void **state)
{
	cancel_by_signal(*state, SIGTERM, true);
}

static void test_help_and_version(void **state)
{
	const char *help[] = { "--help", NULL };
	const char *version[] = { "--version", NULL };
	struct it_cli c;

	(void)state;
	it_cli(&c, false, help);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, it_contains(c.out, "--cpu"));
	IT_CLI_CHECK(&c, it_contains(c.out, "--carry-out"));
	it_cli_free(&c);
	it_cli(&c, false, version);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, it_contains(c.out, SP_VERSION));
	it_cli_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_exit_status_is_the_programs_own, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_a_limit_exits_124, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_json_refusals_are_one_object, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_bad_usage_exits_2_and_runs_nothing, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_program_exits_2, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_impossible_options_are_bad_usage, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_json_is_valid_whatever_the_output, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_json_violation_records_are_complete, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_human_mode_passes_output_through, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_the_summary_shows_program_text_inert, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_a_reader_that_leaves_early, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_killing_sandpit_kills_the_sandbox, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_sigterm_ends_a_wait_for_a_stalled_reader, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_stale_cgroups_of_dead_sandpits_are_removed, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_stdin_file_and_program_from_stdin, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_sigint_cancels_the_run, it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_sigterm_cancels_the_run, it_dir_setup, it_dir_teardown),
		cmocka_unit_test(test_help_and_version),
	};

	return cmocka_run_group_tests_name("integration/cli", tests, NULL, NULL);
}
