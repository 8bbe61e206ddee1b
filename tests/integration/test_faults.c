/* SPDX-License-Identifier: MIT */
/*
 * test_faults.c - a run whose setup fails half way leaves nothing behind.
 *
 * The calls that give a run its sources (pipe2 for the program's pipes,
 * timerfd_create for the sampler and the deadline, epoll_ctl to watch
 * them) are wrapped at link time (ld --wrap, see the Makefile): each
 * __wrap_ function passes the call on to the real one (__real_), except
 * the one numbered fail_at, which fails with EMFILE as a process out of
 * descriptors would. For every call that can fail, in sp_run_start and in
 * sp_run_prepare, the start must fail closed, saying what failed, and
 * leave no process, cgroup or descriptor of the sandbox it had begun.
 * Sources watched only after the start, in an order the machine decides,
 * are failed by name instead (fail_source).
 */
#include "prep.h"
#include "run_impl.h"

#include <sys/epoll.h>
#include <sys/timerfd.h>

enum wrapped { W_PIPE2, W_TIMERFD, W_EPOLL_ADD, W_COUNT };
static const char *const wrapped_name[W_COUNT] = { "pipe2", "timerfd_create", "epoll_ctl" };
static int calls[W_COUNT];
static int fail_at[W_COUNT]; /* 0: never */
static int fail_source = -1; /* an enum src whose watch fails; -1: none */
static int source_adds;      /* the watches of fail_source tried */

static int fault(enum wrapped w)
{
	if (++calls[w] == fail_at[w]) {
		errno = EMFILE;
		return 1;
	}
	return 0;
}

int __real_pipe2(int fds[2], int flags);
int __wrap_pipe2(int fds[2], int flags);
int __wrap_pipe2(int fds[2], int flags)
{
	return fault(W_PIPE2) ? -1 : __real_pipe2(fds, flags);
}

int __real_timerfd_create(int clock, int flags);
int __wrap_timerfd_create(int clock, int flags);
int __wrap_timerfd_create(int clock, int flags)
{
	return fault(W_TIMERFD) ? -1 : __real_timerfd_create(clock, flags);
}

int __real_epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev);
int __wrap_epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev);
int __wrap_epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev)
{
	/* only the additions: a removal that fails changes nothing */
	if (op == EPOLL_CTL_ADD && fault(W_EPOLL_ADD))
		return -1;
	if (op == EPOLL_CTL_ADD && ev && (int)ev->data.u32 == fail_source) {
		source_adds++;
		errno = EMFILE;
		return -1;
	}
	return __real_epoll_ctl(epfd, op, fd, ev);
}

static void arm(enum wrapped w, int at)
{
	memset(calls, 0, sizeof calls);
	memset(fail_at, 0, sizeof fail_at);
	fail_at[w] = at;
}

/* ---- what a sandbox leaves: processes (itest.h), descriptors and
 * cgroups (leaks.h) ---- */

/* Nothing of a failed start is left. */
static void nothing_left(const char *marker, long fd0, long cg0, const char *what)
{
	it_wait_gone(marker, cg0);
	if (it_host_procs_with(marker))
		fail_msg("%s: a process of the sandbox is left", what);
	if (leak_count_cgroups() != cg0)
		fail_msg("%s: a cgroup of the sandbox is left", what);
	if (leak_count_fds() != fd0)
		fail_msg("%s: %ld descriptors open, %ld before", what, leak_count_fds(), fd0);
}

/* How many calls of w a successful start makes (to know which can fail). */
static int calls_in_a_start(enum wrapped w, bool prepared, const struct sp_config *cfg)
{
	struct sp_run *run = NULL;
	struct sp_error err = { "" };
	struct it_seen seen = { 0 };
	int n;

	arm(w, 0);
	if (prepared) {
		struct sp_prepare p;
		memset(&p, 0, sizeof p);
		p.limits = cfg->limits;
		assert_int_equal(sp_run_prepare(&p, &run, &err), 0);
	} else {
		run = it_start(cfg);
	}
	n = calls[w];
	sp_run_cancel(run);
	it_drive(run, &seen, NULL);
	free(seen.out);
	sp_run_free(run);
	return n;
}

static void each_failure(bool prepared)
{
	char *name = it_name(prepared ? "faultprep" : "fault");
	struct sp_config cfg = it_config("print('never')\n", name);
	long fd0, cg0;

	/* warm what stays for the process (libseccomp's caches, counters) */
	calls_in_a_start(W_PIPE2, prepared, &cfg);
	nothing_left(name, leak_count_fds(), leak_count_cgroups(), "warm-up");
	fd0 = leak_count_fds();
	cg0 = leak_count_cgroups();
	for (int w = 0; w < W_COUNT; w++) {
		int n = calls_in_a_start((enum wrapped)w, prepared, &cfg);

		assert_true(n > 0); /* the wrap reaches the library's calls */
		nothing_left(name, fd0, cg0, wrapped_name[w]);
		for (int at = 1; at <= n; at++) {
			struct sp_run *run = NULL;
			struct sp_error err = { "" };
			char what[96];
			int rc;

			snprintf(what, sizeof what, "%s call %d of %d%s", wrapped_name[w], at, n,
				 prepared ? " (prepared)" : "");
			arm((enum wrapped)w, at);
			if (prepared) {
				struct sp_prepare p;
				memset(&p, 0, sizeof p);
				p.limits = cfg.limits;
				rc = sp_run_prepare(&p, &run, &err);
			} else {
				rc = sp_run_start(&cfg, &run, &err);
			}
			arm(W_PIPE2, 0);
			if (rc == 0)
				fail_msg("%s failed, yet the start succeeded", what);
			assert_null(run);
			if (!it_contains(err.msg, strerror(EMFILE)))
				fail_msg("%s: the message does not say why: %s", what, err.msg);
			print_message("%s: %s\n", what, err.msg);
			nothing_left(name, fd0, cg0, what);
		}
	}
	free(name);
}

