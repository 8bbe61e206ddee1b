/* SPDX-License-Identifier: MIT */
/*
 * itest.h - helpers shared by the integration tests (real sandboxed runs).
 *
 * Every test here starts real sandboxes, through the library
 * (sp_run_blocking, or sp_run_start and events) or through the built
 * `sandpit` binary, whose absolute path tests/run.sh puts in $SANDPIT.
 * JSON is read with jansson, never by hand. Assertions are about
 * outcomes (status, records, files, processes), not about how long
 * something took; where the time is itself the outcome (a FIFO refused at
 * once, a wall-limited run that does not wait for a stuck reader), the
 * bound is an SP_TIMING() (testlib.h): make check prints it, make
 * check-timing fails on it. Each test sets the limits its property needs
 * (a busy machine is slower, and the defaults are no part of the test).
 *
 * Conventions:
 *  - Each sandboxed program gets a file name unique to the test and to
 *    this process (it_name()); every Python process of the sandbox has
 *    that name in its command line, so a scan of the host's /proc
 *    (it_host_procs_with()) finds anything a run left behind.
 *  - Helpers that allocate return memory the caller frees; a result from
 *    it_run*() is freed with sp_result_free().
 *  - On a failed check, IT_CHECK() prints the whole result as JSON first,
 *    and IT_CLI_CHECK() the whole stdout and stderr, so a failure in CI
 *    explains itself (tests/run.sh keeps the output in a file it names).
 */
#ifndef SP_ITEST_H
#define SP_ITEST_H

#include "testlib.h"
#include "json_se.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>

#include "sandpit.h"

/* ---- text ---- */

/* printf into a fresh malloc'd string (never NULL). */
static inline char *it_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline char *it_fmt(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	assert_true(n >= 0);
	return s;
}

/* s quoted for a shell command line (system()), in a fresh malloc'd
 * string: the checkout's path and TMPDIR may hold spaces, quotes and
 * UTF-8 (docs/testing.md, "Paths"). */
