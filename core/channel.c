/* SPDX-License-Identifier: MIT */
/*
 * channel.c - the program's private channel (its fd 3): one JSON object a
 * line, written by the prelude. carry() values become the run's carry-out
 * (only Python identifiers, within the size cap); line reports tell which
 * line a following denied call came from; runtime-observed violations and
 * uncaught limit errors are recorded. Anything else is a `carry`
 * violation, never a crash: the program controls every byte here.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <jansson.h>

#include "run_impl.h"
#include "interpreter.h"
#include "buf.h"
#include "banned.h"

static enum sp_violation_kind kind_from(const char *k)
{
	static const struct { const char *n; enum sp_violation_kind k; } t[] = {
		{ "network", SP_VIOL_NETWORK }, { "filesystem", SP_VIOL_FILESYSTEM },
		{ "process", SP_VIOL_PROCESS }, { "syscall", SP_VIOL_SYSCALL },
		{ "memory", SP_VIOL_MEMORY }, { "disk", SP_VIOL_DISK },
	};
	for (size_t i = 0; i < SP_ARRAY_SIZE(t); i++)
		if (k && strcmp(k, t[i].n) == 0)
			return t[i].k;
	return SP_VIOL_SYSCALL;
}

/* Bytes of v in the compact, ASCII-only form the size cap is checked on. */
static size_t dumped_len(json_t *v)
{
	char *text = sp_json_dumps(v, JSON_COMPACT | JSON_ENSURE_ASCII);
	size_t len = text ? strlen(text) : 0;

	free(text);
	return len;
}

/*
 * Merge one carry() call into the carry-out, all or nothing. The size of
 * each carried name ("name":value) is kept beside it, so a call costs in
 * proportion to what it sends, never to what was carried before: the
 * program decides how many calls come, and each used to copy and dump
 * the whole carry-out, stalling the supervisor (and the wall limit).
 */
static void carry_update(struct sp_run *r, json_t *values)
{
	const char *key;
	json_t *val, *add = json_object();
	size_t len, n;

	if (!json_is_object(values) || !add) {
		json_decref(add);
		sp_run_violation(r, SP_VIOL_CARRY, true, 0, "carry-out message is not an object");
		return;
	}
	if (!r->chan.carry_out) {
		r->chan.carry_out = json_object();
		r->chan.carry_sizes = json_object();
		r->chan.carry_len = 2; /* {} */
		if (!r->chan.carry_out || !r->chan.carry_sizes) {
			json_decref(add);
			return;
		}
	}
	len = r->chan.carry_len;
	n = json_object_size(r->chan.carry_out);
	json_object_foreach(values, key, val) {
		/* what the next run could not take is dropped now, visibly */
		const char *why = sp_carry_name_problem(key);
		json_t *name, *old;
		size_t size;

		/* a call carries all of its values or none */
		if (why) {
			sp_run_violation(r, SP_VIOL_CARRY, true, 0,
				  "carry name \"%.80s\" %s; this carry() call was dropped", key, why);
			json_decref(add);
			return;
		}
		why = sp_carry_value_problem(val);
		if (why) {
			sp_run_violation(r, SP_VIOL_CARRY, true, 0,
				  "the value of carry name \"%.80s\" %s; this carry() call was dropped",
				  key, why);
			json_decref(add);
			return;
		}
		name = json_string(key);
		size = dumped_len(name) + 1 + dumped_len(val);  /* "name":value */
		json_decref(name);
		old = json_object_get(r->chan.carry_sizes, key);
		if (old)
			len -= (size_t)json_integer_value(old);
		else
			len += n++ ? 1 : 0;                    /* a comma before it */
		len += size;
		json_object_set_new(add, key, json_integer((json_int_t)size));
	}
	if (len > r->limits.carry_bytes) {
		sp_run_violation(r, SP_VIOL_CARRY, true, 0,
			  "carry-out over %s; this carry() call was dropped",
			  SP_BYTES(r->limits.carry_bytes));
		json_decref(add);
		return;
	}
	json_object_foreach(add, key, val) {
		json_object_set(r->chan.carry_out, key, json_object_get(values, key));
		json_object_set(r->chan.carry_sizes, key, val);
	}
	r->chan.carry_len = len;
	json_decref(add);
}

