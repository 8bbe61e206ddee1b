/* SPDX-License-Identifier: MIT */
/*
 * test_cli_edges.c - `sandpit run` at its edges: host files that are not
 * regular files (a FIFO, /dev/zero) refused at once and never echoed, and
 * the exit status and summary of a run that ends oddly.
 */
#include "itest.h"

#include <sys/wait.h>
#include <time.h>

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* --carry, --stdin and the program itself as a FIFO with no writer, or as
 * /dev/zero: each is refused with exit 2 at once, saying what it is,
 * where it used to wait for a writer or read for ever. */
static void test_a_fifo_or_device_is_refused_not_waited_on(void **state)
{
	struct it_dir *f = *state;
	char *fifo = it_fmt("%s/fifo", f->dir);
	char *prog = it_write(f->dir, "p.py", "print(1)\n", 9);
	const char *cases[][3] = {
		{ "--carry", fifo, "FIFO" }, { "--carry", "/dev/zero", "character device" },
		{ "--stdin", fifo, "FIFO" }, { "--stdin", "/dev/zero", "character device" },
		{ "--carry", f->dir, "directory" },
	};

	assert_int_equal(mkfifo(fifo, 0600), 0);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *args[] = { "run", cases[i][0], cases[i][1], prog, NULL };
		struct it_cli c;
		double t0 = now_s();

		it_cli(&c, false, args);
		IT_CLI_CHECK(&c, c.status == 2);
		IT_CLI_CHECK(&c, it_contains(c.err, cases[i][2]));
		IT_CLI_CHECK(&c, it_contains(c.err, "regular file"));
		/* at once: a wait for a writer would last the run's wall limit */
		SP_TIMING(now_s() - t0 < 5.0, "0.01 s",
			  "%s %s refused in %.2f s", cases[i][0], cases[i][1], now_s() - t0);
		it_cli_free(&c);
	}
	{
		const char *args[] = { "run", fifo, NULL };
		struct it_cli c;

		it_cli(&c, false, args);
		IT_CLI_CHECK(&c, c.status == 2 && it_contains(c.err, "FIFO"));
		it_cli_free(&c);
	}
	free(prog);
	free(fifo);
}

/* A carry file that is not JSON is refused with where it went wrong, and
 * none of its text reaches stderr (as root, it may be a file the caller
 * should not have shown anyone). */
static void test_a_bad_carry_file_is_never_echoed(void **state)
{
	struct it_dir *f = *state;
	static const char *const bodies[] = {
		"{\"a\": 1,\nroot:SECRET-TOKEN:0:0\n}",
		"SECRET-TOKEN",
		"{\"a\": 1} SECRET-TOKEN",
		"{\"SECRET-TOKEN\x1b[2J\": 1}",
	};
	char *prog = it_write(f->dir, "p.py", "print(1)\n", 9);

	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		char *carry = it_write(f->dir, "c.json", bodies[i], strlen(bodies[i]));
		const char *args[] = { "run", "--carry", carry, prog, NULL };
		struct it_cli c;

		it_cli(&c, false, args);
		IT_CLI_CHECK(&c, c.status == 2);
		IT_CLI_CHECK(&c, !it_contains(c.err, "SECRET"));
		IT_CLI_CHECK(&c, i == 3 || it_contains(c.err, "line "));
		IT_CLI_CHECK(&c, i != 0 || it_contains(c.err, "line 2, column"));
		it_cli_free(&c);
		free(carry);
	}
	free(prog);
}

/* --carry-out is replaced atomically and durably: the temp file is fsynced,
 * renamed into place, and then its directory is fsynced, without which a
 * crash may lose the rename. Watched with strace on sandpit itself. */
