/* SPDX-License-Identifier: MIT */
/*
 * test_core_fd.c - one owner per descriptor (core/fd.h): a take leaves
 * the old owner holding nothing, a set closes with one call whatever it
 * still holds, an SP_FD_AUTO local closes on every way out; and the
 * small shared helpers beside them (sp_opendir_at, the keyword list).
 */
#include "testlib.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "fd.h"
#include "pykeywords.h"

static bool is_open(int fd)
{
	return fd >= 0 && fcntl(fd, F_GETFD) != -1;
}

static void test_a_take_leaves_the_old_owner_nothing(void **state)
{
	int p[2], mine;

	(void)state;
	assert_int_equal(pipe(p), 0);
	mine = sp_fd_take(&p[0]);
	assert_int_equal(p[0], -1);
	assert_true(is_open(mine));
	sp_fd_close(&p[0]);          /* the old owner closes nothing */
	assert_true(is_open(mine));
	sp_fd_close(&mine);
	assert_int_equal(mine, -1);
	sp_fd_close(&mine);          /* twice is a no-op */
	sp_fd_close(&p[1]);
}

static void test_a_set_closes_what_it_still_holds_and_keeps_errno(void **state)
{
	int a[2], b[2], handed;

	(void)state;
	assert_int_equal(pipe(a), 0);
	assert_int_equal(pipe(b), 0);
	handed = sp_fd_take(&b[1]);
	errno = ENOSPC;
	SP_FDS_CLOSE(&a[0], &a[1], &b[0], &b[1]);
	assert_int_equal(errno, ENOSPC);
	assert_int_equal(a[0], -1);
	assert_int_equal(a[1], -1);
	assert_int_equal(b[0], -1);
	assert_int_equal(b[1], -1);
	assert_true(is_open(handed)); /* handed on: not the set's to close */
	close(handed);
}

/* Returns through one of three exits; the local is closed on each. */
static int three_exits(int which, int *seen)
{
	SP_FD_AUTO int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	*seen = fd;
	if (which == 0)
		return 0;
	if (which == 1)
		return 1;
	return 2;
}

static void test_an_auto_local_closes_on_every_exit(void **state)
{
	(void)state;
	for (int which = 0; which < 3; which++) {
		int seen = -1;
		assert_int_equal(three_exits(which, &seen), which);
		assert_true(seen >= 0);
		assert_false(is_open(seen));
	}
}

static void test_opendir_at_lists_and_fails_with_errno(void **state)
{
	int dir = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;
	bool saw_proc = false;
	struct dirent *de;

	(void)state;
	assert_true(dir >= 0);
	d = sp_opendir_at(dir, ".");
	assert_non_null(d);
	while ((de = readdir(d)))
		saw_proc |= strcmp(de->d_name, "proc") == 0;
	closedir(d);
	assert_true(saw_proc);
	assert_true(is_open(dir)); /* its own descriptor: dir stays the caller's */
	errno = 0;
	assert_null(sp_opendir_at(dir, "no-such-dir-here"));
	assert_int_equal(errno, ENOENT);
	close(dir);
}

static void test_the_keyword_list_is_pythons(void **state)
{
	static const char *const kw[] = {
		"False", "None", "True", "and", "as", "assert", "async", "await",
		"break", "class", "continue", "def", "del", "elif", "else", "except",
		"finally", "for", "from", "global", "if", "import", "in", "is",
		"lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try",
		"while", "with", "yield",
	};

	(void)state;
	for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
		assert_true(sp_python_keyword(kw[i], strlen(kw[i])));
	/* soft keywords, builtins, prefixes and longer words are names */
	assert_false(sp_python_keyword("match", 5));
	assert_false(sp_python_keyword("print", 5));
	assert_false(sp_python_keyword("none", 4));
	assert_false(sp_python_keyword("", 0));
	/* a word is its len bytes, never read past them */
	assert_true(sp_python_keyword("format", 3));   /* "for" */
	assert_false(sp_python_keyword("iffy", 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_take_leaves_the_old_owner_nothing),
		cmocka_unit_test(test_a_set_closes_what_it_still_holds_and_keeps_errno),
		cmocka_unit_test(test_an_auto_local_closes_on_every_exit),
		cmocka_unit_test(test_opendir_at_lists_and_fails_with_errno),
		cmocka_unit_test(test_the_keyword_list_is_pythons),
	};
	return cmocka_run_group_tests_name("core fd", tests, NULL, NULL);
}
