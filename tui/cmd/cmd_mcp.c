/* SPDX-License-Identifier: MIT */
/*
 * cmd_mcp.c - `sandpit mcp`: the sandbox as a Model Context Protocol
 * server on stdio, so an AI assistant can run the Python it writes.
 *
 * MCP over stdio is JSON-RPC 2.0, one message a line: requests and
 * notifications come on stdin, responses and our notifications go on
 * stdout, and stdout carries nothing else (diagnostics go to stderr). A
 * session: the client sends initialize (we answer in the revision it
 * asked for when we speak it: 2025-11-25, 2025-06-18, or 2025-03-26 and
 * 2024-11-05 with text-only results; mcp_revision.h), then
 * notifications/initialized, then tools/list and tools/call as it likes,
 * several at once. It ends when the client closes our stdin.
 *
 * Every request gets an answer bound to its id, which is echoed as the
 * client wrote it (jsonrpc.h reads it even from a text jansson cannot
 * hold or that was never held whole); a request whose id cannot be read
 * gets an error only where the revision's schema has one without an id.
 *
 * The reading thread (this one) answers what is quick itself; each
 * tools/call goes to the pool (pool.h), whose worker answers it when the
 * run ends, so N calls run at once. notifications/cancelled kills the
 * run (and, as the protocol asks, gets no response); a progressToken
 * gets notifications/progress about once a second. The server keeps no
 * session state: carry_out goes back to the model, which passes it as
 * carry. Every run is kept in the history (mcp_history.h), and its kept
 * files are served by resources/read while the server lives.
 */
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text/base64.h"
#include "cmd/commands.h"
#include "text/fileio.h"
#include "config/limit_fields.h"
#include "text/json_values.h"
#include "text/linereader.h"
#include "service/call_queue.h"
#include "service/jsonrpc.h"
#include "service/allow_dir.h"
#include "service/mcp_content.h"
#include "service/mcp_history.h"
#include "service/mcp_picture.h"
#include "service/mcp_revision.h"
#include "service/mcp_tools.h"
#include "cmd/options.h"
#include "service/pool.h"
#include "service/request.h"
#include "service/result_json.h"
#include "json_text.h"
#include "banned.h"

#define MAX_MESSAGE (64ull << 20) /* --max-message's default */
#define MAX_ALLOW 16
#define MAX_RESOURCES 2000
#define ENV_URI "sandpit://environment"

struct resource {
	char *uri, *path, *name;
	struct resource *next;
};

struct mcp {
	pthread_mutex_t out_lock, lock;
	struct call *calls;           /* in flight */
	struct resource *res;         /* newest first */
	size_t n_res;
	struct request_policy pol;
	struct allow_dir allow[MAX_ALLOW]; /* held open from the start */
	struct pool *pool;
	bool old_protocol;            /* before 2025-06-18: text-only results */
	enum mcp_rev rev;             /* the revision spoken (mcp_revision.h) */
	struct rpc_idscan over;       /* the id of a line over --max-message, read as it is dropped */
	unsigned seq;
	char *info;                   /* sandbox_info's text, once known */
	unsigned jobs;
	struct call_queue queue;      /* the calls held, bounded */
	unsigned max_queue;
	uint64_t max_pending, max_message;
	size_t result_budget;         /* --max-result: a result's bytes as sent */
};

enum call_kind { CALL_RUN, CALL_INFO_TOOL, CALL_INFO_RESOURCE };

struct call {
	struct pool_job job;
	struct request rq;
	struct mcp *m;
	enum call_kind kind;
	json_t *id, *token;
	unsigned progress_n;
	atomic_bool cancelled;        /* by the client: no response */
	bool admitted;                /* counted in m->queue */
	char dir[1100];               /* its history dir */
	char keep[1200];
	struct rpc_batch *batch;      /* the batch it belongs to, held */
	struct call *next;
};

/* The batch (2025-03-26) this thread's answers go to: set by the reader
 * while it dispatches a batch's requests and by a worker while it
 * answers one of them; NULL: each answer on its own line. */
static _Thread_local struct rpc_batch *answering;

/* One message's text out, whole, on one line (taken). */
static void send_line(struct mcp *m, char *s)
{
	size_t n, at = 0;

	if (!s)
		return;
	n = strlen(s);
	s[n++] = '\n'; /* over the NUL: written by length */
	pthread_mutex_lock(&m->out_lock);
	while (at < n) {
		ssize_t w = write(STDOUT_FILENO, s + at, n - at);
		if (w <= 0)
			break; /* the client is gone: its stdin EOF ends us */
		at += (size_t)w;
	}
	pthread_mutex_unlock(&m->out_lock);
	free(s);
}

/* An answer's text (taken): into the batch being answered, or a line. */
static void send_text(struct mcp *m, char *s)
{
	if (s && answering) {
		if (rpc_batch_add(answering, s) < 0)
			fprintf(stderr, "sandpit mcp: out of memory: an answer left out of its batch\n");
		free(s);
		return;
	}
	send_line(m, s);
}

static void send_msg(struct mcp *m, json_t *msg)
{
	char *s = sp_json_dumps(msg, JSON_COMPACT);

	json_decref(msg);
	send_text(m, s);
}

static void reply(struct mcp *m, json_t *id, json_t *result)
{
	send_msg(m, json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id, "result", result));
}

/* An error for the request whose id is id (its text when jansson cannot
 * hold it). One whose id cannot be read goes out only where the
 * revision's schema has an error without an id; else stderr alone has
 * it (JSON-RPC's "id": null is no valid MCP message). */
static void send_error(struct mcp *m, const struct rpc_id *id, int code, const char *text)
{
	fprintf(stderr, "sandpit mcp: %s\n", text);
	if (id->kind != RPC_ID_HELD && id->kind != RPC_ID_TEXT &&
	    !mcp_rev_has(m->rev, MCP_ERROR_WITHOUT_ID)) {
		fprintf(stderr, "sandpit mcp: (not answered: no request id could be read, and "
			"protocol %s has no error without one)\n", mcp_rev_name(m->rev));
		return;
	}
	send_text(m, rpc_error_text(id, code, mcp_string(text, strlen(text))));
}

