/* SPDX-License-Identifier: MIT */
/*
 * cmd_mcp.c - `sandpit mcp`: the sandbox as a Model Context Protocol
 * server on stdio, so an AI assistant can run the Python it writes.
 *
 * MCP over stdio is JSON-RPC 2.0, one message a line: requests and
 * notifications come on stdin, responses and our notifications go on
 * stdout, and stdout carries nothing else (diagnostics go to stderr). A
 * session: the client sends initialize (we answer with the protocol
 * version we share: 2025-11-25, 2025-06-18, or 2025-03-26 with text-only
 * results), then notifications/initialized, then tools/list and
 * tools/call as it likes, several at once. It ends when the client
 * closes our stdin.
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
#include "text/linereader.h"
#include "service/allow_dir.h"
#include "service/mcp_content.h"
#include "service/mcp_history.h"
#include "service/mcp_tools.h"
#include "cmd/options.h"
#include "service/pool.h"
#include "service/request.h"
#include "service/result_json.h"
#include "json_text.h"
#include "banned.h"

#define MAX_LINE (64u << 20)
#define MAX_ALLOW 16
#define MAX_RESOURCES 2000
#define LATEST "2025-11-25"
#define ENV_URI "sandpit://environment"

static const char *const versions[] = { "2025-11-25", "2025-06-18", "2025-03-26" };

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
	bool old_protocol;            /* 2025-03-26: text-only results */
	unsigned seq;
	char *info;                   /* sandbox_info's text, once known */
	unsigned jobs;
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
	char dir[1100];               /* its history dir */
	char keep[1200];
	struct call *next;
};

/* One message out, whole, on one line. */
static void send_msg(struct mcp *m, json_t *msg)
{
	char *s = sp_json_dumps(msg, JSON_COMPACT);
	size_t n, at = 0;

	json_decref(msg);
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

static void reply(struct mcp *m, json_t *id, json_t *result)
{
	send_msg(m, json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id, "result", result));
}

__attribute__((format(printf, 4, 5)))
static void reply_error(struct mcp *m, json_t *id, int code, const char *fmt, ...)
{
	char text[700];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	fprintf(stderr, "sandpit mcp: %s\n", text);
	send_msg(m, json_pack("{s:s, s:O, s:{s:i, s:o}}", "jsonrpc", "2.0", "id",
			      id ? id : json_null(), "error", "code", code, "message",
			      mcp_string(text, strlen(text))));
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
		"cleanly; structuredContent is the full JSON result.\n",
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

static void call_free(struct call *c)
{
	request_free(&c->rq);
	json_decref(c->id);
	json_decref(c->token);
	free(c);
}

static void resource_free(struct resource *x)
{
	free(x->uri);
	free(x->path);
	free(x->name);
	free(x);
}

/* Kept files become resources that resources/read serves. */
static void add_resources(struct mcp *m, const struct sp_result *r, const char *base)
{
	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; r && i < r->n_files; i++) {
		struct resource *x;
		char *up;
		if (!r->files[i].kept || !(x = calloc(1, sizeof *x)))
			continue;
		up = mcp_uri_path(r->files[i].path);
		if (!up || asprintf(&x->uri, "%s%s", base, up) < 0)
			x->uri = NULL;
		free(up);
		x->path = strdup(r->files[i].kept);
		x->name = strdup(r->files[i].path);
		if (!x->uri || !x->path || !x->name) {
			resource_free(x);
			continue;
		}
		x->next = m->res;
		m->res = x;
		m->n_res++;
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
	struct mcp_content_opts o = { m->old_protocol, c->rq.clamped, NULL };
	char base[1300];
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
		if (!c->cancelled)
			answer_info(m, c, m->info ? m->info : "sandbox_info: out of memory");
		free(text);
		call_free(c);
		return;
	}
	{
		const char *name = strrchr(c->dir, '/');
		snprintf(base, sizeof base, "sandpit://runs/%s/", name ? name + 1 : "run");
		o.uri_base = base;
	}
	res = mcp_tool_result(r, why, &c->rq.limits, &o);
	if (c->dir[0] && !m->old_protocol)
		add_resources(m, r, base);
	call_unlink(m, c);
	if (!c->cancelled)
		reply(m, c->id, res);
	else
		json_decref(res);
	/* the history after the answer: its files are synced to disk */
	if (c->dir[0]) {
		struct sp_result failed;
		char *text = sp_result_to_json(result_or_unstarted(r, why, &c->rq.limits, &failed));
		mcp_history_save(c->dir, c->rq.code, c->rq.code_len, text);
		free(text);
	}
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

	if (!c->token || c->cancelled)
		return;
	sp_format_ms(u->cpu_ms, cpu, sizeof cpu);
	sp_format_bytes(u->memory_bytes, mem, sizeof mem);
	sp_format_bytes(u->output_bytes, out, sizeof out);
	snprintf(msg, sizeof msg, "running: %s CPU, %s memory, %s output", cpu, mem, out);
	send_msg(c->m, json_pack("{s:s, s:s, s:{s:O, s:i, s:s}}", "jsonrpc", "2.0", "method",
				 "notifications/progress", "params", "progressToken", c->token,
				 "progress", ++c->progress_n, "message", msg));
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
	if (json_is_string(token) || json_is_integer(token))
		c->token = json_incref(token);
	c->job.done = call_done;
	c->job.progress = call_progress;
	c->job.ctx = c;
	atomic_init(&c->job.cancel, false);
	atomic_init(&c->cancelled, false);
	return c;
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
	request_config(&c->rq, &m->pol, &c->job.cfg);
	call_submit(m, c);
}