static void chan_line(struct sp_run *r, const char *line, size_t len)
{
	json_error_t jerr;
	json_t *msg = json_loadb(line, len, JSON_REJECT_DUPLICATES, &jerr);
	const char *t;
	json_t *jl;
	int ln;

	if (!msg || !json_is_object(msg)) {
		/* the two a hand-made carry() message most often has */
		enum json_error_code code = msg ? json_error_unknown : json_error_code(&jerr);
		sp_run_violation(r, SP_VIOL_CARRY, true, 0, "%s",
			      code == json_error_numeric_overflow
			      ? "a number beyond 64 bits on the carry channel (ignored)"
			      : code == json_error_invalid_utf8
			      ? "text that is not UTF-8 on the carry channel (ignored)"
			      : "malformed data on the carry channel (ignored)");
		json_decref(msg);
		return;
	}
	t = json_string_value(json_object_get(msg, "t"));
	if (r->chan.lines++ == 0 && t && strcmp(t, "hello") == 0) {
		/* the prelude's first word (only the first line counts: anything
		 * later is the program's): the Python it runs under */
		json_t *v = json_object_get(msg, "python");
		json_int_t major = json_integer_value(json_array_get(v, 0));
		json_int_t minor = json_integer_value(json_array_get(v, 1));
		r->chan.prelude_started = true;
		if (major < 0 || minor < 0 || major > 99 || minor > 999 ||
		    !sp_python_supported((unsigned)major, (unsigned)minor))
			snprintf(r->end.setup_error, sizeof r->end.setup_error,
				 "%s runs Python %lld.%lld; sandpit needs Python %d.%d or newer "
				 "(its prelude uses audit hooks, PEP 578): give --python a "
				 "newer interpreter", r->python, (long long)major, (long long)minor,
				 SP_PYTHON_MIN_MAJOR, SP_PYTHON_MIN_MINOR);
		json_decref(msg);
		return;
	}
	jl = json_object_get(msg, "line");
	/* a line is 1..INT_MAX; anything else (absent, null, 0, negative,
	 * 2**40, which an (int) cast would wrap) counts as none */
	ln = json_is_integer(jl) && json_integer_value(jl) > 0 &&
	     json_integer_value(jl) <= INT_MAX ? (int)json_integer_value(jl) : 0;
	if (ln > 0)
		r->chan.last_line = ln;
	if (!t) {
		sp_run_violation(r, SP_VIOL_CARRY, true, 0, "malformed data on the carry channel (ignored)");
	} else if (strcmp(t, "ready") == 0) {
		sp_prepare_on_ready(r, msg); /* once, before the release; else a carry record */
	} else if (strcmp(t, "carry") == 0) {
		carry_update(r, json_object_get(msg, "v"));
	} else if (strcmp(t, "at") == 0) {
		const char *ctx = json_string_value(json_object_get(msg, "ctx"));
		r->chan.have_pending = true;
		r->chan.pending_line = ln;
		snprintf(r->chan.pending_ctx, sizeof r->chan.pending_ctx, "%s", ctx ? ctx : "");
	} else if (strcmp(t, "ev") == 0) {
		const char *what = json_string_value(json_object_get(msg, "what"));
		const char *k = json_string_value(json_object_get(msg, "k"));
		if (what)
			sp_run_violation(r, kind_from(k), false, ln, "%.300s", what);
	} else if (strcmp(t, "var") == 0) {
		sp_variables_add(r, msg);
	} else if (strcmp(t, "vars") == 0) {
		sp_variables_more(r, msg);
	} else if (strcmp(t, "last") == 0) {
		sp_last_value_set(r, msg);
	} else if (strcmp(t, "hint") == 0) {
		/* explains only: a made-up one can only pick a fixed text */
		sp_hints_add(r->res, json_string_value(json_object_get(msg, "topic")),
			     json_string_value(json_object_get(msg, "about")),
			     json_string_value(json_object_get(msg, "detail")), ln);
	} else if (strcmp(t, "exc") == 0) {
		const char *k = json_string_value(json_object_get(msg, "k"));
		snprintf(r->chan.exc_kind, sizeof r->chan.exc_kind, "%s", k ? k : "");
		r->chan.exc_line = ln;
	} else {
		sp_run_violation(r, SP_VIOL_CARRY, true, 0, "malformed data on the carry channel (ignored)");
	}
	json_decref(msg);
}

/* Room for more bytes of the line being read. The buffer grows as lines
 * need it (doubling, up to the cap): most runs send a few short lines,
 * and a buffer of the cap's 2 MiB would cost every run its mapping and
 * its unmapping. */
static bool line_room(struct sp_run *r, size_t more)
{
	size_t want = r->chan.len + more, size = r->chan.size ? r->chan.size : 4096;
	char *buf;

	if (want <= r->chan.size)
		return true;
	while (size < want)
		size *= 2;
	if (size > r->chan.cap)
		size = r->chan.cap;
	buf = realloc(r->chan.buf, size);
	if (!buf)
		return false;
	r->chan.buf = buf;
	r->chan.size = size;
	return true;
}

void sp_channel_read(struct sp_run *r)
{
	char buf[65536]; /* channel messages are small */
	ssize_t n = read(r->src.chan_fd, buf, sizeof buf);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		sp_run_unwatch(r, &r->src.chan_fd);
		return;
	}
	for (ssize_t i = 0; i < n;) {
		char *nl = memchr(buf + i, '\n', (size_t)(n - i));
		size_t take = nl ? (size_t)(nl - (buf + i)) : (size_t)(n - i);

		if (r->chan.skip_line) {
			/* the rest of an over-long line: drop it */
		} else if (r->chan.len + take > r->chan.cap) {
			sp_run_violation(r, SP_VIOL_CARRY, true, 0,
				  "a message on the carry channel over %s (dropped)",
				  SP_BYTES(r->chan.cap));
			r->chan.skip_line = true;
			r->chan.len = 0;
		} else if (!line_room(r, take)) {
			sp_run_violation(r, SP_VIOL_CARRY, true, 0,
				  "a message on the carry channel dropped: sandpit is out of memory");
			r->chan.skip_line = true;
			r->chan.len = 0;
		} else {
			memcpy(r->chan.buf + r->chan.len, buf + i, take);
			r->chan.len += take;
		}
		i += (ssize_t)take;
		if (nl) {
			if (!r->chan.skip_line && r->chan.len > 0)
				chan_line(r, r->chan.buf, r->chan.len);
			r->chan.len = 0;
			r->chan.skip_line = false;
			i++;
		}
	}
}

void sp_channel_drain(struct sp_run *r)
{
	for (int i = 0; i < 16 && r->src.chan_fd >= 0; i++) {
		int avail = 0;
		if (ioctl(r->src.chan_fd, FIONREAD, &avail) < 0 || avail <= 0)
			break;
		sp_channel_read(r);
	}
}