__attribute__((format(printf, 4, 5)))
static void refuse(struct mcp *m, const struct rpc_id *id, int code, const char *fmt, ...)
{
	char text[700];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	send_error(m, id, code, text);
}

__attribute__((format(printf, 4, 5)))
static void reply_error(struct mcp *m, json_t *id, int code, const char *fmt, ...)
{
	struct rpc_id rid = { id ? RPC_ID_HELD : RPC_ID_NONE, id, "" };
	char text[700];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	send_error(m, &rid, code, text);
}

/* ---- sandbox_info ---------------------------------------------------- */

static const char probe[] =
	"import sys, json, importlib.metadata as md\n"
	"v = {'python': sys.version.split()[0]}\n"
	"for m in ('numpy', 'pandas', 'matplotlib', 'scipy', 'pillow'):\n"
	"    try:\n"
	"        v[m] = md.version(m)\n"
	"    except Exception:\n"
	"        v[m] = None\n"
	"print(json.dumps(v))\n";

static void limits_line(char *buf, size_t len, const struct sp_limits *d, const struct sp_limits *x)
{
	size_t at = 0;

	for (int i = 0; i < LIM_COUNT; i++) {
		char a[32], b[32];
		int w;
		limit_format((enum limit_id)i, d, a, sizeof a);
		limit_format((enum limit_id)i, x, b, sizeof b);
		w = snprintf(buf + at, len - at, "%s%s %s (maximum %s)", i ? ", " : "",
			     limit_fields[i].key, a, b);
		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
	}
}

/* The environment text from the probe's result. */
static char *info_text(struct mcp *m, const struct sp_result *r)
{
	json_t *v = r && r->status == SP_STATUS_OK && r->out ? json_loadb(r->out, r->out_len, 0, NULL)
							    : NULL;
	char pk[400] = "", lim[600], *text = NULL;
	size_t at = 0;
	const char *key;
	json_t *val;

	json_object_foreach(v, key, val) {
		if (!strcmp(key, "python") || !json_is_string(val))
			continue;
		int w = snprintf(pk + at, sizeof pk - at, "%s%s %s", at ? ", " : "", key,
				 json_string_value(val));
		if (w > 0 && (size_t)w < sizeof pk - at)
			at += (size_t)w;
	}
	limits_line(lim, sizeof lim, &m->pol.dflt, &m->pol.max);
	if (asprintf(&text,
		"sandpit %s runs each run_python call as one Python program in a fresh sandbox, "
		"thrown away after the run (%u at once).\n"
		"Python %s; packages: %s. No pip and no network: nothing else can be installed.\n"
		"Limits (seconds and bytes; pass \"limits\" to change one, up to its maximum): %s.\n"
		"\n"
		"The rules, and the way around each:\n"
		"- No network: a socket to anywhere is refused and reported as a violation with its "
		"line. Send data in as files instead.\n"
		"- No host files: the program sees a read-only system and an empty work dir "
		"(its current directory). Send inputs with \"files\" ({name, text} or {name, "
		"base64}); files it writes come back: pictures as images, small text attached, "
		"the rest as resource links.\n"
		"- Pictures: matplotlib works headless; plt.show() saves each figure as "
		"figure-N.png, returned as an image.\n"
		"- No state between calls: each run starts from nothing. In the program, "
		"carry(name=value) keeps JSON values; the result's carry_out, passed back as "
		"\"carry\", makes them globals in the next run.\n"
		"- stdin: pass \"stdin\" text; without it input() gets end of file.\n"
		"- Limits: CPU, wall time, memory, output, disk and processes are the kernel's; a "
		"run over one is stopped, and the result says which. Do less, or ask a higher "
		"limit.\n"
		"- Processes: subprocess works within the process limit; nothing can escape the "
		"sandbox or outlive the run.\n"
		"The result's text gives the status in words, stdout and stderr (cut to a stated "
		"size), violations and hints; isError is true whenever the run did not end "
		"cleanly; structuredContent is the full JSON result, within the result's size "
		"budget: a stream cut is whole at the sandpit://output/ resource the text names.\n",
		SP_VERSION, m->jobs, v && json_is_string(json_object_get(v, "python")) ?
		json_string_value(json_object_get(v, "python")) : "3 (its version unknown)",
		pk[0] ? pk : "none of numpy, pandas, matplotlib, scipy", lim) < 0)
		text = NULL;
	json_decref(v);
	return text;
}

static void answer_info(struct mcp *m, struct call *c, const char *text)
{
	if (c->kind == CALL_INFO_TOOL)
		reply(m, c->id, json_pack("{s:[{s:s, s:s}], s:b}", "content", "type", "text",
					  "text", text, "isError", 0));
	else
		reply(m, c->id, json_pack("{s:[{s:s, s:s, s:s}]}", "contents", "uri", ENV_URI,
					  "mimeType", "text/plain", "text", text));
}

/* ---- calls ------------------------------------------------------------ */

static void call_unlink(struct mcp *m, struct call *c)
{
	pthread_mutex_lock(&m->lock);
	for (struct call **p = &m->calls; *p; p = &(*p)->next)
		if (*p == c) {
			*p = c->next;
			break;
		}
	pthread_mutex_unlock(&m->lock);
}

/* c no longer counts in the queue's bounds: before its answer goes out,
 * since the client may send its next call as soon as it has it. */
static void call_leave(struct call *c)
{
	if (c->admitted)
		call_queue_leave(&c->m->queue, c->rq.bytes);
	c->admitted = false;
}