static void test_carry_out_is_fsynced_with_its_directory(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_write(f->dir, "p.py", "carry(a=1)\n", 11);
	char *out = it_fmt("%s/out.json", f->dir);
	char *log = it_fmt("%s/strace.log", f->dir);
	/* LeakSanitizer cannot work under ptrace: off for this one run */
	char *qlog = it_shq(log), *qbin = it_shq(it_sandpit()), *qout = it_shq(out);
	char *qprog = it_shq(prog);
	char *cmd = it_fmt("ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
			   "strace -o %s -e trace=openat,fsync,rename %s run --carry-out %s %s "
			   ">/dev/null 2>&1", qlog, qbin, qout, qprog);
	char *text, *renamed, *dirfd_line, *synced, want_open[600], want_sync[32];
	int rc, fd = -1;

	if (system("strace -V >/dev/null 2>&1") != 0)
		skip(); /* strace is in .ci/deps.sh's full set */
	rc = system(cmd);
	assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
	text = it_slurp(log, NULL);
	assert_non_null(text);
	renamed = strstr(text, "rename(");
	if (!renamed || !strstr(renamed, "out.json\") = 0"))
		fail_msg("no rename into out.json:\n%s", text);
	/* the directory by its own name: strace writes a path's bytes that
	 * are not ASCII (a TMPDIR in UTF-8) as escapes */
	snprintf(want_open, sizeof want_open, "%s\", O_RDONLY|O_CLOEXEC|O_DIRECTORY) = ",
		 strrchr(f->dir, '/'));
	dirfd_line = strstr(renamed, want_open);
	if (!dirfd_line || sscanf(dirfd_line + strlen(want_open), "%d", &fd) != 1)
		fail_msg("the directory was not opened after the rename:\n%s", renamed);
	snprintf(want_sync, sizeof want_sync, "fsync(%d)", fd);
	synced = strstr(dirfd_line, want_sync);
	if (synced)
		synced += strspn(synced + strlen(want_sync), " ") + strlen(want_sync);
	if (!synced || strncmp(synced, "= 0", 3) != 0)
		fail_msg("the directory was not fsynced after the rename:\n%s", renamed);
	free(text);
	free(cmd);
	free(qlog);
	free(qbin);
	free(qout);
	free(qprog);
	free(log);
	free(out);
	free(prog);
}

/* A fake interpreter in its own prefix (not under /tmp, which the sandbox
 * makes its own): dir/bin/name with the text given. */
static char *fake_python(const char *dir, const char *name, const char *text)
{
	char *bin = it_fmt("%s/bin", dir);
	char *path;

	assert_true(mkdir(bin, 0755) == 0 || errno == EEXIST);
	chmod(dir, 0755);
	path = it_write(bin, name, text, strlen(text));
	chmod(path, 0755);
	free(bin);
	return path;
}

/* Pretends to be Python 3.6: runs the prelude under the real python3 with
 * sys.version_info set back. */
static const char py36[] =
	"#!/usr/bin/python3\n"
	"import sys\n"
	"sys.version_info = (3, 6, 9, 'final', 0)\n"
	"args = sys.argv[1:]\n"
	"while args and args[0].startswith('-'):\n"
	"    args.pop(0)\n"
	"sys.argv = args\n"
	"exec(compile(open(args[0]).read(), args[0], 'exec'), {'__name__': '__main__'})\n";
/* What Python 2.7 (and 3.0-3.3) say to -I */
static const char py2[] =
	"#!/bin/sh\n"
	"echo 'Unknown option: -I' >&2\n"
	"echo 'usage: python2 [option] ... [-c cmd | -m mod | file | -] [arg] ...' >&2\n"
	"exit 2\n";

/*
 * An interpreter sandpit cannot drive is refused, the minimum version
 * named, exit 125 (the sandbox could not run the program: not the
 * program's error, and not the command line's syntax): by its name before
 * anything runs (python2.7, python3.6), by the prelude's first word when
 * the name does not say (a wrapper that is really 3.6), and when the
 * interpreter ends before the prelude could speak (Python 2 refusing -I).
 * Never a traceback from the prelude reported as the program's error.
 */
