/* SPDX-License-Identifier: MIT */
/*
 * app_prewarm.c - the playground keeps one prepared sandbox (core's
 * sp_run_prepare) for the next F5: namespaces, root, cgroups, every
 * layer and the interpreter with its preload imported, made while the
 * person types, so F5 pays none of it (on cgroup v1 the move into the
 * memory cgroup alone waits 8-15 ms for an RCU grace period on an idle
 * machine: docs/performance.md).
 *
 * One at a time, used once: made at start-up and after each run, when
 * nothing runs and the keyboard has rested PREP_IDLE_S. sp_run_prepare
 * itself takes 10-20 ms before it returns (the clone, the cgroup move):
 * it runs on a thread of its own (preparer()), so a key typed meanwhile
 * is read at once; the run comes back through a pipe and belongs to the loop's
 * thread from then on (sandpit.h: a run belongs to one thread at a
 * time). The interpreter's start and the imports then go on in the
 * background, driven by the loop's poll like a run. F5 releases it when it is ready and was made for the
 * limits the run gets (the config's, or a lesson's over them; the
 * interpreter and the preload list are fixed for the session); else it
 * is freed and the run starts cold, as without it. One made for limits
 * the next run no longer has (F4, a lesson opened) is freed at once and
 * a new one made. A failed preparation is not tried again for the same
 * limits until a run has gone by, so a host that cannot prepare does
 * not spin.
 *
 * The preload costs memory that counts against the program's limit (its
 * baseline, as the interpreter's own start is): under PRELOAD_MIN_MEMORY
 * nothing is preloaded, so a small limit is left to the program.
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "pane/pane_output.h"
#include "banned.h"

#define PREP_IDLE_S 0.25
#define PRELOAD_MIN_MEMORY (256ull << 20)

static bool limits_equal(const struct sp_limits *x, const struct sp_limits *y)
{
	return x->cpu_ms == y->cpu_ms && x->wall_ms == y->wall_ms &&
	       x->memory_bytes == y->memory_bytes && x->output_bytes == y->output_bytes &&
	       x->disk_bytes == y->disk_bytes && x->carry_bytes == y->carry_bytes &&
	       x->procs == y->procs;
}

/* One sp_run_prepare call, made on the preparing thread. */
struct prep_job {
	struct sp_prepare p;
	const char *names[SP_MAX_PRELOAD];
	struct sp_run *run;
	struct sp_error err;
};

/* The preparing thread lives as long as the playground: a sandbox's
 * init dies with the thread that started it (PR_SET_PDEATHSIG is a
 * thread's, not the process's), so a thread that ended after each call
 * would kill the sandbox it had just made. Jobs come on req, go back on
 * done, one at a time. */
static void *preparer(void *arg)
{
	int *fds = arg; /* req read end, done write end */
	struct prep_job *j;

	while (read(fds[0], &j, sizeof j) == (ssize_t)sizeof j) {
		if (sp_run_prepare(&j->p, &j->run, &j->err) < 0)
			j->run = NULL;
		if (write(fds[1], &j, sizeof j) != (ssize_t)sizeof j)
			break;
	}
	return NULL;
}

/* Start the thread once: 0, or -1 (then the loop prepares itself). */
static int preparer_start(struct app *a)
{
	static int fds[2];
	int req[2];
	sigset_t all, old;
	pthread_t t;
	int rc;

	if (a->prep.have_thread)
		return 0;
	if (pipe2(req, O_CLOEXEC) < 0)
		return -1;
	if (pipe2(a->prep.done, O_CLOEXEC | O_NONBLOCK) < 0) {
		close(req[0]);
		close(req[1]);
		return -1;
	}
	fds[0] = req[0];
	fds[1] = a->prep.done[1];
	/* it takes no signal: SIGWINCH and the rest must interrupt the
	 * loop's poll */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&t, NULL, preparer, fds);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		close(req[0]);
		close(req[1]);
		close(a->prep.done[0]);
		close(a->prep.done[1]);
		return -1;
	}
	pthread_detach(t);
	a->prep.req = req[1];
	a->prep.have_thread = true;
	return 0;
}

/* The job has come back (wait = block until it does): take its run, or
 * its error. */