static void call_free(struct call *c)
{
	struct rpc_batch *b = c->batch;

	call_leave(c);
	request_free(&c->rq);
	json_decref(c->id);
	json_decref(c->token);
	/* the batch's last answer sends the batch */
	if (b)
		send_line(c->m, rpc_batch_release(b));
	free(c);
}

static void resource_free(struct resource *x)
{
	free(x->uri);
	free(x->path);
	free(x->name);
	free(x);
}

/* One more resource, newest first (m->lock held); uri is taken over. */
static void resource_add(struct mcp *m, char *uri, const char *path, const char *name)
{
	struct resource *x = calloc(1, sizeof *x);

	if (x) {
		x->uri = uri;
		x->path = strdup(path);
		x->name = strdup(name);
	}
	if (!x || !x->path || !x->name) {
		if (x)
			resource_free(x);
		else
			free(uri);
		return;
	}
	x->next = m->res;
	m->res = x;
	m->n_res++;
}

/*
 * A stream the result cut, kept whole beside the run's history (as
 * `stdout` and `stderr` in its dir) and served as OUTPUT + its name, so
 * every byte of it stays reachable. 0, or -1: not kept (no dir, no disk).
 */
static int keep_output(struct mcp *m, const char *dir, const struct sp_result *r,
		       const char *output)
{
	const struct { const char *name, *data; size_t len; } s[] = {
		{ "stdout", r->out, r->out_len }, { "stderr", r->err, r->err_len } };
	char path[1200], err[300], *uri;

	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, s[i].name);
		if (fio_replace(path, s[i].data ? s[i].data : "", s[i].len, 0600, err,
				sizeof err) < 0) {
			fprintf(stderr, "sandpit mcp: %s: the whole output is not kept\n", err);
			return -1;
		}
	}
	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, s[i].name);
		if (asprintf(&uri, "%s%s", output, s[i].name) >= 0)
			resource_add(m, uri, path, s[i].name);
	}
	pthread_mutex_unlock(&m->lock);
	return 0;
}

/* Kept files become resources that resources/read serves. */
static void add_resources(struct mcp *m, const struct sp_result *r, const char *base)
{
	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; r && i < r->n_files; i++) {
		char *up, *uri;
		if (!r->files[i].kept)
			continue;
		up = mcp_uri_path(r->files[i].path);
		if (up && asprintf(&uri, "%s%s", base, up) >= 0)
			resource_add(m, uri, r->files[i].kept, r->files[i].path);
		free(up);
	}
	/* bounded: the oldest forgotten (their files stay in the history) */
	if (m->n_res > MAX_RESOURCES) {
		struct resource *p = m->res;
		for (size_t i = 1; i < MAX_RESOURCES && p; i++)
			p = p->next;
		while (p && p->next) {
			struct resource *x = p->next;
			p->next = x->next;
			resource_free(x);
			m->n_res--;
		}
	}
	pthread_mutex_unlock(&m->lock);
}

static void call_done(struct pool_job *job, const struct sp_result *r, const char *why)
{
	struct call *c = job->ctx;
	struct mcp *m = c->m;
	struct mcp_content_opts o = { m->old_protocol, c->rq.clamped, NULL, NULL,
				      m->result_budget };
	char base[1300], output[1300], *answer;
	json_t *res;

	if (c->kind != CALL_RUN) {
		char *text = info_text(m, r);
		pthread_mutex_lock(&m->lock);
		if (!m->info && text) {
			m->info = text;
			text = NULL;
		}
		pthread_mutex_unlock(&m->lock);
		call_unlink(m, c);
		call_leave(c);
		answering = c->batch;
		if (!c->cancelled)
			answer_info(m, c, m->info ? m->info : "sandbox_info: out of memory");
		answering = NULL;
		free(text);
		call_free(c);
		return;
	}
	{
		const char *name = strrchr(c->dir, '/');
		snprintf(base, sizeof base, "sandpit://runs/%s/", name ? name + 1 : "run");
		snprintf(output, sizeof output, "sandpit://output/%s/", name ? name + 1 : "run");
		o.uri_base = base;
		/* before the answer: the client may read it at once */
		if (c->dir[0] && !m->old_protocol && mcp_output_cut(r) &&
		    keep_output(m, c->dir, r, output) == 0)
			o.output_uri = output;
	}
	res = mcp_tool_result(r, why, &c->rq.limits, &o);
	answer = c->dir[0] ? mcp_history_answer(res) : NULL;
	if (c->dir[0] && !m->old_protocol)
		add_resources(m, r, base);
	call_unlink(m, c);
	call_leave(c);
	answering = c->batch;
	if (!c->cancelled)
		reply(m, c->id, res);
	else
		json_decref(res);
	answering = NULL;
	/* the history after the answer: its files are synced to disk */
	if (c->dir[0]) {
		struct sp_result failed;
		char *text = sp_result_to_json(result_or_unstarted(r, why, &c->rq.limits, &failed));
		mcp_history_save(c->dir, c->rq.code, c->rq.code_len, text,
				 r ? (unsigned)r->n_violations : 0);
		mcp_history_save_request(c->dir, &c->rq);
		mcp_history_save_answer(c->dir, answer);
		free(text);
	}
	free(answer);
	fprintf(stderr, "sandpit mcp: run %s: %s%s\n", strrchr(c->dir, '/') ? strrchr(c->dir, '/') + 1 : "",
		r ? sp_status_name(r->status) : "not started",
		atomic_load(&c->cancelled) ? " (cancelled)" : "");
	call_free(c);
	mcp_history_prune();
}