static void test_an_interpreter_too_old_is_refused_with_the_minimum_named(void **state)
{
	struct it_dir *f = *state;
	char *dir = it_python_dir("sandpit-fakepy");
	char *prog = it_write(f->dir, "p.py", "print('PROGRAM RAN')\n", 21);
	const struct { const char *name, *text, *says; } cases[] = {
		{ "python3.6", "#!/bin/sh\necho FAKE RAN\n", "is Python 3.6; sandpit needs Python 3.8 or newer" },
		{ "python2.7", "#!/bin/sh\necho FAKE RAN\n", "is Python 2.7; sandpit needs Python 3.8 or newer" },
		{ "py36", py36, "runs Python 3.6; sandpit needs Python 3.8 or newer" },
		{ "py2", py2, "before sandpit's prelude could start, so the program never ran; sandpit needs Python 3.8" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *python = fake_python(dir, cases[i].name, cases[i].text);
		const char *human[] = { "run", "--python", python, prog, NULL };
		const char *json[] = { "run", "--json", "--python", python, prog, NULL };
		struct it_cli c;

		it_cli(&c, false, human);
		IT_CLI_CHECK(&c, c.status == 125);
		IT_CLI_CHECK(&c, it_contains(c.err, cases[i].says));
		IT_CLI_CHECK(&c, !it_contains(c.out, "RAN") && !it_contains(c.err, "RAN"));
		IT_CLI_CHECK(&c, !it_contains(c.err, "Traceback"));
		it_cli_free(&c);
		it_cli(&c, true, json);
		IT_CLI_CHECK(&c, c.status == 125);
		IT_CLI_CHECK(&c, strcmp(it_jstr(c.json, "status"), "sandbox_error") == 0);
		IT_CLI_CHECK(&c, it_contains(it_jstr(c.json, "error"), cases[i].says));
		/* nothing the program's: no runtime record (a fake made of sh may
		 * draw a kernel one, such as its SIGCHLD handler without a cgroup) */
		{
			size_t k;
			json_t *v;
			json_array_foreach(json_object_get(c.json, "violations"), k, v)
				IT_CLI_CHECK(&c, strcmp(it_jstr(v, "source"), "kernel") == 0);
		}
		it_cli_free(&c);
		free(python);
	}
	it_rmdir(it_fmt("%s/bin", dir));
	it_rmdir(dir);
	free(prog);
}

/* The version gate is the prelude's first statement, so every Python 3
 * that runs the file at all (3.4 has -I) must parse all of it: syntax
 * newer than 3.4 in the prelude would turn the clear refusal back into a
 * SyntaxError from sandpit's own file. Checked on the prelude a run gets. */
static void test_the_prelude_parses_as_python_3_4(void **state)
{
	struct it_dir *f = *state;
	static const char code[] =
		"import ast\n"
		"ast.parse(open('/sandpit/prelude.py').read(), feature_version=(3, 4))\n"
		"print('parses as 3.4')\n";
	char *prog = it_write(f->dir, "gate.py", code, sizeof code - 1);
	const char *args[] = { "run", prog, NULL };
	struct it_cli c;

	it_cli(&c, false, args);
	IT_CLI_CHECK(&c, c.status == 0 && it_contains(c.out, "parses as 3.4"));
	it_cli_free(&c);
	free(prog);
}

/* Killed by a signal it sent itself (no limit did): 128 + N, as a shell
 * reports it. */
static void test_a_signal_exits_128_plus_its_number(void **state)
{
	struct it_dir *f = *state;
	static const struct { const char *code; int status; } cases[] = {
		{ "import os\nos.kill(os.getpid(), 9)\n", 128 + 9 },
		{ "import os\nos.kill(os.getpid(), 15)\n", 128 + 15 },
		{ "import os, signal\nsignal.signal(signal.SIGSEGV, signal.SIG_DFL)\nos.kill(os.getpid(), 11)\n",
		  128 + 11 },
		{ "import os\nos._exit(3)\n", 3 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *prog = it_write(f->dir, "sig.py", cases[i].code, strlen(cases[i].code));
		const char *args[] = { "run", prog, NULL };
		struct it_cli c;

		it_cli(&c, false, args);
		IT_CLI_CHECK(&c, c.status == cases[i].status);
		it_cli_free(&c);
		free(prog);
	}
}

/* --output cutting the output mid-line: sandpit's own lines still start
 * lines of their own. */
static void test_the_summary_starts_its_own_line_after_a_cut(void **state)
{
	struct it_dir *f = *state;
	char *prog = it_write(f->dir, "cut.py", "import sys\nsys.stderr.write('e' * 100)\n", 39);
	const char *args[] = { "run", "--output", "10", prog, NULL };
	struct it_cli c;

	it_cli(&c, false, args);
	IT_CLI_CHECK(&c, c.status == 124);
	IT_CLI_CHECK(&c, strncmp(c.err, "eeeeeeeeee\nsandpit: ", 20) == 0);
	IT_CLI_CHECK(&c, !it_contains(c.err, "esandpit"));
	it_cli_free(&c);
	free(prog);
}

static void test_doctor_help_is_help(void **state)
{
	const char *args[] = { "doctor", "--help", NULL };
	const char *bad[] = { "doctor", "--bogus", NULL };
	struct it_cli c;

	(void)state;
	it_cli(&c, false, args);
	IT_CLI_CHECK(&c, c.status == 0);
	IT_CLI_CHECK(&c, it_contains(c.out, "usage: sandpit doctor"));
	IT_CLI_CHECK(&c, c.err_len == 0);
	it_cli_free(&c);
	it_cli(&c, false, bad);
	IT_CLI_CHECK(&c, c.status == 2);
	IT_CLI_CHECK(&c, it_contains(c.err, "sandpit doctor --help"));
	it_cli_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_fifo_or_device_is_refused_not_waited_on),
		cmocka_unit_test(test_a_bad_carry_file_is_never_echoed),
		cmocka_unit_test(test_carry_out_is_fsynced_with_its_directory),
		cmocka_unit_test(test_an_interpreter_too_old_is_refused_with_the_minimum_named),
		cmocka_unit_test(test_the_prelude_parses_as_python_3_4),
		cmocka_unit_test(test_a_signal_exits_128_plus_its_number),
		cmocka_unit_test(test_the_summary_starts_its_own_line_after_a_cut),
		cmocka_unit_test(test_doctor_help_is_help),
	};
	return cmocka_run_group_tests_name("cli edges", tests, it_dir_setup, it_dir_teardown);
}
