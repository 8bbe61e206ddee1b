/* SPDX-License-Identifier: MIT */
/*
 * pool.c - the services' workers and their prepared sandboxes (pool.h).
 *
 * A worker keeps up to STOCK sandboxes of its own in the making (core's
 * sp_run_prepare: the interpreter started, the preload imported), and
 * drives them in the same poll as its run, so that while one program
 * runs the next sandboxes get ready. A job takes a ready one and
 * releases it with its program (sp_run_release); with none ready it
 * waits for the one furthest along, which is sooner than a cold start
 * (measured: a preparation takes several times a print('hi') run). A job
 * for other limits, or on a host that cannot prepare, starts cold. The
 * run is driven to its end on the worker, its result handed to done(),
 * and it is freed; at most jobs programs run at once.
 *
 * Jobs wait in one queue; an eventfd counting them (a semaphore) wakes
 * one worker per job. Cancelling is a flag the worker reads at least
 * every POLL_MS: the run API is used from its owner thread only
 * (sandpit.h).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "service/pool.h"
#include "banned.h"

#define POLL_MS 100
#define PROGRESS_MS 1000
#define MAX_JOBS 256
#define STOCK 3

struct pool {
	pthread_mutex_t lock;
	struct pool_job *head, *tail;
	int wake;                /* eventfd, a semaphore: one count a job (and
				  * one a worker when stopping) */
	atomic_bool stopping;
	struct sp_prepare prep;
	unsigned n;
	pthread_t threads[MAX_JOBS];
	atomic_bool prep_broken; /* said once: this host cannot prepare */
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static bool limits_equal(const struct sp_limits *x, const struct sp_limits *y)
{
	return x->cpu_ms == y->cpu_ms && x->wall_ms == y->wall_ms &&
	       x->memory_bytes == y->memory_bytes && x->output_bytes == y->output_bytes &&
	       x->disk_bytes == y->disk_bytes && x->carry_bytes == y->carry_bytes &&
	       x->procs == y->procs;
}

static void prep_failed(struct pool *pool, const char *why)
{
	if (!atomic_exchange(&pool->prep_broken, true))
		fprintf(stderr, "sandpit: cannot prepare sandboxes ahead (%s): runs start cold\n",
			why && why[0] ? why : "the sandbox ended");
}

/* One worker's sandboxes, made ahead: up to STOCK at once, so that one
 * is being prepared while another runs (a preparation takes several
 * times a short program's run: the interpreter's start, the cgroup
 * move). */
struct worker {
	struct pool *pool;
	struct sp_run *spare[STOCK];
	bool ready[STOCK];
};

static void refill(struct worker *w)
{
	struct sp_error err = { "" };

	for (int i = 0; i < STOCK; i++) {
		if (w->spare[i] || atomic_load(&w->pool->prep_broken) ||
		    atomic_load(&w->pool->stopping))
			continue;
		w->ready[i] = false;
		if (sp_run_prepare(&w->pool->prep, &w->spare[i], &err) < 0) {
			w->spare[i] = NULL;
			prep_failed(w->pool, err.msg);
		}
	}
}

/* Take the spares' events: ready, or dead (freed). */
static void drive_spares(struct worker *w)
{
	struct sp_event ev;

	for (int i = 0; i < STOCK; i++) {
		while (w->spare[i] && sp_run_next_event(w->spare[i], &ev) > 0) {
			if (ev.type == SP_EVENT_READY) {
				w->ready[i] = true;
			} else if (ev.type == SP_EVENT_FINISHED) {
				const struct sp_result *r = sp_run_result(w->spare[i]);
				if (!w->ready[i])
					prep_failed(w->pool, r ? r->error : NULL);
				sp_run_free(w->spare[i]); /* a sandbox that died waiting */
				w->spare[i] = NULL;
				w->ready[i] = false;
			}
		}
	}
}

/* The spares still preparing go on p (from n), their timeout into *t. */
static nfds_t spare_fds(struct worker *w, struct pollfd *p, nfds_t n, int *t)
{
	for (int i = 0; i < STOCK; i++) {
		int st;
		if (!w->spare[i] || w->ready[i])
			continue;
		p[n++] = (struct pollfd){ .fd = sp_run_fd(w->spare[i]), .events = POLLIN };
		st = sp_run_timeout_ms(w->spare[i]);
		if (st >= 0 && (*t < 0 || st < *t))
			*t = st;
	}
	return n;
}

/* A ready spare for limits l, or NULL. */
static struct sp_run *take_ready(struct worker *w, const struct sp_limits *l)
{
	if (!limits_equal(l, &w->pool->prep.limits))
		return NULL;
	drive_spares(w);
	for (int i = 0; i < STOCK; i++) {
		if (w->spare[i] && w->ready[i] && sp_run_ready(w->spare[i])) {
			struct sp_run *r = w->spare[i];
			w->spare[i] = NULL;
			w->ready[i] = false;
			return r;
		}
	}
	return NULL;
}

/* The run for job: a ready spare released with its program, or a cold
 * start. NULL with err when neither could start. */
static struct sp_run *start(struct worker *w, struct pool_job *job, struct sp_error *err)
{
	struct sp_run *run = take_ready(w, &job->cfg.limits);

	/* one well under way is sooner than a cold start, which makes all of it */
	while (!run && limits_equal(&job->cfg.limits, &w->pool->prep.limits) &&
	       !atomic_load(&job->cancel)) {
		struct pollfd p[STOCK];
		int t = -1;
		nfds_t n = spare_fds(w, p, 0, &t);
		if (n == 0)
			break;
		poll(p, n, t < 0 || t > POLL_MS ? POLL_MS : t);
		run = take_ready(w, &job->cfg.limits);
	}