static void call_progress(struct pool_job *job, const struct sp_usage *u)
{
	struct call *c = job->ctx;
	char cpu[32], mem[32], out[32], msg[160];
	json_t *note;

	if (!c->token || c->cancelled)
		return;
	sp_format_ms(u->cpu_ms, cpu, sizeof cpu);
	sp_format_bytes(u->memory_bytes, mem, sizeof mem);
	sp_format_bytes(u->output_bytes, out, sizeof out);
	snprintf(msg, sizeof msg, "running: %s CPU, %s memory, %s output", cpu, mem, out);
	note = json_pack("{s:s, s:s, s:{s:O, s:i, s:s}}", "jsonrpc", "2.0", "method",
			 "notifications/progress", "params", "progressToken", c->token,
			 "progress", ++c->progress_n, "message", msg);
	if (!mcp_rev_has(c->m->rev, MCP_PROGRESS_MESSAGE))
		json_object_del(json_object_get(note, "params"), "message");
	send_line(c->m, sp_json_dumps(note, JSON_COMPACT)); /* never part of a batch */
	json_decref(note);
}

static struct call *call_new(struct mcp *m, json_t *id, json_t *params, enum call_kind kind)
{
	struct call *c = calloc(1, sizeof *c);
	json_t *meta = json_object_get(params, "_meta");
	json_t *token = json_object_get(meta, "progressToken");

	if (!c)
		return NULL;
	c->m = m;
	c->kind = kind;
	c->id = json_incref(id);
	if ((c->batch = answering))
		rpc_batch_hold(c->batch);
	if (json_is_string(token) || json_is_integer(token))
		c->token = json_incref(token);
	c->job.done = call_done;
	c->job.progress = call_progress;
	c->job.ctx = c;
	atomic_init(&c->job.cancel, false);
	atomic_init(&c->cancelled, false);
	return c;
}

/* Take c into the queue's bounds: 0, or -1 with the client told why
 * (c is then the caller's to free). */
static int call_admit(struct mcp *m, struct call *c)
{
	char why[400];

	if (call_queue_admit(&m->queue, c->rq.bytes, why, sizeof why) < 0) {
		reply_error(m, c->id, -32000, "%s", why);
		return -1;
	}
	c->admitted = true;
	return 0;
}

static void call_submit(struct mcp *m, struct call *c)
{
	pthread_mutex_lock(&m->lock);
	c->next = m->calls;
	m->calls = c;
	pthread_mutex_unlock(&m->lock);
	pool_submit(m->pool, &c->job);
}

static void start_info(struct mcp *m, json_t *id, json_t *params, enum call_kind kind)
{
	struct call *c;
	char err[300];

	pthread_mutex_lock(&m->lock);
	if (m->info) {
		struct call tmp = { .kind = kind, .id = id };
		pthread_mutex_unlock(&m->lock);
		answer_info(m, &tmp, m->info);
		return;
	}
	pthread_mutex_unlock(&m->lock);
	if (!(c = call_new(m, id, params, kind))) {
		reply_error(m, id, -32603, "out of memory");
		return;
	}
	c->job.progress = NULL;
	json_t *args = json_pack("{s:s}", "code", probe);
	if (request_parse(args, &m->pol, &c->rq, err, sizeof err) < 0) {
		json_decref(args);
		reply_error(m, id, -32603, "sandbox_info: %s", err);
		call_free(c);
		return;
	}
	json_decref(args);
	if (call_admit(m, c) < 0) {
		call_free(c);
		return;
	}
	request_config(&c->rq, &m->pol, &c->job.cfg);
	call_submit(m, c);
}

static void tools_call(struct mcp *m, json_t *id, json_t *params)
{
	const char *name = rpc_string(params, "name");
	json_t *args = json_object_get(params, "arguments");
	struct call *c;
	char err[900], why[1000];
	struct sp_error e;

	if (!name) {
		reply_error(m, id, -32602, "tools/call: params.name is missing or holds a \\u0000 "
			    "(run_python or sandbox_info)");
		return;
	}
	if (!strcmp(name, "sandbox_info")) {
		start_info(m, id, params, CALL_INFO_TOOL);
		return;
	}
	if (strcmp(name, "run_python") != 0) {
		reply_error(m, id, -32602, "unknown tool '%.80s': this server has run_python and "
			    "sandbox_info", name);
		return;
	}
	if (!(c = call_new(m, id, params, CALL_RUN))) {
		reply_error(m, id, -32603, "out of memory");
		return;
	}
	if (request_parse(args ? args : json_null(), &m->pol, &c->rq, err, sizeof err) < 0) {
		snprintf(why, sizeof why, "run_python: bad arguments, nothing ran: %s", err);
		fprintf(stderr, "sandpit mcp: %s\n", why);
		reply(m, id, mcp_tool_error(why));
		call_free(c);
		return;
	}
	if (call_admit(m, c) < 0) {
		call_free(c);
		return;
	}
	request_config(&c->rq, &m->pol, &c->job.cfg);
	pthread_mutex_lock(&m->lock);
	unsigned n = ++m->seq;
	pthread_mutex_unlock(&m->lock);
	if (mcp_history_new(n, c->dir, sizeof c->dir) == 0) {
		snprintf(c->keep, sizeof c->keep, "%s/files", c->dir);
		if (sp_keep_dir_prepare(c->keep, &e) == 0)
			c->job.cfg.keep_dir = c->keep;
	} else {
		c->dir[0] = '\0';
	}
	call_submit(m, c);
}

/* ---- resources -------------------------------------------------------- */

static void resources_list(struct mcp *m, json_t *id)
{
	json_t *list = json_array();

	json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s}", "uri", ENV_URI, "name",
					      "environment", "description", "The sandbox: Python and "
					      "packages, limits, rules", "mimeType", "text/plain"));
	pthread_mutex_lock(&m->lock);
	for (struct resource *x = m->res; x; x = x->next)
		json_array_append_new(list, json_pack("{s:s, s:o}", "uri", x->uri, "name",
						      mcp_string(x->name, strlen(x->name))));
	pthread_mutex_unlock(&m->lock);
	reply(m, id, json_pack("{s:o}", "resources", list));
}