static void failed(struct app *a, const char *why);
static void job_collect(struct app *a, bool wait)
{
	struct prep_job *j = NULL;
	struct pollfd p = { .fd = a->prep.done[0], .events = POLLIN };

	if (poll(&p, 1, wait ? -1 : 0) != 1 ||
	    read(a->prep.done[0], &j, sizeof j) != (ssize_t)sizeof j)
		return;
	a->prep.job = NULL;
	a->prep.run = j->run;
	if (!j->run)
		failed(a, j->err.msg);
	free(j);
	a->ui.dirty = true;
}

void app_prewarm_drop(struct app *a)
{
	while (a->prep.job)
		job_collect(a, true); /* at most the 10-20 ms it has left */
	if (a->prep.run)
		sp_run_free(a->prep.run); /* kills its sandbox, removes its cgroups */
	a->prep.run = NULL;
	a->prep.ready = false;
}

/* Preparing failed: say why in Output, once for each new reason (it is
 * tried again after each run, and would say the same every time). */
static void failed(struct app *a, const char *why)
{
	a->prep.failed = true;
	snprintf(a->prep.why, sizeof a->prep.why, "%s", why && why[0] ? why :
		 "the sandbox ended");
	if (strcmp(a->prep.why, a->prep.said) != 0) {
		snprintf(a->prep.said, sizeof a->prep.said, "%s", a->prep.why);
		output_message(a->pane.out, OUT_INFO, "the sandbox prepared for F5 failed (%s): "
			       "F5 starts cold", a->prep.why);
	}
	a->ui.dirty = true;
}

static void prepare(struct app *a, const struct sp_limits *l)
{
	struct prep_job *j = calloc(1, sizeof *j);

	if (!j) {
		failed(a, "out of memory");
		return;
	}
	j->p.python = a->cfg.python[0] ? a->cfg.python : NULL;
	j->p.limits = *l;
	a->prep.n_preload = l->memory_bytes >= PRELOAD_MIN_MEMORY ? a->cfg.n_preload : 0;
	for (size_t i = 0; i < a->prep.n_preload; i++)
		j->names[i] = a->cfg.preload[i];
	j->p.preload = j->names;
	j->p.n_preload = a->prep.n_preload;
	a->prep.limits = *l;
	a->prep.ready = false;
	if (preparer_start(a) == 0 &&
	    write(a->prep.req, &j, sizeof j) == (ssize_t)sizeof j) {
		a->prep.job = j;
	} else {
		/* no thread: prepare here, as the loop's own call */
		if (sp_run_prepare(&j->p, &a->prep.run, &j->err) < 0) {
			a->prep.run = NULL;
			failed(a, j->err.msg);
		}
		free(j);
	}
	a->ui.dirty = true;
}

/* Would a preparation start now, but for the keyboard's rest? */
static bool due(const struct app *a)
{
	return a->cfg.prewarm && !a->prep.run && !a->prep.job && !a->prep.failed && !a->run.sp &&
	       !a->keys.pasting;
}

void app_prewarm_tick(struct app *a, double now)
{
	struct sp_limits l;

	if (!a->cfg.prewarm)
		return;
	app_run_limits(a, &l);
	if ((a->prep.run || a->prep.job) && !limits_equal(&l, &a->prep.limits)) {
		app_prewarm_drop(a); /* made for other limits: never used */
		a->prep.failed = false;
		a->ui.dirty = true;
	}
	if (a->prep.failed && !limits_equal(&l, &a->prep.limits))
		a->prep.failed = false; /* new limits: worth a try */
	if (!due(a) || now - a->prep.last_key < PREP_IDLE_S)
		return;
	prepare(a, &l);
}

int app_prewarm_fd(const struct app *a)
{
	if (a->prep.job)
		return a->prep.done[0];
	return a->prep.run ? sp_run_fd(a->prep.run) : -1;
}

int app_prewarm_timeout_ms(const struct app *a, double now)
{
	double left;

	if (a->prep.job)
		return -1; /* its pipe says when */
	if (a->prep.run)
		return sp_run_timeout_ms(a->prep.run);
	if (!due(a))
		return -1;
	left = a->prep.last_key + PREP_IDLE_S - now;
	return left > 0 ? (int)(left * 1000) + 1 : 0;
}