static void tools_call(struct mcp *m, json_t *id, json_t *params)
{
	const char *name = json_string_value(json_object_get(params, "name"));
	json_t *args = json_object_get(params, "arguments");
	struct call *c;
	char err[900], why[1000];
	struct sp_error e;

	if (!name) {
		reply_error(m, id, -32602, "tools/call: params.name is missing (run_python or "
			    "sandbox_info)");
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
	const char *uri = json_string_value(json_object_get(params, "uri"));
	char *path = NULL, *data;
	struct fio_error e;
	size_t n;
	const char *type;
	json_t *content;

	if (!uri) {
		reply_error(m, id, -32602, "resources/read: params.uri is missing");
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
	type = mcp_image_type((unsigned char *)data, n);
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
	const char *asked = json_string_value(json_object_get(params, "protocolVersion"));
	const char *v = LATEST;

	for (size_t i = 0; asked && i < sizeof versions / sizeof versions[0]; i++)
		if (!strcmp(asked, versions[i]))
			v = versions[i];
	m->old_protocol = !strcmp(v, "2025-03-26");
	fprintf(stderr, "sandpit mcp: client asked protocol %s, speaking %s\n",
		asked ? asked : "(none)", v);
	reply(m, id, json_pack("{s:s, s:{s:{s:b}, s:{s:b, s:b}}, s:{s:s, s:s, s:s}, s:s}",
		"protocolVersion", v,
		"capabilities", "tools", "listChanged", 0, "resources", "subscribe", 0,
		"listChanged", 0,
		"serverInfo", "name", "sandpit", "title", "sandpit Python sandbox", "version",
		SP_VERSION,
		"instructions", "run_python runs a Python program in a fresh sandbox (no network, "
		"no host files, kernel-enforced limits) and returns its output, violations, "
		"pictures and files. Runs share nothing: pass a result's carry_out as carry to "
		"keep values. sandbox_info tells versions, limits and rules."));
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

	if (!method) {
		if (json_object_get(msg, "result") || json_object_get(msg, "error"))
			return; /* a response: we send no requests, so nothing waits for it */
		reply_error(m, id, -32600, "not a JSON-RPC request: no \"method\"");
		return;
	}
	if (id && !json_is_string(id) && !json_is_integer(id)) {
		reply_error(m, NULL, -32600, "the request id must be a string or an integer");
		return;
	}
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
		reply(m, id, json_pack("{s:o}", "tools", mcp_tools_list(m->old_protocol)));
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
	       "  --preload MODULES  modules the prepared sandboxes import ahead (numpy,pandas)\n"
	       "  --python PATH      the interpreter [/usr/bin/python3]\n"
	       "\n"
	       "Every run is kept in $XDG_STATE_HOME/sandpit/mcp-runs (code.py, result.json,\n"
	       "files/; the newest %d).\n", MCP_HISTORY_RUNS);
}

/* a usage error: its message, where the help is, exit status 2 */
#define mcp_usage(...) option_usage_error("sandpit mcp", __VA_ARGS__)

/* The options: the highest limits, the allowed dirs, the pool's size and
 * preload list. Returns -1 to go on, else the exit status. */
static int mcp_options(struct mcp *m, int argc, char **argv, char **preload_text)
{
	enum { O_JOBS = 1000, O_ALLOW, O_PRELOAD, O_PYTHON, O_HELP, O_MAX = 1100 };
	static const char *const max_names[] = { "max-cpu", "max-wall", "max-memory", "max-output",
						  "max-disk", "max-procs" };
	static const enum opt_id max_ids[] = { OPT_CPU, OPT_WALL, OPT_MEMORY, OPT_OUTPUT, OPT_DISK,
					       OPT_PROCS };
	struct option opts[16];
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
		case O_PRELOAD: *preload_text = optarg; break;
		case O_PYTHON: m->pol.python = optarg; break;
		case O_HELP: mcp_help(); return 0;
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

/* One line from the client (line_read_each): a JSON-RPC 2.0 message,
 * dispatched, or the error that says why it is not one. */
static void mcp_line(void *ctx, size_t line_no, const char *line, size_t len)
{
	struct mcp *m = ctx;
	json_error_t je;
	json_t *msg;

	(void)line_no;
	if (!line) {
		reply_error(m, NULL, -32600, "a message over %u MiB was dropped: send big "
			    "inputs as files under an --allow-dir, or smaller", MAX_LINE >> 20);
		return;
	}
	if (!(msg = json_loadb(line, len, 0, &je))) {
		reply_error(m, NULL, -32700, "not JSON (at column %d: %s)", je.column, je.text);
		return;
	}
	if (json_is_array(msg))
		reply_error(m, NULL, -32600, "JSON-RPC batches are not part of this protocol "
			    "version: send one message a line");
	else if (!json_is_object(msg) ||
		 strcmp(json_string_value(json_object_get(msg, "jsonrpc")) ?
			json_string_value(json_object_get(msg, "jsonrpc")) : "", "2.0"))
		reply_error(m, json_object_get(msg, "id"), -32600,
			    "not a JSON-RPC 2.0 message (\"jsonrpc\": \"2.0\" is needed)");
	else
		dispatch(m, msg);
	json_decref(msg);
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
	for (size_t i = 0; i < m->pol.n_allow; i++)
		allow_dir_close(&m->allow[i]);
	mcp_history_close();
}

int cmd_mcp(int argc, char **argv)
{
	static struct mcp m;
	struct sp_prepare prep;
	const char *preload[SP_MAX_PRELOAD];
	char *preload_text = NULL, err[300];
	struct sp_error e = { "" };
	volatile sig_atomic_t *stop;
	int status;

	request_policy_init(&m.pol);
	if ((status = mcp_options(&m, argc, argv, &preload_text)) >= 0)
		return status;
	lower_defaults(&m.pol);
	if (mcp_history_open(err, sizeof err) < 0)
		fprintf(stderr, "sandpit mcp: %s: runs keep no files\n", err);
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
	fprintf(stderr, "sandpit mcp %s: serving on stdin/stdout, %u runs at once, runs kept in %s\n",
		SP_VERSION, m.jobs, mcp_history_root()[0] ? mcp_history_root() : "(nowhere)");
	line_read_each(STDIN_FILENO, MAX_LINE, stop, mcp_line, &m);
	mcp_close(&m);
	fprintf(stderr, "sandpit mcp: input closed, every run ended: bye\n");
	return 0;
}
