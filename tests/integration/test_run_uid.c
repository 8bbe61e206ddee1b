/* SPDX-License-Identifier: MIT */
/*
 * test_run_uid.c - started as root, a run's processes are a host uid of
 * the run's own (SP_ROOT_HOST_ID_FIRST and on, core/host_ids.c): not
 * nobody's, not another run's. A host process running as nobody can
 * neither signal nor trace them; two runs at once are two uids. As an
 * ordinary user the sandbox user is the caller, and the test says so
 * and passes.
 */
#include "itest.h"

#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

/* The real uid of a host process, from its status; -1 when gone. */
static long host_uid_of(long pid)
{
	char path[64], *text, *line;
	long uid = -1;

	snprintf(path, sizeof path, "/proc/%ld/status", pid);
	text = it_slurp(path, NULL);
	line = text ? strstr(text, "\nUid:") : NULL;
	if (line)
		uid = strtol(line + 5, NULL, 10);
	free(text);
	return uid;
}

/* A run that waits, started and seen up; its program's name in *name. */
static struct sp_run *waiting_run(const char *what, char **name, struct it_seen *seen)
{
	struct sp_config cfg;
	struct sp_run *run;

	*name = it_name(what);
	cfg = it_config("import time\nprint('up', flush=True)\ntime.sleep(60)\n", *name);
	run = it_start(&cfg);
	assert_true(it_drive(run, seen, "up"));
	return run;
}

static void end_run(struct sp_run *run, struct it_seen *seen, char *name)
{
	sp_run_cancel(run);
	it_drive(run, seen, NULL);
	it_free_leaves_nothing(run, name);
	free(seen->out);
	free(name);
}

/* What a host process running as nobody gets when it signals pid (0) and
 * when it tries to trace it: errno of each, 0 for success. */
static void as_nobody(long pid, int *kill_errno, int *trace_errno)
{
	const struct passwd *pw = getpwnam("nobody");
	uid_t uid = pw ? pw->pw_uid : 65534;
	gid_t gid = pw ? pw->pw_gid : 65534;
	int p[2], got[2] = { -1, -1 };
	pid_t child;

	assert_int_equal(pipe(p), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		int e[2];
		close(p[0]);
		if (setgroups(0, NULL) < 0 || setresgid(gid, gid, gid) < 0 ||
		    setresuid(uid, uid, uid) < 0)
			_exit(1);
		e[0] = kill((pid_t)pid, 0) == 0 ? 0 : errno;
		if (ptrace(PTRACE_SEIZE, (pid_t)pid, NULL, NULL) == 0) {
			e[1] = 0;
			ptrace(PTRACE_DETACH, (pid_t)pid, NULL, NULL);
		} else {
			e[1] = errno;
		}
		_exit(write(p[1], e, sizeof e) == sizeof e ? 0 : 1);
	}
	close(p[1]);
	assert_int_equal(read(p[0], got, sizeof got), (ssize_t)sizeof got);
	close(p[0]);
	assert_int_equal(waitpid(child, NULL, 0), child);
	*kill_errno = got[0];
	*trace_errno = got[1];
}

static void test_nobody_on_the_host_cannot_signal_or_trace_a_run(void **state)
{
	const struct passwd *pw = getpwnam("nobody");
	long nobody = pw ? (long)pw->pw_uid : 65534, pids[8];
	struct it_seen seen = { 0 };
	struct sp_run *run;
	char *name;
	size_t n;

	(void)state;
	if (geteuid() != 0) {
		printf("# not root: the sandbox user is the caller's own uid\n");
		return;
	}
	run = waiting_run("uid_nobody", &name, &seen);
	n = it_host_pids_with(name, pids, 8);
	if (n < 2)
		fail_msg("found %zu of the run's processes on the host", n);
	for (size_t i = 0; i < n; i++) {
		long uid = host_uid_of(pids[i]);
		int kill_e, trace_e;

		as_nobody(pids[i], &kill_e, &trace_e);
		if (kill_e != EPERM || trace_e != EPERM)
			fail_msg("nobody (uid %ld) on the host: kill of the run's process %ld "
				 "(uid %ld) gave %s, a trace %s; both must be refused (EPERM)",
				 nobody, pids[i], uid, strerror(kill_e), strerror(trace_e));
		if (uid == nobody || uid == 0)
			fail_msg("the run's process %ld is uid %ld on the host", pids[i], uid);
		if (uid < SP_ROOT_HOST_ID_FIRST ||
		    uid >= (long)SP_ROOT_HOST_ID_FIRST + SP_ROOT_HOST_ID_COUNT)
			fail_msg("the run's process %ld is uid %ld, outside sandpit's range", pids[i], uid);
	}
	end_run(run, &seen, name);
}