static void test_a_cold_start_that_fails_leaves_nothing(void **state)
{
	(void)state;
	each_failure(false);
}

static void test_a_preparation_that_fails_leaves_nothing(void **state)
{
	(void)state;
	each_failure(true);
}

/* At the release, stdout and stderr join the watched sources: when that
 * fails, the run ends as a sandbox error that says so, and is gone. */
static void test_a_release_that_cannot_watch_the_output_ends_the_run(void **state)
{
	char *name = it_name("faultrel");
	struct sp_config cfg = it_config("print('never')\n", name);
	long fd0 = leak_count_fds(), cg0 = leak_count_cgroups();

	(void)state;
	for (int at = 1; at <= 2; at++) {
		struct sp_run *run = pt_prepare(&cfg.limits, NULL, 0);
		struct sp_error err = { "" };
		struct it_seen seen = { 0 };
		const struct sp_result *r;

		arm(W_EPOLL_ADD, at);
		assert_int_equal(sp_run_release(run, &cfg, &err), 0);
		arm(W_PIPE2, 0);
		it_drive(run, &seen, NULL);
		r = sp_run_result(run);
		IT_CHECK(r, r->status == SP_STATUS_SANDBOX_ERROR);
		IT_CHECK(r, it_contains(r->error, "epoll"));
		IT_CHECK(r, !it_contains(seen.out, "never"));
		free(seen.out);
		sp_run_free(run);
		nothing_left(name, fd0, cg0, "epoll_ctl at the release");
	}
	free(name);
}

/* A run whose watch of src fails after the start: it must end as a
 * sandbox error whose message has what. NULL when no such watch was tried
 * (the run then ended as usual). */
static const struct sp_result *late_watch_fails(enum src src, const char *what,
						 struct sp_run **runp, const struct sp_config *cfg)
{
	struct it_seen seen = { 0 };
	const struct sp_result *r;

	arm(W_PIPE2, 0);
	fail_source = (int)src;
	source_adds = 0;
	*runp = it_start(cfg);
	it_drive(*runp, &seen, NULL);
	free(seen.out);
	fail_source = -1;
	r = sp_run_result(*runp);
	if (source_adds == 0) {
		IT_CHECK(r, r->status == SP_STATUS_OK);
		return NULL;
	}
	IT_CHECK(r, r->status == SP_STATUS_SANDBOX_ERROR);
	IT_CHECK(r, it_contains(r->error, what));
	return r;
}

/* The program's channel joins the watched sources at the run's first
 * wake-up by anything but the control socket (core/run.c): when that
 * watch fails, the run ends as a sandbox error (unwatched, a full channel
 * would stall the program for ever) and leaves nothing. */
static void test_a_run_that_cannot_watch_its_channel_ends(void **state)
{
	char *name = it_name("faultchan");
	struct sp_config cfg = it_config("print('ran')\n", name);
	long fd0 = leak_count_fds(), cg0 = leak_count_cgroups();
	struct sp_run *run;

	(void)state;
	if (!late_watch_fails(SRC_CHAN, "watching the program's channel", &run, &cfg))
		fail_msg("the run never watched its channel");
	sp_run_free(run);
	nothing_left(name, fd0, cg0, "epoll_ctl for the channel");
	free(name);
}

/* The seccomp notifications join the watched sources once the program's
 * layers message hands their fd over: when that watch fails, the run
 * ends as a sandbox error (unwatched, the program's first notified call
 * would wait for ever) and leaves nothing. */
static void test_a_run_that_cannot_watch_its_notifications_ends(void **state)
{
	char *name = it_name("faultnotify");
	struct sp_config cfg = it_config("print('ran')\n", name);
	long fd0 = leak_count_fds(), cg0 = leak_count_cgroups();
	struct sp_run *run;
	bool tried;

	(void)state;
	tried = late_watch_fails(SRC_NOTIFY, "watching the seccomp notifications", &run,
				 &cfg) != NULL;
	sp_run_free(run);
	nothing_left(name, fd0, cg0, "epoll_ctl for the notifications");
	free(name);
	if (!tried) {
		print_message("no seccomp notifications on this host: nothing to watch\n");
		skip();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_cold_start_that_fails_leaves_nothing),
		cmocka_unit_test(test_a_preparation_that_fails_leaves_nothing),
		cmocka_unit_test(test_a_release_that_cannot_watch_the_output_ends_the_run),
		cmocka_unit_test(test_a_run_that_cannot_watch_its_channel_ends),
		cmocka_unit_test(test_a_run_that_cannot_watch_its_notifications_ends),
	};
	return cmocka_run_group_tests_name("faults", tests, NULL, NULL);
}