static inline char *it_shq(const char *s)
{
	size_t n = 3;
	char *q, *o;

	for (const char *p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	q = o = malloc(n);
	assert_non_null(q);
	*o++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = '\0';
	return q;
}

/* A name for a program file unique to this test and this process. */
static inline char *it_name(const char *what)
{
	return it_fmt("itest_%s_%d.py", what, (int)getpid());
}

static inline bool it_contains(const char *hay, const char *needle)
{
	return hay && needle && strstr(hay, needle) != NULL;
}

/* ---- library runs ---- */

/* A config with the default limits but the wall's, output kept, for code
 * (a C string). The wall limit is 120 s: a busy machine stretches wall
 * time many times over, and a test about the wall limit sets its own. */
static inline struct sp_config it_config(const char *code, const char *filename)
{
	struct sp_config c;

	sp_config_init(&c);
	c.limits.wall_ms = 120000;
	c.code = code;
	c.code_len = strlen(code);
	c.filename = filename;
	c.keep_output = true;
	return c;
}

static inline void it_dump(const struct sp_result *r)
{
	char *j = r ? sp_result_to_json(r) : NULL;

	/* straight to stderr: cmocka's own printer cuts long text */
	fprintf(stderr, "---- the run's result ----\n%s\n", j ? j : "(none)");
	fflush(stderr);
	free(j);
}

/* Fail the test with the result shown when cond is false. */
#define IT_CHECK(r, cond) do { \
	if (!(cond)) { \
		it_dump(r); \
		fail_msg("%s:%d: check failed: %s", __FILE__, __LINE__, #cond); \
	} \
} while (0)

/* Run to completion; the run must start (a sandbox that cannot start is
 * a failure of the test, not a skip: the sandbox fails closed). */
static inline struct sp_result *it_run_cfg(const struct sp_config *cfg)
{
	struct sp_result *r = NULL;
	struct sp_error err = { "" };

	if (sp_run_blocking(cfg, &r, &err) < 0)
		fail_msg("the sandbox did not start: %s", err.msg);
	assert_non_null(r);
	return r;
}

static inline struct sp_result *it_run(const char *code, const char *filename)
{
	struct sp_config c = it_config(code, filename);

	return it_run_cfg(&c);
}

/* Start a run that must start. */
static inline struct sp_run *it_start(const struct sp_config *cfg)
{
	struct sp_run *run = NULL;
	struct sp_error err = { "" };

	if (sp_run_start(cfg, &run, &err) < 0)
		fail_msg("the sandbox did not start: %s", err.msg);
	assert_non_null(run);
	return run;
}

/* What a driven run has shown so far, collected from its events. */
struct it_seen {
	char *out;          /* stdout so far, NUL-ended */
	size_t out_len;
	size_t n_usage;     /* usage samples */
	struct sp_usage last_usage;
	size_t n_violation_events;
	bool finished;
};

/* Drain the events ready now into *seen. */
static inline void it_drain(struct sp_run *run, struct it_seen *seen)
{
	struct sp_event ev;

	while (sp_run_next_event(run, &ev) > 0) {
		switch (ev.type) {
		case SP_EVENT_STDOUT:
			seen->out = realloc(seen->out, seen->out_len + ev.len + 1);
			assert_non_null(seen->out);
			memcpy(seen->out + seen->out_len, ev.data, ev.len);
			seen->out_len += ev.len;
			seen->out[seen->out_len] = '\0';
			break;
		case SP_EVENT_USAGE:
			assert_non_null(ev.usage);
			seen->n_usage++;
			seen->last_usage = *ev.usage;
			break;
		case SP_EVENT_VIOLATION:
			assert_non_null(ev.violation);
			seen->n_violation_events++;
			break;
		case SP_EVENT_FINISHED:
			assert_non_null(ev.result);
			seen->finished = true;
			break;
		case SP_EVENT_STDERR:
		case SP_EVENT_READY:
			break;
		}
	}
}

/* Drive the run until its stdout contains text (true), or it finishes
 * (false). NULL: until it finishes. */
static inline bool it_drive(struct sp_run *run, struct it_seen *seen, const char *text)
{
	for (;;) {
		struct pollfd p = { sp_run_fd(run), POLLIN, 0 };
		int t;

		it_drain(run, seen);
		if (text && seen->out && strstr(seen->out, text))
			return true;
		if (sp_run_finished(run))
			return false;
		t = sp_run_timeout_ms(run);
		if (t != 0)
			poll(&p, 1, t);
	}
}

/* stdout / stderr of a result as C strings ("" when none). */
static inline const char *it_out(const struct sp_result *r)
{
	return r->out ? r->out : "";
}

static inline const char *it_err(const struct sp_result *r)
{
	return r->err ? r->err : "";
}

/* The first violation of kind whose `what` contains sub (NULL: any). */
static inline const struct sp_violation *
it_viol(const struct sp_result *r, enum sp_violation_kind kind, const char *sub)
{
	for (size_t i = 0; i < r->n_violations; i++) {
		const struct sp_violation *v = &r->violations[i];
		if (v->kind == kind && (!sub || it_contains(v->what, sub)))
			return v;
	}
	return NULL;
}

static inline size_t it_viol_count(const struct sp_result *r,
				   enum sp_violation_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n_violations; i++)
		if (r->violations[i].kind == kind)
			n++;
	return n;
}

/* The file the program left at path (in the work dir), or NULL. */
static inline const struct sp_file *it_file(const struct sp_result *r, const char *path)
{
	for (size_t i = 0; i < r->n_files; i++)
		if (strcmp(r->files[i].path, path) == 0)
			return &r->files[i];
	return NULL;
}

static inline bool it_has_file(const struct sp_result *r, const char *path)
{
	return it_file(r, path) != NULL;
}

static inline const struct sp_layer *it_layer(const struct sp_result *r,
					      const char *name)
{
	for (size_t i = 0; i < r->n_layers; i++)
		if (strcmp(r->layers[i].name, name) == 0)
			return &r->layers[i];
	return NULL;
}

/* ---- the host ---- */

/* The host processes (other than this one) that have marker in their
 * command line: up to max of their pids into pids (NULL: only count).
 * Reads every /proc/PID/cmdline it can; returns how many it found. */
static inline size_t it_host_pids_with(const char *marker, long *pids, size_t max)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t found = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL && (!pids || found < max)) {
		char path[64], buf[8192];
		int fd;
		ssize_t n;
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0 || pid == (long)getpid())
			continue;
		snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n <= 0)
			continue;
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] == '\0')
				buf[i] = ' ';
		buf[n] = '\0';
		if (!strstr(buf, marker))
			continue;
		if (pids)
			pids[found] = pid;
		found++;
	}
	closedir(d);
	return found;
}

