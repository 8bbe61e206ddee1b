/* SPDX-License-Identifier: MIT */
/*
 * test_pump_order.c - the run's pump, driven through an exact order.
 *
 * The pump handles whatever epoll says is ready, at whatever time the
 * clock says: on a real machine the order of a deadline, a sample and
 * the end of init, or of stdout and stderr, is the machine's. The run's
 * seam (struct sp_run_seam, core/run_impl.h) lets a test script both: a
 * list of (time, source) steps, one handed to the pump each time it asks
 * what is ready, the clock set to the step's time. The sandbox and the
 * program are real (the script decides the order in which their sources
 * are handled, not what they do), so each test waits until the program
 * has done its part before the script starts.
 */
#include "itest.h"
#include "buf.h"
#include "run_impl.h"

#include <poll.h>
#include <sys/ioctl.h>

struct step {
	uint64_t t_ms;
	enum src src;
};

struct script {
	const struct step *steps;
	size_t n, next;
	uint64_t base_us, now_us;
	const struct sp_run *run;
};

static uint64_t script_now(void *ctx)
{
	struct script *s = ctx;

	return s->now_us;
}

static int script_ready(void *ctx, int epfd, struct epoll_event *evs, int max)
{
	struct script *s = ctx;

	(void)epfd;
	if (max < 1 || s->next >= s->n)
		return 0;
	/* a notification is handed over only once the program's call waits
	 * for it (reading one that is not there would block) */
	if (s->steps[s->next].src == SRC_NOTIFY) {
		struct pollfd p = { s->run->src.notify_fd, POLLIN, 0 };
		if (p.fd < 0 || poll(&p, 1, 60000) != 1)
			fail_msg("no seccomp notification came within 60 s");
	}
	s->now_us = s->base_us + s->steps[s->next].t_ms * 1000u;
	evs[0].events = EPOLLIN;
	evs[0].data.u32 = s->steps[s->next].src;
	s->next++;
	return 1;
}

static void script_install(struct sp_run *run, struct script *s, const struct step *steps,
			   size_t n)
{
	s->steps = steps;
	s->n = n;
	s->next = 0;
	s->base_us = run->start_us;
	s->now_us = run->start_us;
	s->run = run;
	run->seam.now_us = script_now;
	run->seam.ready = script_ready;
	run->seam.ctx = s;
}

/* The events of a scripted run, in order. */
struct seen_events {
	enum sp_event_type type[64];
	uint64_t usage_t[64];       /* wall_ms of a usage event */
	enum sp_violation_kind kind[64];
	size_t n;
};

/* Pump the script to its end; the run must finish within it. */
static void drive_script(struct sp_run *run, struct script *s, struct seen_events *e)
{
	struct sp_event ev;

	for (size_t pumps = 0; pumps <= s->n + 1; pumps++) {
		while (sp_run_next_event(run, &ev) > 0) {
			if (e->n < 64) {
				e->type[e->n] = ev.type;
				e->usage_t[e->n] = ev.type == SP_EVENT_USAGE ? ev.usage->wall_ms : 0;
				e->kind[e->n] = ev.type == SP_EVENT_VIOLATION ? ev.violation->kind : 0;
				e->n++;
			}
			if (ev.type == SP_EVENT_FINISHED)
				return;
		}
	}
	fail_msg("the run did not finish within its script of %zu steps", s->n);
}

/* The index of the first event of type (and kind, for a violation) at or
 * after from, or -1. */
static long find_event(const struct seen_events *e, enum sp_event_type type, int kind)
{
	for (size_t i = 0; i < e->n; i++)
		if (e->type[i] == type && (type != SP_EVENT_VIOLATION || (int)e->kind[i] == kind))
			return (long)i;
	return -1;
}

/* Until the program's pipe holds at least n bytes (it wrote them). */
static void wait_for_bytes(int fd, int n)
{
	for (int i = 0; i < 6000; i++) {
		int have = 0;
		assert_int_equal(ioctl(fd, FIONREAD, &have), 0);
		if (have >= n)
			return;
		usleep(10000);
	}
	fail_msg("the program did not write %d bytes within 60 s", n);
}

/* Start cfg's program, wait until its stdout holds want bytes (it has
 * done its part), then pump it through the script of n steps: the run,
 * finished, for the test to check. */
static struct sp_run *scripted_run(const struct sp_config *cfg, int want, struct script *s,
				   const struct step *steps, size_t n, struct seen_events *e)
{
	struct sp_run *run = it_start(cfg);

	wait_for_bytes(run->src.out_fd, want);
	script_install(run, s, steps, n);
	drive_script(run, s, e);
	return run;
}

