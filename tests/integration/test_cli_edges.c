/*
 * test_cli_edges.c - `sandpit run` at its edges: host files that are not
 * regular files (a FIFO, /dev/zero) refused at once and never echoed, and
 * the exit status and summary of a run that ends oddly.
 */
#include "itest.h"

#include <sys/wait.h>
#include <time.h>

struct fixture {
	char *dir;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof *f);

	f->dir = it_tmpdir();
	chmod(f->dir, 0755);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	it_rmdir(f->dir);
	free(f);
	return 0;
}

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
	struct fixture *f = *state;
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
		IT_CLI_CHECK(&c, now_s() - t0 < 5.0);
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
	struct fixture *f = *state;
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
	struct fixture *f = *state;
	char *prog = it_write(f->dir, "p.py", "carry(a=1)\n", 11);
	char *out = it_fmt("%s/out.json", f->dir);
	char *log = it_fmt("%s/strace.log", f->dir);
	char *cmd = it_fmt("strace -o %s -e trace=openat,fsync,rename %s run --carry-out %s %s "
			   ">/dev/null 2>&1", log, it_sandpit(), out, prog);
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
	snprintf(want_open, sizeof want_open, "openat(AT_FDCWD, \"%s\", O_RDONLY|O_CLOEXEC|O_DIRECTORY) = ",
		 f->dir);
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
	free(log);
	free(out);
	free(prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_fifo_or_device_is_refused_not_waited_on),
		cmocka_unit_test(test_a_bad_carry_file_is_never_echoed),
		cmocka_unit_test(test_carry_out_is_fsynced_with_its_directory),
	};
	return cmocka_run_group_tests_name("cli edges", tests, setup, teardown);
}
