/* SPDX-License-Identifier: MIT */
/*
 * pool.h - a pool of prepared sandboxes for the services (`sandpit run
 * --batch`, `sandpit mcp`): N workers, each a thread that keeps a few
 * sandboxes prepared ahead (core's sp_run_prepare), releases one with
 * the next job's program, drives the run to its end and throws it away.
 *
 * Each sandbox is used once. A worker is a thread that lives as long as
 * the pool because a sandbox's init dies with the thread that started it
 * (the kernel's parent-death signal follows the thread): a sandbox and
 * its run belong to their worker from preparation to free.
 *
 * A job whose limits are not the pool's runs cold (sp_run_start) on the
 * worker all the same; so does every job when this host cannot prepare.
 *
 * Invariants: the callbacks run on the worker's thread, one job at a
 * time per worker; a job is the caller's until its done() returns, and
 * done() is called exactly once for every job submitted.
 */
#ifndef POOL_H
#define POOL_H

#include <stdatomic.h>
#include <stdbool.h>

#include "sandpit.h"

struct pool;
struct pool_job;

/* About once a second while the job runs: the latest usage sample. */
typedef void (*pool_progress_fn)(struct pool_job *job, const struct sp_usage *u);
/* The job is over: r is its result, or NULL with why saying why it did
 * not run (cancelled before it started, the sandbox could not start). */
typedef void (*pool_done_fn)(struct pool_job *job, const struct sp_result *r,
			     const char *why);

struct pool_job {
	struct sp_config cfg;      /* the caller's; its strings live until done() */
	pool_progress_fn progress; /* may be NULL */
	pool_done_fn done;
	void *ctx;                 /* the caller's */
	atomic_bool cancel;        /* pool_cancel(): the run is killed */
	struct pool_job *next;     /* the pool's queue */
};

/* Start jobs workers (0: the number of CPUs), preparing for p's
 * interpreter, limits and preload (p's strings live as long as the
 * pool). NULL with err->msg on failure. */
struct pool *pool_new(unsigned jobs, const struct sp_prepare *p, struct sp_error *err);
unsigned pool_jobs(const struct pool *pool);
/* Queue a job; a free worker takes it at once. */
void pool_submit(struct pool *pool, struct pool_job *job);
/* Ask for a job's end from any thread: killed if running (within
 * 100 ms), else done() with why "cancelled before it started" when a
 * worker reaches it. */
void pool_cancel(struct pool_job *job);
/* Finish every queued job, stop the workers and free their sandboxes. */
void pool_free(struct pool *pool);

#endif
