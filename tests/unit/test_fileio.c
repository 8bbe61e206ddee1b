/* SPDX-License-Identifier: MIT */
/*
 * test_fileio.c - the playground's one reader and one atomic writer
 * (tui/text/fileio.c): a FIFO or a device is refused at once, never waited on;
 * a file over the cap is refused, one of exactly the cap read; a
 * replaced file has the new bytes and mode, and leaves no temp file
 * behind, on success or failure. (That the directory is fsynced after
 * the rename is watched with strace in tests/integration/test_cli_edges.c.)
 */
#include "testlib.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text/fileio.h"

static char dir[] = "/tmp/sandpit-fileio-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static char *path_of(const char *name)
{
	static char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return p;
}

static void write_bytes(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* Files in dir, the hidden temp files included. */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void test_a_fifo_or_a_device_is_refused_not_waited_on(void **state)
{
	struct fio_error e;
	size_t len = 99;
	char *fifo = path_of("fifo");

	(void)state;
	assert_int_equal(mkfifo(fifo, 0600), 0);
	alarm(5); /* a reader that waits for a writer fails here, not hangs */
	assert_null(fio_read(fifo, 1024, 0, &len, &e));
	assert_int_equal(e.kind, FIO_NOT_REGULAR);
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(e.msg, "is a FIFO (named pipe), not a regular file"));
	assert_null(fio_read("/dev/zero", 1024, 0, &len, &e));
	assert_int_equal(e.kind, FIO_NOT_REGULAR);
	assert_non_null(strstr(e.msg, "a character device"));
	assert_null(fio_read(dir, 1024, 0, &len, &e));
	assert_non_null(strstr(e.msg, "is a directory"));
	alarm(0);
	unlink(fifo);
}

static void test_the_cap_is_exact_and_a_missing_file_says_enoent(void **state)
{
	struct fio_error e;
	size_t len = 0;
	char *p = path_of("ten"), *text;

	(void)state;
	write_bytes(p, "0123456789", 10);
	text = fio_read(p, 10, 0, &len, &e);
	assert_non_null(text);
	assert_int_equal(len, 10);
	assert_string_equal(text, "0123456789"); /* '\0' after the bytes */
	free(text);
	assert_null(fio_read(p, 9, 0, &len, &e));
	assert_int_equal(e.kind, FIO_TOO_BIG);
	assert_int_equal(errno, EFBIG);
	assert_non_null(strstr(e.msg, "is over 9 bytes"));
	unlink(p);
	assert_null(fio_read(p, 10, 0, &len, &e));
	assert_int_equal(e.kind, FIO_OPEN);
	assert_int_equal(e.err, ENOENT);
	assert_non_null(strstr(e.msg, "cannot open"));
}

/* FIO_PREFIX: the first max bytes of a longer file, and its size. */
static void test_a_prefix_reads_the_first_bytes_and_the_size(void **state)
{
	struct fio_error e;
	size_t len = 0;
	char *p = path_of("long"), *text;

	(void)state;
	write_bytes(p, "0123456789", 10);
	text = fio_read(p, 4, FIO_PREFIX, &len, &e);
	assert_non_null(text);
	assert_int_equal(len, 4);
	assert_string_equal(text, "0123");
	assert_int_equal(e.size, 10);
	free(text);
	unlink(p);
}

static void test_a_pipe_is_read_only_when_asked(void **state)
{
	struct fio_error e;
	size_t len = 0;
	int p[2];
	char *text;

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "abc", 3), 3);
	close(p[1]);
	assert_null(fio_read_fd(p[0], "pipe", 100, 0, &len, &e));
	assert_int_equal(e.kind, FIO_NOT_REGULAR);
	text = fio_read_fd(p[0], "pipe", 100, FIO_ANY_TYPE, &len, &e);
	assert_non_null(text);
	assert_int_equal(len, 3);
	assert_memory_equal(text, "abc", 3);
	free(text);
	close(p[0]);
}

static void test_nofollow_refuses_a_symlink(void **state)
{
	struct fio_error e;
	size_t len;
	char target[256], link[256];

	(void)state;
	snprintf(target, sizeof target, "%s", path_of("target"));
	snprintf(link, sizeof link, "%s", path_of("link"));
	write_bytes(target, "x", 1);
	assert_int_equal(symlink(target, link), 0);
	assert_null(fio_read(link, 10, FIO_NOFOLLOW, &len, &e));
	assert_int_equal(e.kind, FIO_OPEN);
	free(fio_read(link, 10, 0, &len, &e));
	unlink(link);
	unlink(target);
}

static void test_replace_renames_over_with_the_mode_and_leaves_no_temp(void **state)
{
	struct fio_error e;
	struct stat st;
	char err[1200], *p = path_of("out.txt"), *text;
	size_t len;

	(void)state;
	write_bytes(p, "old contents", 12);
	assert_int_equal(fio_replace(p, "new", 3, 0640, err, sizeof err), 0);
	text = fio_read(p, 100, 0, &len, &e);
	assert_non_null(text);
	assert_string_equal(text, "new");
	free(text);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(entries(), 1);
	unlink(p);
}

static void test_a_failed_replace_keeps_nothing_and_says_why(void **state)
{
	char err[1200], *p = path_of("no-such-dir/out.txt");

	(void)state;
	assert_int_equal(fio_replace(p, "new", 3, 0600, err, sizeof err), -1);
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "no-such-dir/out.txt: "));
	assert_int_equal(entries(), 0);
	/* the target is a directory: rename refuses, the temp file goes */
	assert_int_equal(mkdir(path_of("adir"), 0700), 0);
	assert_int_equal(fio_replace(path_of("adir"), "x", 1, 0600, err, sizeof err), -1);
	assert_int_equal(entries(), 1);
	rmdir(path_of("adir"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_fifo_or_a_device_is_refused_not_waited_on),
		cmocka_unit_test(test_the_cap_is_exact_and_a_missing_file_says_enoent),
		cmocka_unit_test(test_a_prefix_reads_the_first_bytes_and_the_size),
		cmocka_unit_test(test_a_pipe_is_read_only_when_asked),
		cmocka_unit_test(test_nofollow_refuses_a_symlink),
		cmocka_unit_test(test_replace_renames_over_with_the_mode_and_leaves_no_temp),
		cmocka_unit_test(test_a_failed_replace_keeps_nothing_and_says_why),
	};
	return cmocka_run_group_tests_name("fileio", tests, setup, teardown);
}
