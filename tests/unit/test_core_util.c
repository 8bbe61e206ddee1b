/* SPDX-License-Identifier: MIT */
/*
 * test_core_util.c - the library's small fd helpers keep their promises
 * on failure: nothing leaks and errno says why.
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base.h"

/* Moving an fd above a number the process may not reach fails with the
 * kernel's errno, and the fd given is closed, not leaked. */
static void test_a_failed_move_closes_the_fd_and_keeps_errno(void **state)
{
	struct rlimit old, low;
	int p[2], got;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(pipe(p), 0);
	assert_true(p[0] < 10);
	low = old;
	low.rlim_cur = 10;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	errno = 0;
	got = sp_fd_move_above(p[0], 10);
	assert_int_equal(got, -1);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(fcntl(p[0], F_GETFD), -1); /* closed */
	assert_int_equal(errno, EBADF);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	close(p[1]);
	/* and a move that works gives a new fd and closes the old one */
	assert_int_equal(pipe(p + 0), 0);
	got = sp_fd_move_above(p[0], 10);
	assert_true(got >= 10);
	assert_int_equal(fcntl(p[0], F_GETFD), -1);
	close(got);
	close(p[1]);
}

static void test_closing_keeps_errno(void **state)
{
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	close(p[1]);
	errno = ENOSPC;
	sp_close_keep_errno(p[0]);
	assert_int_equal(errno, ENOSPC);
	sp_close_keep_errno(p[0]); /* EBADF inside, still ENOSPC outside */
	assert_int_equal(errno, ENOSPC);
	sp_close_keep_errno(-1);
	assert_int_equal(errno, ENOSPC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_failed_move_closes_the_fd_and_keeps_errno),
		cmocka_unit_test(test_closing_keeps_errno),
	};
	return cmocka_run_group_tests_name("core util", tests, NULL, NULL);
}