/* The wall limit fires at 1000 ms, a sample comes at 1001 while the
 * stopped tree dies, init's end at 1002: the record comes first, the
 * mark is on the last point (1002), not on the sample after the stop. */
static void test_deadline_then_sample_then_pidfd(void **state)
{
	static const struct step steps[] = {
		{ 1000, SRC_DEADLINE }, { 1001, SRC_SAMPLE }, { 1002, SRC_PIDFD },
	};
	char *name = it_name("order_wall");
	struct sp_config cfg = it_config("import time\nprint('up', flush=True)\ntime.sleep(120)\n",
					 name);
	struct it_seen seen = { 0 };
	struct seen_events e = { 0 };
	struct script s;
	struct sp_run *run;
	const struct sp_result *r;
	long viol, usage, fin;

	(void)state;
	run = it_start(&cfg);
	assert_true(it_drive(run, &seen, "up"));
	free(seen.out);
	script_install(run, &s, steps, SP_ARRAY_SIZE(steps));
	drive_script(run, &s, &e);
	r = sp_run_result(run);
	IT_CHECK(r, r->status == SP_STATUS_WALL_LIMIT);
	viol = find_event(&e, SP_EVENT_VIOLATION, SP_VIOL_WALL);
	usage = find_event(&e, SP_EVENT_USAGE, 0);
	fin = find_event(&e, SP_EVENT_FINISHED, 0);
	IT_CHECK(r, viol >= 0 && usage > viol && fin > usage);
	IT_CHECK(r, e.usage_t[usage] == 1001);
	IT_CHECK(r, r->usage.wall_ms == 1002);
	IT_CHECK(r, r->n_samples >= 2);
	IT_CHECK(r, r->samples[r->n_samples - 1].t_ms == 1002);
	IT_CHECK(r, r->samples[r->n_samples - 1].limit == SP_VIOL_WALL + 1);
	IT_CHECK(r, r->samples[r->n_samples - 2].t_ms == 1001);
	IT_CHECK(r, r->samples[r->n_samples - 2].limit == 0);
	sp_run_free(run);
	free(name);
}

/* stdout and stderr share one output cap of 4096 bytes; the program has
 * written 3000 to each. Whichever the pump reads first keeps its 3000,
 * the other gets the 1096 left, and the run stops at the cap. */
static void cap_in_order(enum src first, enum src second)
{
	const struct step steps[] = { { 10, first }, { 11, second }, { 12, SRC_PIDFD } };
	char *name = it_name("order_cap");
	struct sp_config cfg = it_config("import os, time\nos.write(1, b'o' * 3000)\n"
					 "os.write(2, b'e' * 3000)\ntime.sleep(120)\n", name);
	struct seen_events e = { 0 };
	struct script s;
	struct sp_run *run;
	const struct sp_result *r;
	size_t first_len = 3000, second_len = 4096 - 3000;
	enum sp_event_type first_ev = first == SRC_OUT ? SP_EVENT_STDOUT : SP_EVENT_STDERR;
	enum sp_event_type second_ev = first == SRC_OUT ? SP_EVENT_STDERR : SP_EVENT_STDOUT;

	cfg.limits.output_bytes = 4096;
	run = it_start(&cfg);
	wait_for_bytes(run->src.out_fd, 3000);
	wait_for_bytes(run->src.err_fd, 3000);
	script_install(run, &s, steps, SP_ARRAY_SIZE(steps));
	drive_script(run, &s, &e);
	r = sp_run_result(run);
	IT_CHECK(r, r->status == SP_STATUS_OUTPUT_LIMIT);
	IT_CHECK(r, r->truncated);
	IT_CHECK(r, find_event(&e, first_ev, 0) >= 0 &&
		    find_event(&e, second_ev, 0) > find_event(&e, first_ev, 0));
	IT_CHECK(r, r->out_len == (first == SRC_OUT ? first_len : second_len));
	IT_CHECK(r, r->err_len == (first == SRC_ERR ? first_len : second_len));
	IT_CHECK(r, it_viol(r, SP_VIOL_OUTPUT, NULL) != NULL);
	sp_run_free(run);
	free(name);
}

static void test_stdout_then_stderr_at_the_output_cap(void **state)
{
	(void)state;
	cap_in_order(SRC_OUT, SRC_ERR);
}

static void test_stderr_then_stdout_at_the_output_cap(void **state)
{
	(void)state;
	cap_in_order(SRC_ERR, SRC_OUT);
}

/* A memory record made between two samples (an allocation refused, seen
 * as a seccomp notification) marks the sample after it, and only that
 * one; the wall limit that ends the run marks the last point. Nothing is
 * pumped before the script: the test waits until the program has written
 * 'up' (its pipe says so), and the script's first step takes init's
 * message that hands over the notifications' fd. */
