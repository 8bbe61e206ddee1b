/* SPDX-License-Identifier: MIT */
/*
 * test_cgroup_shared.c - many sandpits share one host's cgroups: in
 * other pid namespaces (a CI job, a container, a test harness) a pid
 * says nothing about who is alive, and two sandpits there can have the
 * same one. Sandpits in two pid namespaces, each its namespace's pid 1,
 * start runs at the same moment many times, and none fails or loses its
 * cgroup; the cgroup a dead sandpit left is swept by the next sandpit;
 * the cgroup a live sandpit in another pid namespace has just made,
 * still empty, is never swept, even where its pid is free in the
 * sweeper's namespace.
 *
 * The sandpits in other namespaces are this program's children with a
 * /proc of their namespace, as `unshare --pid --fork --mount-proc`
 * gives; the sweeper is a fresh `sandpit run`. Without cgroups (an
 * ordinary user with none delegated) there is nothing shared, and the
 * test says so and passes.
 */
#include "itest.h"

#include <sched.h>
#include <sys/mount.h>

#include "sandbox.h"

#define RUNS_EACH 12

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* A process of a new pid namespace, with a /proc of that namespace, as
 * its pid `want` there (1: the namespace's init); it exits with fn's
 * status. Returns the pid of the child (of this namespace) that waits
 * for it and exits with its status. */
static pid_t in_new_pid_ns(int (*fn)(void *), void *arg, pid_t want)
{
	pid_t outer = fork(), in;
	int st;

	assert_true(outer >= 0);
	if (outer > 0)
		return outer;
	if (unshare(CLONE_NEWPID) < 0)
		_exit(90);
	in = fork();                 /* pid 1 of the new namespace */
	if (in < 0)
		_exit(91);
	if (in == 0) {
		if (unshare(CLONE_NEWNS) < 0 ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
			_exit(92);
		if (want > 1) {
			char last[16];
			pid_t p;
			snprintf(last, sizeof last, "%d", (int)want - 1);
			/* the next pid of this namespace is want */
			if (write_text("/proc/sys/kernel/ns_last_pid", last) < 0 ||
			    (p = fork()) < 0)
				_exit(93);
			if (p == 0)
				_exit(getpid() == want ? fn(arg) : 94);
			while (waitpid(p, &st, 0) < 0 && errno == EINTR)
				;
			_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 95);
		}
		_exit(fn(arg));
	}
	while (waitpid(in, &st, 0) < 0 && errno == EINTR)
		;
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 96);
}

