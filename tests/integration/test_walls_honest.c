/* SPDX-License-Identifier: MIT */
/*
 * test_walls_honest.c - walls that were right but said the wrong thing,
 * or were missing (issue 25): giving a file or a process to another user
 * is EPERM ("Operation not permitted"), not EINVAL, and the program's own
 * uid still works; a pseudo-terminal is EACCES, not "No such file"; file
 * watches (inotify, which would see the host's activity through the
 * shared read-only binds) and extended attributes (stored outside the
 * work dir's size limit) are refused. Each with a record.
 */
#include "itest.h"

static const struct sp_violation *viol_with(const struct sp_result *r, const char *what)
{
	for (size_t i = 0; i < r->n_violations; i++)
		if (strstr(r->violations[i].what, what))
			return &r->violations[i];
	return NULL;
}

static void test_another_user_is_eperm_with_a_record(void **state)
{
	char *name = it_name("owner");
	struct sp_result *r = it_run(
		"import errno, os, subprocess\n"
		"open('f', 'w').close()\n"
		"os.chown('f', os.getuid(), os.getgid())\n"
		"print('own uid ok')\n"
		"try:\n"
		"    os.chown('f', 0, -1)\n"
		"except OSError as e:\n"
		"    print('chown', errno.errorcode[e.errno])\n"
		"try:\n"
		"    subprocess.run(['true'], user=0)\n"
		"except OSError as e:\n"
		"    print('user=', errno.errorcode[e.errno])\n", name);
	const struct sp_violation *v;

	(void)state;
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "own uid ok\n"));
	IT_CHECK(r, it_contains(it_out(r), "chown EPERM\n"));
	IT_CHECK(r, it_contains(it_out(r), "user= EPERM\n"));
	v = viol_with(r, "chown(\"f\", 0, -1)");
	IT_CHECK(r, v && v->kind == SP_VIOL_SYSCALL && v->from_kernel && v->line == 6);
	/* in the child subprocess forks: where the supervisor counts each
	 * new process itself (no pids cgroup), that count takes the line */
	v = viol_with(r, "setreuid(0, 0)");
	IT_CHECK(r, v && v->kind == SP_VIOL_SYSCALL && (v->line == 10 || v->line == 0));
	/* the program's own uid went through: no record names it */
	IT_CHECK(r, !viol_with(r, "chown(\"f\", 1000"));
	sp_result_free(r);
	free(name);
}

static void test_no_terminal_is_said_plainly(void **state)
{
	char *name = it_name("pty");
	struct sp_result *r = it_run(
		"import errno, os\n"
		"try:\n"
		"    os.openpty()\n"
		"except OSError as e:\n"
		"    print('openpty', errno.errorcode[e.errno])\n", name);
	const struct sp_violation *v;

	(void)state;
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "openpty EACCES\n"));
	v = viol_with(r, "openpty()");
	IT_CHECK(r, v && v->kind == SP_VIOL_SYSCALL && v->line == 3);
	sp_result_free(r);
	free(name);
}

static void test_watches_and_xattrs_are_refused(void **state)
{
	char *name = it_name("watch");
	struct sp_result *r = it_run(
		"import ctypes, errno, os\n"
		"libc = ctypes.CDLL(None, use_errno=True)\n"
		"fd = libc.inotify_init1(0)\n"
		"print('inotify', fd, errno.errorcode.get(ctypes.get_errno()))\n"
		"open('f', 'w').close()\n"
		"try:\n"
		"    os.setxattr('f', 'user.big', b'x' * 60000)\n"
		"    print('xattr stored')\n"
		"except OSError as e:\n"
		"    print('xattr', errno.errorcode[e.errno])\n", name);
	const struct sp_violation *v;

	(void)state;
	IT_CHECK(r, r->status == SP_STATUS_OK);
	IT_CHECK(r, it_contains(it_out(r), "inotify -1 EPERM\n"));
	IT_CHECK(r, it_contains(it_out(r), "xattr EPERM\n"));
	v = viol_with(r, "inotify_init1()");
	IT_CHECK(r, v && v->kind == SP_VIOL_SYSCALL && v->from_kernel);
	v = viol_with(r, "setxattr()");
	IT_CHECK(r, v && v->kind == SP_VIOL_SYSCALL && v->from_kernel && v->line == 7);
	sp_result_free(r);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_another_user_is_eperm_with_a_record),
		cmocka_unit_test(test_no_terminal_is_said_plainly),
		cmocka_unit_test(test_watches_and_xattrs_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
