/*
 * pool.c - the services' workers and their prepared sandboxes (pool.h).
 *
 * A worker's life: prepare a sandbox and drive it until it says ready
 * (the interpreter started, the preload imported), wait for a job,
 * release the sandbox with the job's program (or, when it cannot be
 * used, start the job cold), drive the run to its end, hand the result
 * to done(), free the run, and prepare the next one. So at most jobs
 * programs run at once, and a job that finds a worker waiting pays none
 * of the sandbox's making (docs/performance.md).
 *
 * Cancelling is a flag the worker reads at least every POLL_MS: the run
 * API is used from its owner thread only (sandpit.h).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pool.h"
#include "banned.h"

#define POLL_MS 100
#define PROGRESS_MS 1000
#define MAX_JOBS 256

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct pool_job *head, *tail;
	bool stopping;
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

/* A sandbox prepared and ready, or NULL (then the job starts cold). */
static struct sp_run *make_ready(struct pool *pool)
{
	struct sp_error err = { "" };
	struct sp_run *run;
	struct sp_event ev;

	if (atomic_load(&pool->prep_broken))
		return NULL;
	if (sp_run_prepare(&pool->prep, &run, &err) < 0) {
		prep_failed(pool, err.msg);
		return NULL;
	}
	for (;;) {
		struct pollfd p = { .fd = sp_run_fd(run), .events = POLLIN };
		int t = sp_run_timeout_ms(run);

		if (t != 0)
			poll(&p, 1, t < 0 || t > POLL_MS ? POLL_MS : t);
		while (sp_run_next_event(run, &ev) > 0) {
			if (ev.type == SP_EVENT_READY)
				return run;
			if (ev.type == SP_EVENT_FINISHED) {
				const struct sp_result *r = sp_run_result(run);
				prep_failed(pool, r ? r->error : NULL);
				sp_run_free(run);
				return NULL;
			}
		}
	}
}

/* The run for job: the prepared sandbox released with its program, or a
 * cold start. NULL with err when neither could start. */
static struct sp_run *start(struct pool *pool, struct pool_job *job, struct sp_run **prep,
			    struct sp_error *err)
{
	struct sp_run *run = *prep;
	struct sp_event ev;

	*prep = NULL;
	if (run) {
		/* a sandbox that died while it waited says so now */
		while (!sp_run_finished(run) && sp_run_next_event(run, &ev) > 0)
			;
		if (sp_run_ready(run) && limits_equal(&job->cfg.limits, &pool->prep.limits) &&
		    sp_run_release(run, &job->cfg, err) == 0)
			return run;
		sp_run_free(run); /* not for this job: never used */
	}
	err->msg[0] = '\0';
	if (sp_run_start(&job->cfg, &run, err) < 0)
		return NULL;
	return run;
}

static void run_job(struct pool *pool, struct pool_job *job, struct sp_run **prep)
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
	run = start(pool, job, prep, &err);
	if (!run) {
		job->done(job, NULL, err.msg[0] ? err.msg : "the sandbox could not start");
		return;
	}
	while (!sp_run_finished(run)) {
		struct pollfd p = { .fd = sp_run_fd(run), .events = POLLIN };
		int t = sp_run_timeout_ms(run);

		if (atomic_load(&job->cancel) && !cancelled) {
			sp_run_cancel(run);
			cancelled = true;
		}
		if (t != 0)
			poll(&p, 1, t < 0 || t > POLL_MS ? POLL_MS : t);
		while (sp_run_next_event(run, &ev) > 0)
			if (ev.type == SP_EVENT_USAGE && ev.usage)
				last = *ev.usage;
		if (job->progress && now_ms() >= next_progress && !sp_run_finished(run)) {
			job->progress(job, &last);
			next_progress = now_ms() + PROGRESS_MS;
		}
	}
	job->done(job, sp_run_result(run), NULL);
	sp_run_free(run);
}

static struct pool_job *take(struct pool *pool)
{
	struct pool_job *job;

	pthread_mutex_lock(&pool->lock);
	while (!pool->head && !pool->stopping)
		pthread_cond_wait(&pool->cond, &pool->lock);
	job = pool->head;
	if (job) {
		pool->head = job->next;
		if (!pool->head)
			pool->tail = NULL;
	}
	pthread_mutex_unlock(&pool->lock);
	return job;
}

static void *worker(void *arg)
{
	struct pool *pool = arg;
	struct sp_run *prep = NULL;
	struct pool_job *job;

	for (;;) {
		if (!prep) {
			bool stopping;
			pthread_mutex_lock(&pool->lock);
			stopping = pool->stopping && !pool->head;
			pthread_mutex_unlock(&pool->lock);
			if (stopping)
				break;
			prep = make_ready(pool);
		}
		if (!(job = take(pool)))
			break;
		run_job(pool, job, &prep);
	}
	if (prep)
		sp_run_free(prep);
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
	pthread_mutex_init(&pool->lock, NULL);
	pthread_cond_init(&pool->cond, NULL);
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
		free(pool);
		return NULL;
	}
	return pool;
}

unsigned pool_jobs(const struct pool *pool)
{
	return pool->n;
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
	pthread_cond_signal(&pool->cond);
	pthread_mutex_unlock(&pool->lock);
}

void pool_cancel(struct pool_job *job)
{
	atomic_store(&job->cancel, true);
}

void pool_free(struct pool *pool)
{
	if (!pool)
		return;
	pthread_mutex_lock(&pool->lock);
	pool->stopping = true;
	pthread_cond_broadcast(&pool->cond);
	pthread_mutex_unlock(&pool->lock);
	for (unsigned i = 0; i < pool->n; i++)
		pthread_join(pool->threads[i], NULL);
	pthread_mutex_destroy(&pool->lock);
	pthread_cond_destroy(&pool->cond);
	free(pool);
}
