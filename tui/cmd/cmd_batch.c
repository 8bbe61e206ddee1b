/* SPDX-License-Identifier: MIT */
/*
 * cmd_batch.c - `sandpit run --batch`: a stream of run requests, one JSON
 * object a line on stdin (request.h), and one `--json` result a line on
 * stdout in the same order, as a grader or a service drives it.
 *
 * Up to --jobs runs go at once, each from a prepared sandbox of the pool
 * (pool.h), used once. Results are printed in the order of the requests:
 * the reader stays at most READ_AHEAD requests ahead of the oldest one
 * not yet printed. A line that is not a request gets an error line,
 * {"error": "...", "line": N}, in its place, and the batch goes on.
 *
 * SIGINT, SIGTERM and SIGHUP end it at once: the runs going are killed
 * (their results say cancelled), those waiting and the lines read but not
 * taken get an error line, and nothing is left behind (requests live in
 * memory, request.h).
 *
 * Exit status: 0 when every line was read and answered (whatever the
 * runs did: each result says), 2 for bad usage, 128+N after signal N.
 */
#include <getopt.h>
#include <pthread.h>
#include <time.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "text/json_values.h"
#include "text/linereader.h"
#include "cmd/options.h"
#include "service/pool.h"
#include "service/request.h"
#include "service/result_json.h"
#include "json_text.h"
#include "banned.h"

#define MAX_LINE (64u << 20)
#define READ_AHEAD_PER_JOB 2
#define STOP_CHECK_MS 100 /* how soon a wait notices a stop signal */

struct slot {
	struct pool_job job;
	struct request rq;
	struct batch *b;
	char *out;             /* the line to print, once done */
	bool done;
	struct slot *next;
};

struct batch {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct slot *head, *tail;
	size_t pending;
	struct request_policy pol;
	struct pool *pool;
	volatile sig_atomic_t *stop; /* the signal that ends the batch, or 0 */
	bool cancelled;              /* every slot told so, once */
};

static char *dump_line(json_t *o)
{
	char *s = o ? sp_json_dumps(o, JSON_COMPACT) : NULL;

	json_decref(o);
	return s ? s : strdup("{\"error\": \"out of memory\"}");
}

static void slot_done(struct pool_job *job, const struct sp_result *r, const char *why)
{
	struct slot *s = job->ctx;
	char *out = result_json_line(r, why, &s->rq.limits);

	if (!out)
		out = strdup("{\"error\": \"out of memory\"}");

	pthread_mutex_lock(&s->b->lock);
	s->out = out;
	s->done = true;
	pthread_cond_broadcast(&s->b->cond);
	pthread_mutex_unlock(&s->b->lock);
}

/* After a stop signal, once: every run not done is cancelled (a running
 * one is killed, a waiting one never starts). Called with b->lock. */
static void cancel_all(struct batch *b)
{
	if (b->cancelled || !*b->stop)
		return;
	b->cancelled = true;
	for (struct slot *s = b->head; s; s = s->next)
		if (!s->done)
			pool_cancel(&s->job);
}

/* Wait for a slot to change, or a while: a signal's handler cannot
 * signal the condition, so the wait looks at the stop flag that often. */
static void wait_slot(struct batch *b)
{
	struct timespec t;

	cancel_all(b);
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += STOP_CHECK_MS * 1000000L;
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&b->cond, &b->lock, &t);
	cancel_all(b);
}

/* Print the finished slots at the head; with wait, block until the head
 * one is done first. */
static void flush(struct batch *b, bool wait)
{
	pthread_mutex_lock(&b->lock);
	for (;;) {
		struct slot *s = b->head;
		if (!s || (!s->done && !wait))
			break;
		while (!s->done)
			wait_slot(b);
		b->head = s->next;
		if (!b->head)
			b->tail = NULL;
		b->pending--;
		pthread_mutex_unlock(&b->lock);
		puts(s->out);
		fflush(stdout);
		request_free(&s->rq);
		free(s->out);
		free(s);
		pthread_mutex_lock(&b->lock);
		wait = false;
	}
	pthread_mutex_unlock(&b->lock);
}