static void resources_read(struct mcp *m, json_t *id, json_t *params)
{
	const char *uri = rpc_string(params, "uri");
	char *path = NULL, *data;
	struct fio_error e;
	size_t n;
	const char *type;
	json_t *content;

	if (!uri) {
		reply_error(m, id, -32602, "resources/read: params.uri is missing or holds a \\u0000");
		return;
	}
	if (!strcmp(uri, ENV_URI)) {
		start_info(m, id, params, CALL_INFO_RESOURCE);
		return;
	}
	pthread_mutex_lock(&m->lock);
	for (struct resource *x = m->res; x; x = x->next)
		if (!strcmp(x->uri, uri)) {
			path = strdup(x->path);
			break;
		}
	pthread_mutex_unlock(&m->lock);
	if (!path) {
		/* -32002: the protocol's code for a resource not found */
		reply_error(m, id, -32002, "no resource '%.200s': this server serves the files of "
			    "its own runs while it lives, and sandpit://environment", uri);
		return;
	}
	data = fio_read(path, 64u << 20, FIO_NOFOLLOW, &n, &e);
	free(path);
	if (!data) {
		reply_error(m, id, -32002, "resource '%.200s' is gone from the history (only the "
			    "newest %d runs are kept)", uri, MCP_HISTORY_RUNS);
		return;
	}
	/* an image only when it decodes within the bounds an image block has */
	type = mcp_picture_type(data, n);
	if (!type && mcp_is_text(data, n)) {
		content = json_pack("{s:s, s:s, s:s%}", "uri", uri, "mimeType", "text/plain",
				    "text", data, n);
	} else {
		char *b64 = base64_encode(data, n);
		content = json_pack("{s:s, s:s, s:s}", "uri", uri, "mimeType",
				    type ? type : "application/octet-stream", "blob", b64 ? b64 : "");
		free(b64);
	}
	free(data);
	reply(m, id, json_pack("{s:[o]}", "contents", content));
}

/* ---- the session ------------------------------------------------------ */

static void initialize(struct mcp *m, json_t *id, json_t *params)
{
	const char *asked = rpc_string(params, "protocolVersion");
	json_t *res;

	m->rev = mcp_rev_negotiate(asked);
	m->old_protocol = !mcp_rev_has(m->rev, MCP_RICH_RESULTS);
	fprintf(stderr, "sandpit mcp: client asked protocol %.40s, speaking %s\n",
		asked ? asked : "(none)", mcp_rev_name(m->rev));
	res = json_pack("{s:s, s:{s:{s:b}, s:{s:b, s:b}}, s:{s:s, s:s, s:s}, s:s}",
		"protocolVersion", mcp_rev_name(m->rev),
		"capabilities", "tools", "listChanged", 0, "resources", "subscribe", 0,
		"listChanged", 0,
		"serverInfo", "name", "sandpit", "title", "sandpit Python sandbox", "version",
		SP_VERSION,
		"instructions", "run_python runs a Python program in a fresh sandbox (no network, "
		"no host files, kernel-enforced limits) and returns its output, violations, "
		"pictures and files. Runs share nothing: pass a result's carry_out as carry to "
		"keep values. sandbox_info tells versions, limits and rules.");
	if (!mcp_rev_has(m->rev, MCP_RICH_RESULTS))
		json_object_del(json_object_get(res, "serverInfo"), "title");
	reply(m, id, res);
}

static void cancelled(struct mcp *m, json_t *params)
{
	json_t *rid = json_object_get(params, "requestId");

	pthread_mutex_lock(&m->lock);
	for (struct call *c = m->calls; c; c = c->next)
		if (rid && json_equal(c->id, rid)) {
			atomic_store(&c->cancelled, true);
			pool_cancel(&c->job);
			fprintf(stderr, "sandpit mcp: cancelling a call on the client's word\n");
		}
	pthread_mutex_unlock(&m->lock);
}

static void dispatch(struct mcp *m, json_t *msg)
{
	json_t *id = json_object_get(msg, "id");
	const char *method = json_string_value(json_object_get(msg, "method"));
	json_t *params = json_object_get(msg, "params");

	/* take_message checked the rest: "jsonrpc", a method, an id we hold */
	if (params && !json_is_object(params)) {
		if (id)
			reply_error(m, id, -32602, "%s: params must be an object", method);
		return;
	}
	if (!id) {
		/* notifications: no response, ever */
		if (!strcmp(method, "notifications/cancelled"))
			cancelled(m, params);
		return;
	}
	if (!strcmp(method, "initialize"))
		initialize(m, id, params);
	else if (!strcmp(method, "ping"))
		reply(m, id, json_object());
	else if (!strcmp(method, "tools/list"))
		reply(m, id, json_pack("{s:o}", "tools", mcp_tools_list(m->rev)));
	else if (!strcmp(method, "tools/call"))
		tools_call(m, id, params ? params : json_object());
	else if (!strcmp(method, "resources/list"))
		resources_list(m, id);
	else if (!strcmp(method, "resources/templates/list"))
		reply(m, id, json_pack("{s:[]}", "resourceTemplates"));
	else if (!strcmp(method, "resources/read"))
		resources_read(m, id, params);
	else
		reply_error(m, id, -32601, "unknown method '%.80s'", method);
}