/* How many host processes (other than this one) have marker in their
 * command line. */
static inline int it_host_procs_with(const char *marker)
{
	return (int)it_host_pids_with(marker, NULL, 0);
}

/* Free a run that ended, and check it left nothing: no host process with
 * marker in its command line, and no child of this process (init is
 * reaped by then, not left a zombie for the embedder). */
static inline void it_free_leaves_nothing(struct sp_run *run, const char *marker)
{
	int st;

	sp_run_free(run);
	assert_int_equal(it_host_procs_with(marker), 0);
	assert_int_equal(waitpid(-1, &st, WNOHANG), -1);
	assert_int_equal(errno, ECHILD);
}

/* Wait (up to 5 s) until no host process has marker in its command line
 * and this process's sandbox cgroups (leaks.h) are back to cg0: a killed
 * tree's cgroup empties a moment after the kill. The caller then counts. */
static inline void it_wait_gone(const char *marker, long cg0)
{
	for (int i = 0; i < 50 && (it_host_procs_with(marker) || leak_count_cgroups() > cg0); i++)
		usleep(100000);
}

/* A fresh private directory under $TMPDIR (tests/run.sh gives each test
 * its own) or /tmp, and a way to remove it (one level of files, as the
 * tests make them). */
static inline char *it_tmpdir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *t = it_fmt("%s/sandpit-itest-XXXXXX", tmp && tmp[0] == '/' ? tmp : "/tmp");

	assert_non_null(mkdtemp(t));
	return t;
}

/* A fresh directory for an interpreter a test makes (a fake one, a
 * venv): under /var/tmp, not $TMPDIR, since the sandbox's /tmp is its
 * work dir, so an interpreter bound in from under the host's /tmp would
 * be hidden. name starts the directory's name. */
static inline char *it_python_dir(const char *name)
{
	char *t = it_fmt("/var/tmp/%s.XXXXXX", name);

	assert_non_null(mkdtemp(t));
	return t;
}

static inline void it_rmdir(char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d) {
		while ((de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				unlinkat(dirfd(d), de->d_name, 0);
		}
		closedir(d);
	}
	rmdir(dir);
	free(dir);
}

/* The fixture of tests that run the CLI on files: a private directory,
 * 0755 so that the sandbox user can read the programs written into it. */
struct it_dir {
	char *dir;
};

static inline int it_dir_setup(void **state)
{
	struct it_dir *f = calloc(1, sizeof *f);

	f->dir = it_tmpdir();
	chmod(f->dir, 0755);
	*state = f;
	return 0;
}

static inline int it_dir_teardown(void **state)
{
	struct it_dir *f = *state;

	it_rmdir(f->dir);
	free(f);
	return 0;
}