static int wait_status(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int nothing(void *arg)
{
	(void)arg;
	return 0;
}

/* Whether this host gives this user's runs a cgroup (a run says), and
 * this test can make pid namespaces with a /proc and a pid of its choice
 * (root, with the capabilities a container may not give). */
static bool runs_get_cgroups(void)
{
	if (geteuid() != 0) {
		printf("# not root: no pid namespaces of other sandpits to make\n");
		return false;
	}
	if (wait_status(in_new_pid_ns(nothing, NULL, 2)) != 0) {
		printf("# no pid namespace with its /proc and a chosen pid can be made here\n");
		return false;
	}
	char *name = it_name("cgshared_probe");
	struct sp_result *r = it_run("print('ok')\n", name);
	const struct sp_layer *l = it_layer(r, "cgroup");
	bool on = l && l->active;

	if (!on)
		printf("# the runs here have no cgroup (%s): nothing is shared\n",
		       l ? l->detail : "no layer");
	sp_result_free(r);
	free(name);
	return on;
}

/* ---- two sandpits at once ---- */

struct side {
	int ready_w, go_r;     /* tells the test it is ready; waits for go */
	const char *name;
};

/* Every run starts, ends well and has its cgroup (no other sandpit took
 * or removed it); the count of those that did not. */
static int runs_at_go(void *arg)
{
	struct side *s = arg;
	int failed = 0;
	char go;

	if (write(s->ready_w, "r", 1) != 1 || read(s->go_r, &go, 1) != 1)
		return 97;
	for (int i = 0; i < RUNS_EACH; i++) {
		struct sp_config c = it_config("x = bytearray(1 << 20)\nprint('ok')\n", s->name);
		struct sp_result *r = NULL;
		struct sp_error err = { "" };
		const struct sp_layer *l;

		if (sp_run_blocking(&c, &r, &err) < 0) {
			fprintf(stderr, "pid %d, run %d did not start: %s\n", (int)getpid(), i, err.msg);
			failed++;
			continue;
		}
		l = it_layer(r, "cgroup");
		if (r->status != SP_STATUS_OK || !l || !l->active ||
		    strcmp(r->peak_memory_source, "cgroup") != 0) {
			fprintf(stderr, "pid %d, run %d: status %d, cgroup %s (%s), peak memory from %s\n",
				(int)getpid(), i, (int)r->status, l && l->active ? "on" : "off",
				l ? l->detail : "", r->peak_memory_source);
			it_dump(r);
			failed++;
		}
		sp_result_free(r);
	}
	return failed;
}

static void test_sandpits_in_two_pid_namespaces_start_runs_at_once(void **state)
{
	int ready[2], go[2];
	struct side s;
	pid_t a, b;
	char c;

	(void)state;
	if (!runs_get_cgroups())
		return;
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	s.ready_w = ready[1];
	s.go_r = go[0];
	s.name = it_name("cgshared_twins");
	/* both are pid 1 of their namespace: one pid, two sandpits */
	a = in_new_pid_ns(runs_at_go, &s, 1);
	b = in_new_pid_ns(runs_at_go, &s, 1);
	close(ready[1]);
	close(go[0]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	assert_int_equal(read(ready[0], &c, 1), 1);
	assert_int_equal(write(go[1], "gg", 2), 2);
	close(go[1]);
	close(ready[0]);
	if (wait_status(a) != 0 || wait_status(b) != 0)
		fail_msg("runs failed in the sandpits of two pid namespaces (stderr says which)");
	free((char *)s.name);
}

/* ---- a sandpit's cgroup, then a sweep ---- */

struct holder {
	int path_w;            /* the cgroup's directory, or "" without one */
	int done_r;            /* -1: die at once, as if killed; else wait */
};

/* Makes the cgroup a run of this sandpit gets, as the run does before
 * its init is in it (empty), and says where it is. */
static int hold_cgroup(void *arg)
{
	struct holder *h = arg;
	struct sp_config c;
	char detail[600] = "", none = 0, done;
	struct sp_cgroup *cg;
	const char *path;

	sp_config_init(&c);
	cg = sp_cgroup_create(&c.limits, detail, sizeof detail);
	path = cg ? sp_cgroup_path(cg) : NULL;
	if (!path)
		path = &none;
	if (write(h->path_w, path, strlen(path) + 1) != (ssize_t)strlen(path) + 1)
		return 97;
	if (h->done_r < 0)
		_exit(0);            /* no destroy: what a killed sandpit leaves */
	if (read(h->done_r, &done, 1) != 1)
		return 98;
	sp_cgroup_destroy(cg);
	return 0;
}

/* The path the holder wrote (NUL-ended), malloc'd; "" without a cgroup. */
static char *read_path(int fd)
{
	char buf[PATH_MAX + 1];
	size_t n = 0;
	ssize_t got;

	while (n < sizeof buf - 1 && (got = read(fd, buf + n, sizeof buf - 1 - n)) > 0) {
		n += (size_t)got;
		if (memchr(buf, '\0', n))
			break;
	}
	buf[n] = '\0';
	return strdup(buf);
}

/* A fresh sandpit's run: it sweeps what is abandoned. */
static void sweeping_run(struct it_dir *f)
{
	char *prog = it_program(f, "cgshared_sweep", "print('ok')\n");
	const char *args[] = { "run", prog, NULL };
	struct it_cli cli;

	it_cli(&cli, false, args);
	IT_CLI_CHECK(&cli, cli.status == 0);
	it_cli_free(&cli);
	free(prog);
}

/* A pid free in this namespace (its process gone). */
static pid_t a_free_pid(void)
{
	pid_t p = fork();

	assert_true(p >= 0);
	if (p == 0)
		_exit(0);
	assert_int_equal(wait_status(p), 0);
	return p;
}

static void test_the_cgroup_a_dead_sandpit_left_is_swept(void **state)
{
	struct holder h = { -1, -1 };
	int p[2];
	pid_t pid;
	char *dir;

	if (!runs_get_cgroups())
		return;
	assert_int_equal(pipe(p), 0);
	h.path_w = p[1];
	/* pid 1 of its namespace: a pid that is alive in this one */
	pid = in_new_pid_ns(hold_cgroup, &h, 1);
	close(p[1]);
	dir = read_path(p[0]);
	close(p[0]);
	assert_int_equal(wait_status(pid), 0);
	if (!dir[0])
		fail_msg("the sandpit in another pid namespace made no cgroup");
	assert_int_equal(access(dir, F_OK), 0);
	sweeping_run(*state);
	if (access(dir, F_OK) == 0) {
		rmdir(dir);
		fail_msg("%s, the cgroup of a sandpit that is gone, was not swept", dir);
	}
	free(dir);
}

static void test_the_new_cgroup_of_a_live_sandpit_elsewhere_is_never_swept(void **state)
{
	struct holder h;
	int p[2], d[2];
	pid_t pid;
	char *dir;
	bool kept;

	if (!runs_get_cgroups())
		return;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(pipe(d), 0);
	h.path_w = p[1];
	h.done_r = d[0];
	/* its pid there is one no process has here */
	pid = in_new_pid_ns(hold_cgroup, &h, a_free_pid());
	close(p[1]);
	close(d[0]);
	dir = read_path(p[0]);
	close(p[0]);
	if (!dir[0]) {
		close(d[1]);
		fail_msg("the sandpit in another pid namespace made no cgroup (exit %d)",
			 wait_status(pid));
	}
	sweeping_run(*state);
	kept = access(dir, F_OK) == 0;
	assert_int_equal(write(d[1], "d", 1), 1);
	close(d[1]);
	assert_int_equal(wait_status(pid), 0);
	if (!kept)
		fail_msg("%s, the new cgroup of a live sandpit in another pid namespace, "
			 "was swept", dir);
	/* its own sandpit removes it */
	assert_int_not_equal(access(dir, F_OK), 0);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sandpits_in_two_pid_namespaces_start_runs_at_once),
		cmocka_unit_test_setup_teardown(test_the_cgroup_a_dead_sandpit_left_is_swept,
						it_dir_setup, it_dir_teardown),
		cmocka_unit_test_setup_teardown(test_the_new_cgroup_of_a_live_sandpit_elsewhere_is_never_swept,
						it_dir_setup, it_dir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