static void mcp_help(void)
{
	struct sp_limits l;

	sp_limits_default(&l);
	printf("usage: sandpit mcp [OPTIONS]\n"
	       "\n"
	       "A Model Context Protocol server on stdin/stdout (JSON-RPC, one message a line;\n"
	       "messages for a person go to stderr), for AI assistants that run the Python\n"
	       "they write: tools run_python and sandbox_info, resource sandpit://environment.\n"
	       "Client configuration: docs/mcp.md, or man sandpit.\n"
	       "\n"
	       "  --jobs N           runs at once, each from a prepared sandbox [CPUs]\n"
	       "  --allow-dir DIR    a run may read host files under DIR (repeatable) [none]\n"
	       "  --max-cpu SECONDS --max-wall SECONDS --max-memory SIZE --max-output SIZE\n"
	       "  --max-disk SIZE --max-procs N\n"
	       "                     the highest limits a call may ask: a higher one is lowered\n"
	       "                     and the result says so [the defaults of sandpit run]\n"
	       "  --max-queue N      calls that may wait for a sandbox; one more is refused [%d]\n"
	       "  --max-pending SIZE bytes of requests held for calls not yet answered [%lluM]\n"
	       "  --max-message SIZE the longest message (one line) read [%lluM]\n"
	       "  --max-result SIZE  a result's size as sent (text, JSON and pictures); what\n"
	       "                     it cuts stays at a resource [1M, at least 64K]\n"
	       "  --preload MODULES  modules the prepared sandboxes import ahead (numpy,pandas)\n"
	       "  --python PATH      the interpreter [/usr/bin/python3]\n"
	       "\n"
	       "Every run is kept in $XDG_STATE_HOME/sandpit/mcp-runs (code.py, result.json,\n"
	       "files/; the newest %d).\n", CALL_QUEUE_WAITING,
	       (unsigned long long)(CALL_QUEUE_BYTES >> 20), (unsigned long long)(MAX_MESSAGE >> 20),
	       MCP_HISTORY_RUNS);
}

/* a usage error: its message, where the help is, exit status 2 */
#define mcp_usage(...) option_usage_error("sandpit mcp", __VA_ARGS__)

/* --max-queue (which 0), --max-pending (1) or --max-message (2): 0, or
 * -1 for a value out of its range. */
static int queue_option(struct mcp *m, int which, const char *arg)
{
	uint64_t v;
	char *end;

	if (which == 0) {
		unsigned long n = strtoul(arg, &end, 10);
		if (!*arg || *end || arg[0] == '-' || n > 10000)
			return -1;
		m->max_queue = (unsigned)n;
		return 0;
	}
	if (sp_parse_size(arg, &v) < 0 || v < (1u << 20) || v > (1ull << 30))
		return -1;
	*(which == 1 ? &m->max_pending : &m->max_message) = v;
	return 0;
}

/* The options: the highest limits, the allowed dirs, the pool's size and
 * preload list, the queue's bounds. Returns -1 to go on, else the exit
 * status. */