/* Write text to dir/name; returns the malloc'd path. */
static inline char *it_write(const char *dir, const char *name,
			     const char *text, size_t len)
{
	char *path = it_fmt("%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

/* Write a program into the fixture's dir under a name unique to the test. */
static inline char *it_program(struct it_dir *f, const char *what, const char *code)
{
	char *name = it_name(what);
	char *path = it_write(f->dir, name, code, strlen(code));

	free(name);
	return path;
}

/* A whole file into a malloc'd NUL-ended buffer, or NULL. */
static inline char *it_slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf = NULL;
	size_t used = 0, cap = 0;

	if (fd < 0)
		return NULL;
	for (;;) {
		ssize_t n;
		if (cap - used < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap + 1);
			assert_non_null(buf);
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	if (!buf)
		buf = malloc(1);
	buf[used] = '\0';
	if (len)
		*len = used;
	return buf;
}

/* ---- the command line ---- */

/* The sandpit binary under test, from $SANDPIT (tests/run.sh sets it). */
static inline const char *it_sandpit(void)
{
	const char *s = getenv("SANDPIT");

	if (!s || s[0] != '/' || access(s, X_OK) < 0)
		fail_msg("$SANDPIT must be the absolute path of the built sandpit "
			 "(tests/run.sh sets it)");
	return s;
}

struct it_cli {
	pid_t pid;
	int out_fd, err_fd;
	int status;        /* exit status, or 128 + signal */
	char *out, *err;   /* everything it printed, NUL-ended */
	size_t out_len, err_len;
	json_t *json;      /* stdout parsed, when asked for */
};

/* Start `sandpit ARGS...` (args NULL-terminated, without argv[0]), stdin
 * from /dev/null, with its stdout and stderr on pipes. */
static inline void it_cli_start(struct it_cli *c, const char *const *args)
{
	int o[2], e[2];
	const char *argv[64];
	size_t n = 0;

	memset(c, 0, sizeof *c);
	argv[n++] = it_sandpit();
	while (args[n - 1] && n < 63) {
		argv[n] = args[n - 1];
		n++;
	}
	argv[n] = NULL;
	assert_int_equal(pipe2(o, O_CLOEXEC), 0);
	assert_int_equal(pipe2(e, O_CLOEXEC), 0);
	c->pid = fork();
	assert_true(c->pid >= 0);
	if (c->pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);
		dup2(devnull, 0);
		dup2(o[1], 1);
		dup2(e[1], 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(o[1]);
	close(e[1]);
	c->out_fd = o[0];
	c->err_fd = e[0];
}

/* Read from the CLI's pipes until stop_at appears on stdout (returns true)
 * or both pipes end (returns false). NULL: read to the end. */
static inline bool it_cli_read(struct it_cli *c, const char *stop_at)
{
	while (c->out_fd >= 0 || c->err_fd >= 0) {
		struct pollfd p[2] = { { c->out_fd, POLLIN, 0 }, { c->err_fd, POLLIN, 0 } };
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			fail_msg("poll: %s", strerror(errno));
		}
		for (int i = 0; i < 2; i++) {
			int *fd = i ? &c->err_fd : &c->out_fd;
			char **buf = i ? &c->err : &c->out;
			size_t *len = i ? &c->err_len : &c->out_len;
			char chunk[65536];
			ssize_t n;

			if (*fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(*fd, chunk, sizeof chunk);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				close(*fd);
				*fd = -1;
				continue;
			}
			*buf = realloc(*buf, *len + (size_t)n + 1);
			assert_non_null(*buf);
			memcpy(*buf + *len, chunk, (size_t)n);
			*len += (size_t)n;
			(*buf)[*len] = '\0';
		}
		if (stop_at && c->out && strstr(c->out, stop_at))
			return true;
	}
	return false;
}

/* Read to the end, reap, and (json) parse stdout as one JSON object. */
static inline void it_cli_finish(struct it_cli *c, bool json)
{
	int st;

	it_cli_read(c, NULL);
	while (waitpid(c->pid, &st, 0) < 0)
		assert_int_equal(errno, EINTR);
	c->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (!c->out)
		c->out = calloc(1, 1);
	if (!c->err)
		c->err = calloc(1, 1);
	if (json) {
		json_error_t jerr;
		c->json = se_loadb(c->out, c->out_len, &jerr);
		if (!c->json)
			fail_msg("sandpit run --json printed invalid JSON (%s, line %d): %.2000s\n"
				 "stderr: %.2000s", jerr.text, jerr.line, c->out, c->err);
		if (!json_is_object(c->json))
			fail_msg("sandpit run --json printed JSON that is not an object");
	}
}

/* Run `sandpit ARGS...` to the end. */
static inline void it_cli(struct it_cli *c, bool json, const char *const *args)
{
	it_cli_start(c, args);
	it_cli_finish(c, json);
}

static inline void it_cli_free(struct it_cli *c)
{
	free(c->out);
	free(c->err);
	json_decref(c->json);
	memset(c, 0, sizeof *c);
}

/* Small readers for the CLI's JSON result. */
static inline const char *it_jstr(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static inline json_t *it_jviol(json_t *result, const char *kind, const char *sub)
{
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(result, "violations"), i, v) {
		if (strcmp(it_jstr(v, "kind"), kind) == 0 &&
		    (!sub || it_contains(it_jstr(v, "what"), sub)))
			return v;
	}
	return NULL;
}

/* Whole: tests/run.sh keeps the whole output in the test's log. */
#define IT_CLI_CHECK(c, cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "---- sandpit exited %d ----\nstdout: %s\nstderr: %s\n", \
			(c)->status, (c)->out ? (c)->out : "", (c)->err ? (c)->err : ""); \
		fail_msg("%s:%d: check failed: %s", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#endif