static void test_two_runs_at_once_are_two_host_uids(void **state)
{
	struct it_seen seen1 = { 0 }, seen2 = { 0 };
	struct sp_run *r1, *r2;
	char *n1, *n2, layer[64];
	long p1, p2, u1, u2;
	const struct sp_layer *l;

	(void)state;
	if (geteuid() != 0) {
		printf("# not root: the sandbox user is the caller's own uid\n");
		return;
	}
	r1 = waiting_run("uid_one", &n1, &seen1);
	r2 = waiting_run("uid_two", &n2, &seen2);
	assert_true(it_host_pids_with(n1, &p1, 1) == 1);
	assert_true(it_host_pids_with(n2, &p2, 1) == 1);
	u1 = host_uid_of(p1);
	u2 = host_uid_of(p2);
	if (u1 == u2)
		fail_msg("two runs at once are both host uid %ld", u1);
	sp_run_cancel(r1);
	it_drive(r1, &seen1, NULL);
	/* the result says which uid the run was */
	l = it_layer(sp_run_result(r1), "user_namespace");
	assert_non_null(l);
	snprintf(layer, sizeof layer, "uid 1000 -> host %ld", u1);
	if (!it_contains(l->detail, layer))
		fail_msg("the user_namespace layer says '%s', not '%s'", l->detail, layer);
	sp_run_free(r1);    /* the other run's init is still this process's child */
	free(seen1.out);
	end_run(r2, &seen2, n2);
	assert_int_equal(it_host_procs_with(n1), 0);
	free(n1);
}

/* Root of a container in a user namespace with only 0-65535 mapped
 * (rootless podman): sandpit's own ids are not there to give, so a run is
 * the overflow id 65534, and its layer says so; the run used to fail to
 * start ("write uid_map: Operation not permitted"). */
static void test_root_without_the_range_runs_as_nobody_and_says_so(void **state)
{
	int go[2], ready[2];
	char c = 0;
	pid_t child;
	int st;

	(void)state;
	if (geteuid() != 0) {
		printf("# not root: the sandbox user is the caller's own uid\n");
		return;
	}
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(ready), 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		struct sp_config cfg;
		struct sp_result *r = NULL;
		struct sp_error err = { { 0 } };
		const struct sp_layer *l;

		if (unshare(CLONE_NEWUSER) < 0)
			_exit(77);       /* no user namespaces here: nothing to check */
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(90);
		if (setgid(0) < 0 || setuid(0) < 0)
			_exit(91);
		setenv("SANDPIT_NO_CGROUP", "1", 1); /* the host's cgroups are not ours */
		cfg = it_config("import os\nprint(os.getuid())\n", "container.py");
		if (sp_run_blocking(&cfg, &r, &err) < 0) {
			fprintf(stderr, "the run did not start: %s\n", err.msg);
			_exit(92);
		}
		l = it_layer(r, "user_namespace");
		if (r->status != SP_STATUS_OK || !l || !strstr(l->detail, "host 65534 (nobody"))
			_exit(93);
		sp_result_free(r);
		_exit(0);
	}
	assert_int_equal(read(ready[0], &c, 1), 1);
	{
		char path[64];
		int fd;
		static const char *const files[] = { "uid_map", "setgroups", "gid_map" };
		static const char *const text[] = { "0 0 65536\n", "deny\n", "0 0 65536\n" };
		for (int i = 0; i < 3; i++) {
			snprintf(path, sizeof path, "/proc/%d/%s", (int)child, files[i]);
			fd = open(path, O_WRONLY | O_CLOEXEC);
			assert_true(fd >= 0);
			assert_true(write(fd, text[i], strlen(text[i])) == (ssize_t)strlen(text[i]));
			close(fd);
		}
	}
	assert_int_equal(write(go[1], "g", 1), 1);
	assert_int_equal(waitpid(child, &st, 0), child);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 77) {
		printf("# no user namespaces here\n");
		return;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("a run as root of a user namespace without sandpit's ids: child "
			 "status %d (92: did not start, 93: not ok or the layer does not say "
			 "nobody)", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nobody_on_the_host_cannot_signal_or_trace_a_run),
		cmocka_unit_test(test_two_runs_at_once_are_two_host_uids),
		cmocka_unit_test(test_root_without_the_range_runs_as_nobody_and_says_so),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