static int mcp_options(struct mcp *m, int argc, char **argv, char **preload_text)
{
	enum { O_JOBS = 1000, O_ALLOW, O_PRELOAD, O_PYTHON, O_HELP, O_QUEUE, O_PENDING, O_MESSAGE,
	       O_RESULT, O_MAX = 1100 };
	static const char *const max_names[] = { "max-cpu", "max-wall", "max-memory", "max-output",
						  "max-disk", "max-procs" };
	static const enum opt_id max_ids[] = { OPT_CPU, OPT_WALL, OPT_MEMORY, OPT_OUTPUT, OPT_DISK,
					       OPT_PROCS };
	struct option opts[20];
	size_t n_opts = 0, n_allow = 0;
	char why[256];
	struct opt_value v;
	int c;

	for (size_t i = 0; i < 6; i++)
		opts[n_opts++] = (struct option){ max_names[i], required_argument, NULL,
						  O_MAX + (int)i };
	opts[n_opts++] = (struct option){ "jobs", required_argument, NULL, O_JOBS };
	opts[n_opts++] = (struct option){ "allow-dir", required_argument, NULL, O_ALLOW };
	opts[n_opts++] = (struct option){ "preload", required_argument, NULL, O_PRELOAD };
	opts[n_opts++] = (struct option){ "python", required_argument, NULL, O_PYTHON };
	opts[n_opts++] = (struct option){ "help", no_argument, NULL, O_HELP };
	opts[n_opts++] = (struct option){ "max-queue", required_argument, NULL, O_QUEUE };
	opts[n_opts++] = (struct option){ "max-pending", required_argument, NULL, O_PENDING };
	opts[n_opts++] = (struct option){ "max-message", required_argument, NULL, O_MESSAGE };
	opts[n_opts++] = (struct option){ "max-result", required_argument, NULL, O_RESULT };
	opts[n_opts] = (struct option){ NULL, 0, NULL, 0 };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case O_JOBS:
			if (option_jobs(optarg, &m->jobs) < 0)
				return mcp_usage("--jobs '%s': give a number from 1 to 256", optarg);
			break;
		case O_ALLOW:
			if (n_allow == MAX_ALLOW)
				return mcp_usage("at most %d --allow-dir", MAX_ALLOW);
			if (allow_dir_open(&m->allow[n_allow], optarg, why, sizeof why) < 0)
				return mcp_usage("--allow-dir %s", why);
			m->pol.n_allow = ++n_allow; /* closed by mcp_close */
			break;
		case O_QUEUE:
		case O_PENDING:
		case O_MESSAGE:
			if (queue_option(m, c - O_QUEUE, optarg) < 0)
				return mcp_usage("--%s '%s': %s", c == O_QUEUE ? "max-queue" :
						 c == O_PENDING ? "max-pending" : "max-message", optarg,
						 c == O_QUEUE ? "give a number from 0 to 10000" :
						 "give a size from 1M to 1G, such as 256M");
			break;
		case O_PRELOAD: *preload_text = optarg; break;
		case O_PYTHON: m->pol.python = optarg; break;
		case O_HELP: mcp_help(); return 0;
		case O_RESULT: {
			uint64_t size;
			if (sp_parse_size(optarg, &size) < 0 || size < MCP_RESULT_BUDGET_MIN ||
			    size > SIZE_MAX / 2)
				return mcp_usage("--max-result '%s': give a size of at least 64K "
						 "(like 512K or 4M)", optarg);
			m->result_budget = (size_t)size;
			break;
		}
		default:
			if (c >= O_MAX && c < O_MAX + 6) {
				if (option_parse(max_ids[c - O_MAX], optarg, &m->pol.max, &v, why,
						 sizeof why) < 0)
					return mcp_usage("--%s: %s", max_names[c - O_MAX], why);
				break;
			}
			return mcp_usage("unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc)
		return mcp_usage("'%s': no arguments; the client speaks on stdin", argv[optind]);
	m->pol.allow_dirs = m->allow;
	m->pol.n_allow = n_allow;
	return -1;
}

/* A default over a lowered maximum comes down to it. */
static void lower_defaults(struct request_policy *pol)
{
	for (int i = 0; i < LIM_COUNT; i++)
		if (limit_get(&pol->dflt, (enum limit_id)i) > limit_get(&pol->max, (enum limit_id)i)) {
			char t[64], why[256];
			limit_format((enum limit_id)i, &pol->max, t, sizeof t);
			limit_parse((enum limit_id)i, t, &pol->dflt, why, sizeof why);
		}
}

/* ---- framing: what a line holds, and the error for what it is not -------- */

/* A request whose message held what the server cannot read (jsonrpc.h:
 * placeholders stand there): refused whole, bound to its id, nothing
 * done. run_python's answer is a tool result, as for any bad argument. */
static void refuse_lossy(struct mcp *m, const struct rpc_id *id, const char *method, json_t *msg,
			 unsigned lossy)
{
	char why[600];
	const char *tool = rpc_string(json_object_get(msg, "params"), "name");

	snprintf(why, sizeof why, "%s%s%s%s%s",
		 lossy & RPC_LOSSY_SURROGATE ? "a string holds a lone UTF-16 surrogate escape (one "
		 "of \\ud800-\\udfff without its pair), which is no character" : "",
		 lossy & RPC_LOSSY_SURROGATE && lossy & ~RPC_LOSSY_SURROGATE ? "; " : "",
		 lossy & RPC_LOSSY_NUMBER ? "a number is beyond what this server reads (integers "
		 "within 64 bits, reals within a double)" : "",
		 lossy & RPC_LOSSY_NUMBER && lossy & RPC_LOSSY_KEY ? "; " : "",
		 lossy & RPC_LOSSY_KEY ? "a member name holds \\u0000 or a lone surrogate" : "");
	if (!strcmp(method, "tools/call") && tool && !strcmp(tool, "run_python")) {
		char text[800];
		snprintf(text, sizeof text, "run_python: bad arguments, nothing ran: %s. Send text "
			 "as UTF-8 (a file's bytes as base64).", why);
		fprintf(stderr, "sandpit mcp: %s\n", text);
		reply(m, id->value, mcp_tool_error(text));
		return;
	}
	refuse(m, id, -32602, "%.80s: %s; nothing was done", method, why);
}

/* One value of a line (the line's own, or a batch's element): a request
 * or a notification dispatched, a response ignored, or the error that
 * says why it is none. */
static void take_message(struct mcp *m, const struct rpc_in *in, json_t *msg, bool in_batch)
{
	struct rpc_id id = { RPC_ID_NONE, NULL, "" };
	const char *method = rpc_string(msg, "method"), *version = rpc_string(msg, "jsonrpc");

	if (!json_is_object(msg)) {
		refuse(m, &id, -32600, "not a JSON-RPC message: give an object with \"jsonrpc\": "
		       "\"2.0\", \"method\" and, for a request, \"id\"");
		return;
	}
	if (!json_object_get(msg, "method") &&
	    (json_object_get(msg, "result") || json_object_get(msg, "error")))
		return; /* a response: we send no requests, so nothing waits for it */
	rpc_id_of(in, msg, &id);
	if (id.kind == RPC_ID_BAD) {
		refuse(m, &id, -32600, "the request id must be a string or an integer (written "
		       "without a fraction or an exponent)");
		return;
	}
	if (!version || strcmp(version, "2.0")) {
		refuse(m, &id, -32600, "not a JSON-RPC 2.0 message (\"jsonrpc\": \"2.0\" is needed)");
		return;
	}
	if (!method) {
		refuse(m, &id, -32600, "not a JSON-RPC request: \"method\" must be a string, "
		       "without \\u0000");
		return;
	}
	if (id.kind == RPC_ID_TEXT) {
		refuse(m, &id, -32600, "the request id %.80s is one this server cannot hold: use a "
		       "string of characters, or an integer within 64 bits", id.text);
		return;
	}
	if (in->lossy && id.kind == RPC_ID_HELD) {
		refuse_lossy(m, &id, method, msg, in->lossy);
		return;
	}
	if (in_batch && !strcmp(method, "initialize")) {
		refuse(m, &id, -32600, "initialize is never part of a JSON-RPC batch: send it alone");
		return;
	}
	dispatch(m, msg);
}

/* A JSON-RPC batch: answered as one array where the revision has
 * batches (2025-03-26); elsewhere each request in it is refused, bound
 * to its id. */
static void take_batch(struct mcp *m, const struct rpc_in *in)
{
	struct rpc_id none = { RPC_ID_NONE, NULL, "" };
	struct rpc_batch *b;
	size_t i;
	json_t *el;

	if (json_array_size(in->msg) == 0) {
		refuse(m, &none, -32600, "an empty JSON-RPC batch: send at least one request");
		return;
	}
	if (!mcp_rev_has(m->rev, MCP_BATCHES)) {
		bool answered = false;
		json_array_foreach(in->msg, i, el) {
			struct rpc_id id;
			if (!json_is_object(el) || !json_object_get(el, "method"))
				continue;
			rpc_id_of(in, el, &id);
			if (id.kind != RPC_ID_HELD && id.kind != RPC_ID_TEXT)
				continue;
			refuse(m, &id, -32600, "JSON-RPC batches are part of protocol 2025-03-26 "
			       "alone, and this session speaks %s: send one message a line",
			       mcp_rev_name(m->rev));
			answered = true;
		}
		if (!answered)
			refuse(m, &none, -32600, "JSON-RPC batches are part of protocol 2025-03-26 "
			       "alone, and this session speaks %s: send one message a line",
			       mcp_rev_name(m->rev));
		return;
	}
	if (!(b = rpc_batch_new())) {
		refuse(m, &none, -32603, "out of memory: the batch was not read");
		return;
	}
	answering = b;
	json_array_foreach(in->msg, i, el)
		take_message(m, in, el, true);
	answering = NULL;
	/* sent now, or by the last of its runs to end */
	send_line(m, rpc_batch_release(b));
}

/* A message refused before it is parsed, bound to the id its text shows:
 * line NULL when it was dropped unread (its id read from its bytes as
 * they were dropped, mcp_dropped), else read from line by the same
 * bounded scan. */
static void refuse_message(struct mcp *m, const char *line, size_t len, const char *why)
{
	struct rpc_id id;

	if (line) {
		rpc_idscan_init(&m->over);
		rpc_idscan_feed(&m->over, line, len);
	}
	rpc_idscan_result(&m->over, &id);
	rpc_idscan_init(&m->over);
	refuse(m, &id, -32600, "%s", why);
}

/* One line from the client (line_read_each): a JSON-RPC 2.0 message or
 * batch, taken, or the error that says why it is neither. -32700 is for
 * text that is no JSON alone; JSON that is no request is -32600. */
static void mcp_line(void *ctx, size_t line_no, const char *line, size_t len)
{
	struct mcp *m = ctx;
	struct rpc_in in;
	char why[300];

	(void)line_no;
	if (!line) {
		snprintf(why, sizeof why, "a message over %llu MiB (--max-message) was dropped "
			 "unread: send big inputs as files under an --allow-dir, or smaller",
			 (unsigned long long)(m->max_message >> 20));
		refuse_message(m, NULL, 0, why);
		return;
	}
	/* what parsing takes is bounded by the values, counted first */
	if (json_values_count(line, len, JSON_MAX_VALUES) > JSON_MAX_VALUES) {
		snprintf(why, sizeof why, "a message of over %u JSON values was refused unread: "
			 "send big data as one string (a file's text or base64)", JSON_MAX_VALUES);
		refuse_message(m, line, len, why);
		return;
	}
	switch (rpc_read_text(line, len, &in)) {
	case RPC_NOT_JSON:
		refuse(m, &in.scanned, -32700, "not JSON (%s)", in.why);
		break;
	case RPC_TOO_DEEP:
		refuse(m, &in.scanned, -32600, "a message nested deeper than %d levels: this "
		       "server reads no deeper", JSON_PARSER_MAX_DEPTH);
		break;
	case RPC_JSON:
		if (json_is_array(in.msg))
			take_batch(m, &in);
		else
			take_message(m, &in, in.msg, false);
		break;
	}
	rpc_in_free(&in);
}

/* The bytes of a line over --max-message as the reader drops them. */
static void mcp_dropped(void *ctx, const char *bytes, size_t n)
{
	struct mcp *m = ctx;

	rpc_idscan_feed(&m->over, bytes, n);
}

/* The client is gone: kill what still runs, answer nobody, free all. */
static void mcp_close(struct mcp *m)
{
	pthread_mutex_lock(&m->lock);
	for (struct call *k = m->calls; k; k = k->next) {
		atomic_store(&k->cancelled, true);
		pool_cancel(&k->job);
	}
	pthread_mutex_unlock(&m->lock);
	pool_free(m->pool);
	while (m->res) {
		struct resource *x = m->res;
		m->res = x->next;
		resource_free(x);
	}
	free(m->info);
	call_queue_destroy(&m->queue);
	for (size_t i = 0; i < m->pol.n_allow; i++)
		allow_dir_close(&m->allow[i]);
	mcp_history_close();
}

int cmd_mcp(int argc, char **argv)
{
	static struct mcp m;
	struct sp_prepare prep;
	const char *preload[SP_MAX_PRELOAD];
	char *preload_text = NULL, err[1500];
	struct sp_error e = { "" };
	volatile sig_atomic_t *stop;
	int status;

	request_policy_init(&m.pol);
	m.max_queue = CALL_QUEUE_WAITING;
	m.max_pending = CALL_QUEUE_BYTES;
	m.max_message = MAX_MESSAGE;
	if ((status = mcp_options(&m, argc, argv, &preload_text)) >= 0)
		return status;
	lower_defaults(&m.pol);
	if (mcp_history_open(err, sizeof err) < 0)
		fprintf(stderr, "sandpit mcp: %s: runs keep no files\n", err);
	else if (err[0])
		fprintf(stderr, "sandpit mcp: the runs' history: %s; this server keeps its runs "
			"in %s instead, removed when it ends\n", err, mcp_history_root());
	request_prepare(&m.pol, preload_text, preload, &prep);
	stop = line_stop_on_signals((const int[]){ SIGINT, SIGTERM, SIGHUP, 0 });
	pthread_mutex_init(&m.out_lock, NULL);
	pthread_mutex_init(&m.lock, NULL);
	if (!(m.pool = pool_new(m.jobs, &prep, &e))) {
		fprintf(stderr, "sandpit mcp: %s\n", e.msg);
		mcp_history_close();
		return 125;
	}
	m.jobs = pool_jobs(m.pool);
	call_queue_init(&m.queue, m.jobs, m.max_queue, m.max_pending);
	fprintf(stderr, "sandpit mcp %s: serving on stdin/stdout, %u runs at once, runs kept in %s\n",
		SP_VERSION, m.jobs, mcp_history_root()[0] ? mcp_history_root() : "(nowhere)");
	rpc_idscan_init(&m.over);
	line_read_each_dropping(STDIN_FILENO, (size_t)m.max_message, stop, mcp_line, mcp_dropped, &m);
	mcp_close(&m);
	fprintf(stderr, "sandpit mcp: input closed, every run ended: bye\n");
	return 0;
}