	if (run) {
		if (sp_run_release(run, &job->cfg, err) == 0)
			return run;
		sp_run_free(run); /* not for this job: never used */
	}
	err->msg[0] = '\0';
	if (sp_run_start(&job->cfg, &run, err) < 0)
		return NULL;
	return run;
}

static void run_job(struct worker *w, struct pool_job *job)
{
	struct sp_error err = { "" };
	struct sp_run *run;
	struct sp_event ev;
	struct sp_usage last = { 0 };
	uint64_t next_progress = now_ms() + PROGRESS_MS;
	bool cancelled = false;

	if (atomic_load(&job->cancel)) {
		job->done(job, NULL, "cancelled before it started");
		return;
	}
	run = start(w, job, &err);
	if (!run) {
		job->done(job, NULL, err.msg[0] ? err.msg : "the sandbox could not start");
		return;
	}
	refill(w); /* the one just taken is made again while this runs */
	while (!sp_run_finished(run)) {
		struct pollfd p[STOCK + 1] = { { .fd = sp_run_fd(run), .events = POLLIN } };
		int t = sp_run_timeout_ms(run);
		nfds_t n;

		if (atomic_load(&job->cancel) && !cancelled) {
			sp_run_cancel(run);
			cancelled = true;
		}
		n = spare_fds(w, p, 1, &t);
		if (t != 0)
			poll(p, n, t < 0 || t > POLL_MS ? POLL_MS : t);
		while (sp_run_next_event(run, &ev) > 0)
			if (ev.type == SP_EVENT_USAGE && ev.usage)
				last = *ev.usage;
		drive_spares(w);
		if (job->progress && now_ms() >= next_progress && !sp_run_finished(run)) {
			job->progress(job, &last);
			next_progress = now_ms() + PROGRESS_MS;
		}
	}
	job->done(job, sp_run_result(run), NULL);
	sp_run_free(run);
}

/* The next job once one is queued (the spares driven meanwhile), or
 * NULL when the pool stops and nothing is left. */
static struct pool_job *next_job(struct worker *w)
{
	struct pool *pool = w->pool;

	for (;;) {
		struct pollfd p[STOCK + 1] = { { .fd = pool->wake, .events = POLLIN } };
		uint64_t token;
		int t = -1;
		nfds_t n;

		if (read(pool->wake, &token, sizeof token) == (ssize_t)sizeof token) {
			struct pool_job *job;
			pthread_mutex_lock(&pool->lock);
			job = pool->head;
			if (job) {
				pool->head = job->next;
				if (!pool->head)
					pool->tail = NULL;
			}
			pthread_mutex_unlock(&pool->lock);
			if (job || atomic_load(&pool->stopping))
				return job;
			continue;
		}
		refill(w);
		n = spare_fds(w, p, 1, &t);
		poll(p, n, t);
		drive_spares(w);
	}
}

static void *worker(void *arg)
{
	struct worker w = { .pool = arg };
	struct pool_job *job;

	while ((job = next_job(&w)))
		run_job(&w, job);
	for (int i = 0; i < STOCK; i++)
		if (w.spare[i])
			sp_run_free(w.spare[i]);
	return NULL;
}

struct pool *pool_new(unsigned jobs, const struct sp_prepare *p, struct sp_error *err)
{
	struct pool *pool = calloc(1, sizeof *pool);
	sigset_t all, old;

	if (!pool) {
		snprintf(err->msg, sizeof err->msg, "out of memory");
		return NULL;
	}
	if (jobs == 0) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = cpus > 0 ? (unsigned)cpus : 1;
	}
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	pool->wake = eventfd(0, EFD_SEMAPHORE | EFD_NONBLOCK | EFD_CLOEXEC);
	if (pool->wake < 0) {
		snprintf(err->msg, sizeof err->msg, "cannot make the pool's eventfd: %s",
			 strerror(errno));
		free(pool);
		return NULL;
	}
	pthread_mutex_init(&pool->lock, NULL);
	atomic_init(&pool->stopping, false);
	pool->prep = *p;
	atomic_init(&pool->prep_broken, false);
	/* the workers take no signal: the main thread's handlers see them */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (; pool->n < jobs; pool->n++) {
		int rc = pthread_create(&pool->threads[pool->n], NULL, worker, pool);
		if (rc != 0) {
			snprintf(err->msg, sizeof err->msg, "cannot start a worker thread: %s",
				 strerror(rc));
			break;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pool->n == 0) {
		close(pool->wake);
		pthread_mutex_destroy(&pool->lock);
		free(pool);
		return NULL;
	}
	return pool;
}

unsigned pool_jobs(const struct pool *pool)
{
	return pool->n;
}

/* Let n workers past their wait (the eventfd counts; it cannot fill up
 * at these numbers). */
static void wake(struct pool *pool, uint64_t n)
{
	while (write(pool->wake, &n, sizeof n) < 0 && errno == EINTR)
		;
}

void pool_submit(struct pool *pool, struct pool_job *job)
{
	job->next = NULL;
	pthread_mutex_lock(&pool->lock);
	if (pool->tail)
		pool->tail->next = job;
	else
		pool->head = job;
	pool->tail = job;
	pthread_mutex_unlock(&pool->lock);
	wake(pool, 1);
}

void pool_cancel(struct pool_job *job)
{
	atomic_store(&job->cancel, true);
}

void pool_free(struct pool *pool)
{
	if (!pool)
		return;
	atomic_store(&pool->stopping, true);
	wake(pool, pool->n); /* one each: past the queued jobs, they end */
	for (unsigned i = 0; i < pool->n; i++)
		pthread_join(pool->threads[i], NULL);
	pthread_mutex_destroy(&pool->lock);
	close(pool->wake);
	free(pool);
}