static void append(struct batch *b, struct slot *s)
{
	pthread_mutex_lock(&b->lock);
	if (b->tail)
		b->tail->next = s;
	else
		b->head = s;
	b->tail = s;
	b->pending++;
	pthread_mutex_unlock(&b->lock);
}

static struct slot *bad_line(struct batch *b, size_t line_no, const char *why)
{
	struct slot *s = calloc(1, sizeof *s);
	json_t *o = json_pack("{s:s, s:I}", "error", why, "line", (json_int_t)line_no);

	if (!s)
		return NULL;
	s->b = b;
	s->out = dump_line(o);
	s->done = true;
	return s;
}

/* One line into a slot: a job submitted, or an error line. */
static struct slot *take_line(struct batch *b, struct pool *pool, size_t line_no,
			      const char *line, size_t len)
{
	json_error_t e;
	json_t *req;
	char why[700], msg[800];
	struct slot *s;

	/* a parse's memory follows the values, not the bytes: bounded first */
	if (json_values_count(line, len, JSON_MAX_VALUES) > JSON_MAX_VALUES) {
		snprintf(msg, sizeof msg, "over %u JSON values in one request: send big data "
			 "as one string (a file's text or base64)", JSON_MAX_VALUES);
		return bad_line(b, line_no, msg);
	}
	req = json_loadb(line, len, 0, &e);
	if (!req) {
		snprintf(msg, sizeof msg, "not JSON at column %d: %s", e.column, e.text);
		return bad_line(b, line_no, msg);
	}
	if (*b->stop) {
		json_decref(req);
		snprintf(msg, sizeof msg, "not run: the batch was stopped by signal %d",
			 (int)*b->stop);
		return bad_line(b, line_no, msg);
	}
	if (!(s = calloc(1, sizeof *s))) {
		json_decref(req);
		return NULL;
	}
	if (request_parse(req, &b->pol, &s->rq, why, sizeof why) < 0) {
		json_decref(req);
		free(s);
		return bad_line(b, line_no, why);
	}
	json_decref(req);
	s->b = b;
	request_config(&s->rq, &b->pol, &s->job.cfg);
	s->job.done = slot_done;
	s->job.ctx = s;
	atomic_init(&s->job.cancel, false);
	append(b, s);
	pool_submit(pool, &s->job);
	return NULL; /* already queued */
}

/* a usage error: its message, where the help is, exit status 2 */
#define batch_usage(...) option_usage_error("sandpit run --batch", __VA_ARGS__)

static void batch_help(void)
{
	printf("usage: sandpit run --batch [--jobs N] [--preload MODULES] [LIMIT OPTIONS] < requests\n"
	       "\n"
	       "Runs one request per line of stdin, each a JSON object:\n"
	       "  {\"code\": \"print(1)\", \"files\": [{\"name\": \"a.txt\", \"text\": \"...\"} |\n"
	       "   {\"name\": \"b.bin\", \"base64\": \"...\"}], \"stdin\": \"...\", \"carry\": {...},\n"
	       "   \"limits\": {\"cpu\": 2, \"wall\": 5, \"memory\": \"256M\", \"output\": 65536,\n"
	       "              \"disk\": \"16M\", \"procs\": 8}}\n"
	       "and prints one `sandpit run --json` result per line, in the same order.\n"
	       "A line that is not a request gets {\"error\": \"...\", \"line\": N}.\n"
	       "\n"
	       "  --jobs N            runs at once, each from a prepared sandbox [CPUs]\n"
	       "  --preload MODULES   modules the prepared sandboxes import ahead\n"
	       "                      (comma-separated, e.g. numpy,pandas) [none]\n"
	       "  --cpu --wall --memory --output --disk --procs --carry-max --python\n"
	       "                      as for `sandpit run`: the defaults of a request\n");
}

/* The options: the defaults of a request into b->pol, the pool's size
 * and preload list. Returns -1 to go on, else the exit status. */