/* The configured modules the preparation could not import, said once. */
static void say_skipped(struct app *a)
{
	const char *got = sp_run_preloaded(a->prep.run);
	char miss[300] = "";
	size_t at = 0;

	if (a->prep.skipped_said)
		return;
	a->prep.skipped_said = true;
	for (size_t i = 0; i < a->prep.n_preload; i++) {
		const char *m = a->cfg.preload[i], *p = got;
		size_t n = strlen(m);
		bool found = false;
		/* got is "numpy, pandas": a whole item, not a prefix */
		while (p && (p = strstr(p, m))) {
			if ((p == got || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0')) {
				found = true;
				break;
			}
			p += n;
		}
		if (!found && at < sizeof miss) {
			int w = snprintf(miss + at, sizeof miss - at, "%s%s", at ? ", " : "", m);
			at += w > 0 ? (size_t)w : 0;
		}
	}
	if (miss[0])
		output_message(a->pane.out, OUT_INFO, "preload: %s not importable here: skipped "
			       "(the preload line of the config)", miss);
}

void app_prewarm_drain(struct app *a)
{
	struct sp_event ev;

	if (a->prep.job)
		job_collect(a, false);
	while (a->prep.run && sp_run_next_event(a->prep.run, &ev) > 0) {
		if (ev.type == SP_EVENT_READY) {
			a->prep.ready = true;
			say_skipped(a);
			a->ui.dirty = true;
		} else if (ev.type == SP_EVENT_FINISHED) {
			const struct sp_result *r = ev.result ? ev.result
						  : sp_run_result(a->prep.run);
			char why[sizeof a->prep.why];
			snprintf(why, sizeof why, "%s", r && r->error[0] ? r->error : "");
			app_prewarm_drop(a);
			failed(a, why);
		}
	}
}

bool app_prewarm_take(struct app *a, const struct sp_config *c, struct sp_run **run)
{
	struct sp_error err = { { 0 } };
	struct sp_run *r = a->prep.run;
	bool ok;

	a->prep.failed = false; /* a run goes by: the next may be tried again */
	if (a->prep.job) {
		app_prewarm_drop(a); /* still starting: F5 runs cold */
		return false;
	}
	if (!r)
		return false;
	ok = a->prep.ready && sp_run_ready(r) && limits_equal(&c->limits, &a->prep.limits) &&
	     sp_run_release(r, c, &err) == 0;
	a->prep.run = NULL;
	a->prep.ready = false;
	if (!ok) {
		sp_run_free(r); /* still preparing, or not for this run */
		return false;
	}
	*run = r;
	return true;
}

/* The note in its long form (full) or a short one that names no modules. */
static void note(const struct app *a, bool full, char *buf, size_t len)
{
	const char *pre = a->prep.run && a->prep.ready ? sp_run_preloaded(a->prep.run) : "";
	size_t n = 0;

	buf[0] = '\0';
	if (!a->cfg.prewarm || a->run.sp)
		return;
	for (const char *p = pre; *p; p++)
		n += *p == ',';
	if (a->prep.run && a->prep.ready && pre[0] && full)
		snprintf(buf, len, "prepared · %s preloaded", pre);
	else if (a->prep.run && a->prep.ready && pre[0])
		snprintf(buf, len, "prepared · %zu preloaded", n + 1);
	else if (a->prep.run && a->prep.ready)
		snprintf(buf, len, "prepared");
	else if (a->prep.run || a->prep.job)
		snprintf(buf, len, "preparing");
	else if (a->prep.failed)
		snprintf(buf, len, "not prepared: F5 starts cold");
}

void app_prewarm_note(const struct app *a, char *buf, size_t len)
{
	note(a, true, buf, len);
}

void app_prewarm_draw(const struct app *a, struct rect r)
{
	char text[300], buf[310];
	int n = 0, w = 0;

	if (r.h < 2 || r.w < 12)
		return;
	/* the modules by name when they fit, else how many */
	for (int full = 1; full >= 0; full--) {
		note(a, full, text, sizeof text);
		n = snprintf(buf, sizeof buf, " %s ", text);
		w = n > 0 ? text_width(buf, (size_t)n) : 0;
		if (w <= r.w - 4)
			break;
	}
	if (!text[0] || n <= 0)
		return;
	if (w > r.w - 4)
		w = r.w - 4;
	text_draw(stdscr, r.y + r.h - 1, r.x + r.w - 2 - w, w, buf, (size_t)n,
		  theme_attr(&a->theme, TR_TITLE));
}