static void test_a_memory_record_between_two_samples(void **state)
{
	static const struct step steps[] = {
		{ 59990, SRC_CTL }, { 60000, SRC_SAMPLE }, { 60010, SRC_OUT },
		{ 60050, SRC_NOTIFY }, { 60100, SRC_SAMPLE },
		{ 60200, SRC_DEADLINE }, { 60201, SRC_PIDFD },
	};
	char *name = it_name("order_mem");
	/* one mmap of 16 GiB, one call (malloc would try brk and mmap again) */
	struct sp_config cfg = it_config(
		"import ctypes, time\n"
		"libc = ctypes.CDLL(None, use_errno=True)\n"
		"libc.mmap.restype = ctypes.c_void_p\n"
		"libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,"
		" ctypes.c_int, ctypes.c_long]\n"
		"print('up', flush=True)\n"
		"p = libc.mmap(None, 1 << 34, 3, 0x22, -1, 0)\n"
		"print('refused' if p in (None, ctypes.c_void_p(-1).value) else 'mapped', flush=True)\n"
		"time.sleep(120)\n", name);
	struct seen_events e = { 0 };
	struct script s;
	struct sp_run *run;
	const struct sp_result *r;
	size_t marks = 0;

	(void)state;
	cfg.limits.wall_ms = 600000;
	run = scripted_run(&cfg, 3, &s, steps, SP_ARRAY_SIZE(steps), &e);
	r = sp_run_result(run);
	IT_CHECK(r, r->status == SP_STATUS_WALL_LIMIT);
	IT_CHECK(r, it_viol(r, SP_VIOL_MEMORY, "refused") != NULL);
	IT_CHECK(r, find_event(&e, SP_EVENT_VIOLATION, SP_VIOL_MEMORY) >= 0);
	for (size_t i = 0; i < r->n_samples; i++) {
		const struct sp_sample *p = &r->samples[i];
		if (p->t_ms == 60000)
			IT_CHECK(r, p->limit == 0);
		if (p->t_ms == 60100)
			IT_CHECK(r, p->limit == SP_VIOL_MEMORY + 1);
		if (p->limit == SP_VIOL_MEMORY + 1)
			marks++;
	}
	IT_CHECK(r, marks == 1);
	IT_CHECK(r, r->samples[r->n_samples - 1].t_ms == 60201);
	IT_CHECK(r, r->samples[r->n_samples - 1].limit == SP_VIOL_WALL + 1);
	sp_run_free(run);
	free(name);
}

/* A cold run's channel joins the watched sources at the first wake-up by
 * anything but the control socket (core/run.c), and what waits on it
 * then is read first: it was written before the output that woke the
 * supervisor. Here the prelude's record of an open outside the sandbox's
 * view, then a line of output: the script hands over init's message,
 * then the output, and the record must come out before the output. */
static void test_a_record_before_the_first_output_comes_first(void **state)
{
	static const struct step steps[] = {
		{ 10, SRC_CTL }, { 20, SRC_OUT }, { 1000, SRC_DEADLINE }, { 1001, SRC_PIDFD },
	};
	char *name = it_name("order_chan");
	struct sp_config cfg = it_config("import os, time\n"
					 "try:\n"
					 "    open('/root/secret.txt')\n"
					 "except OSError:\n"
					 "    pass\n"
					 "os.write(1, b'after')\n"
					 "time.sleep(120)\n", name);
	struct seen_events e = { 0 };
	struct script s;
	struct sp_run *run;
	const struct sp_result *r;
	long viol, out;

	(void)state;
	cfg.limits.wall_ms = 600000;
	run = scripted_run(&cfg, 5, &s, steps, SP_ARRAY_SIZE(steps), &e);
	r = sp_run_result(run);
	IT_CHECK(r, r->status == SP_STATUS_WALL_LIMIT);
	viol = find_event(&e, SP_EVENT_VIOLATION, SP_VIOL_FILESYSTEM);
	out = find_event(&e, SP_EVENT_STDOUT, 0);
	IT_CHECK(r, viol >= 0 && out > viol);
	IT_CHECK(r, it_viol(r, SP_VIOL_FILESYSTEM, "/root/secret.txt") != NULL);
	sp_run_free(run);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deadline_then_sample_then_pidfd),
		cmocka_unit_test(test_stdout_then_stderr_at_the_output_cap),
		cmocka_unit_test(test_stderr_then_stdout_at_the_output_cap),
		cmocka_unit_test(test_a_memory_record_between_two_samples),
		cmocka_unit_test(test_a_record_before_the_first_output_comes_first),
	};
	return cmocka_run_group_tests_name("pump order", tests, NULL, NULL);
}