static int batch_options(struct batch *b, int argc, char **argv, unsigned *jobs,
			 char **preload_text)
{
	enum { O_BATCH = 1000, O_JOBS, O_PRELOAD };
	static const enum opt_id limit_opts[] = { OPT_CPU, OPT_WALL, OPT_MEMORY, OPT_OUTPUT,
						   OPT_DISK, OPT_PROCS, OPT_CARRY_MAX, OPT_PYTHON };
	struct option opts[16];
	size_t n_opts = 0;
	struct opt_value v;
	char why[256];
	int c;

	for (size_t i = 0; i < sizeof limit_opts / sizeof limit_opts[0]; i++)
		opts[n_opts++] = (struct option){ options[limit_opts[i]].name, required_argument,
						  NULL, (int)limit_opts[i] };
	opts[n_opts++] = (struct option){ "batch", no_argument, NULL, O_BATCH };
	opts[n_opts++] = (struct option){ "jobs", required_argument, NULL, O_JOBS };
	opts[n_opts++] = (struct option){ "preload", required_argument, NULL, O_PRELOAD };
	opts[n_opts++] = (struct option){ "help", no_argument, NULL, 'h' };
	opts[n_opts] = (struct option){ NULL, 0, NULL, 0 };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_BATCH:
			break;
		case O_JOBS:
			if (option_jobs(optarg, jobs) < 0)
				return batch_usage("--jobs '%s': give a number from 1 to 256", optarg);
			break;
		case O_PRELOAD:
			*preload_text = optarg;
			break;
		case 'h':
			batch_help();
			return 0;
		case OPT_PYTHON:
			b->pol.python = optarg;
			break;
		default:
			if (c >= 0 && c < OPT_N && options[c].arg) {
				if (option_parse((enum opt_id)c, optarg, &b->pol.dflt, &v, why,
						 sizeof why) < 0)
					return batch_usage("%s", why);
				if (c == OPT_CARRY_MAX)
					b->pol.dflt.carry_bytes = v.n;
				break;
			}
			return batch_usage("unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc)
		return batch_usage("'%s': the requests come on stdin, not as files", argv[optind]);
	return -1;
}

/* One line of stdin (line_read_each): its slot queued, then the results
 * done at the head printed, waiting for the oldest when READ_AHEAD
 * requests a job are out. */
static void batch_line(void *ctx, size_t line_no, const char *line, size_t len)
{
	struct batch *b = ctx;
	struct slot *s;

	if (!line)
		s = bad_line(b, line_no, "the line is over 64 MiB: send big files by --allow-dir "
			     "paths or split the work");
	else
		s = take_line(b, b->pool, line_no, line, len);
	if (s)
		append(b, s);
	flush(b, b->pending >= READ_AHEAD_PER_JOB * pool_jobs(b->pool));
}

int cmd_run_batch(int argc, char **argv)
{
	struct batch b;
	struct sp_prepare prep;
	const char *preload[SP_MAX_PRELOAD];
	char *preload_text = NULL;
	struct sp_error err = { "" };
	unsigned jobs = 0;
	volatile sig_atomic_t *stop;
	int status;

	memset(&b, 0, sizeof b);
	request_policy_init(&b.pol);
	if ((status = batch_options(&b, argc, argv, &jobs, &preload_text)) >= 0)
		return status;
	/* the operator's batch: a request may ask any limit the engine takes */
	memset(&b.pol.max, 0xff, sizeof b.pol.max);
	b.pol.max.carry_bytes = b.pol.dflt.carry_bytes;
	request_prepare(&b.pol, preload_text, preload, &prep);

	stop = line_stop_on_signals((const int[]){ SIGINT, SIGTERM, SIGHUP, 0 });
	b.stop = stop;
	pthread_mutex_init(&b.lock, NULL);
	pthread_cond_init(&b.cond, NULL);
	if (!(b.pool = pool_new(jobs, &prep, &err))) {
		fprintf(stderr, "sandpit run --batch: %s\n", err.msg);
		return 125;
	}
	line_read_each(STDIN_FILENO, MAX_LINE, stop, batch_line, &b);
	while (b.head)
		flush(&b, true);
	pool_free(b.pool);
	pthread_mutex_destroy(&b.lock);
	pthread_cond_destroy(&b.cond);
	return *stop ? 128 + *stop : 0;
}
