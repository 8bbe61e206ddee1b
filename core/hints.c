/* SPDX-License-Identifier: MIT */
/*
 * hints.c - explanations for Python errors that the sandbox's rules cause.
 *
 * A beginner who meets `ModuleNotFoundError: No module named 'requests'`
 * in a sandbox needs to hear what a stock Python would not say: there is
 * no network to pip-install it. Thonny's Assistant is the model: a short,
 * right, kind paragraph with the cause and the way around it.
 *
 * Two sources tell which error it was. The prelude observes the exception
 * that ended the run (and the ones chained to it) and reports a topic,
 * the exception's name, a detail (the module or file name) and the line;
 * and at the end the supervisor reads the tracebacks in the last 8 KiB of
 * stderr, for an error the program caught and printed itself:
 *
 *     Traceback (most recent call last):
 *       File "main.py", line 3, in <module>       <- the program's line
 *     ModuleNotFoundError: No module named 'x'   <- the error and detail
 *
 * The program can write either itself, so all of it is untrusted: the topic picks one of the
 * fixed texts below (an unknown topic is ignored), the name must look
 * like a Python name, the detail is cut short and stripped of controls,
 * and a run keeps at most SP_MAX_HINTS hints, one per topic and line.
 * Hints only explain; nothing here enforces anything.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <utf8proc.h>

#include "result.h"
#include "buf.h"
#include "banned.h"

#define DETAIL_MAX 120

struct topic {
	const char *name;       /* as the prelude reports it */
	const char *about;      /* the exception, when the report names none */
	const char *with;       /* the text with the detail at its %s, or NULL */
	const char *without;    /* the text without one */
};

static const struct topic topics[] = {
	{ "module", "ModuleNotFoundError",
	  "There is no module named '%s' in the sandbox, and a run cannot install "
	  "one: it has no network, so pip reaches nothing (constraint 1). The "
	  "machine's owner can add one outside it: apt install python3-NAME, or "
	  "--python with a virtual environment (sandpit doctor lists the stack).",
	  "That module is not in the sandbox, and a run cannot install one: it "
	  "has no network, so pip reaches nothing (constraint 1). A run has "
	  "Python's standard library and the packages installed on this machine "
	  "(sandpit doctor lists the data stack); the machine's owner can add "
	  "one outside the sandbox (apt install python3-NAME, or --python with a "
	  "virtual environment's python3)." },
	{ "file", "FileNotFoundError",
	  "There is no '%s' here. Runs are stateless (constraint 3): each one "
	  "starts in an empty work dir, so a file an earlier run wrote is gone, "
	  "and the host's files are not in the sandbox. Attach the file to the "
	  "run (F7 in the playground, --file with sandpit run), or carry the data: "
	  "carry(name=value) in the run that makes it, F2, and the next run has "
	  "it as a global.",
	  "That file is not here. Runs are stateless (constraint 3): each one "
	  "starts in an empty work dir, so a file an earlier run wrote is gone, "
	  "and the host's files are not in the sandbox. Attach the file to the "
	  "run (F7 in the playground, --file with sandpit run), or carry the data "
	  "with carry()." },
	{ "write", "FileNotFoundError",
	  "'%s' cannot be written: its directory is not in the sandbox. Only "
	  "the work dir /work (and /tmp) can be written (constraint 2): write "
	  "in the work dir, to a relative name such as 'chart.png'; F8 in the "
	  "playground (or sandpit run --keep DIR) keeps a copy after the run.",
	  "That file cannot be written: its directory is not in the sandbox. "
	  "Only the work dir /work (and /tmp) can be written (constraint 2): "
	  "write in the work dir, to a relative name such as 'chart.png'; F8 in "
	  "the playground (or sandpit run --keep DIR) keeps a copy after the run." },
	{ "input", "EOFError", NULL,
	  "input() found nothing to read: nobody types into a run, and its "
	  "standard input is empty (or used up). Give the input beforehand: "
	  "type it into the Stdin tab (F12 in the playground) or give sandpit "
	  "run --stdin FILE, or write the values into the program or the carry "
	  "buffer." },
	{ "memory", "MemoryError",
	  "The program asked for more memory than the run's limit of %s "
	  "(constraint 5). Work through the data in chunks or on a sample, or "
	  "keep it compact (numpy arrays rather than lists of objects).",
	  NULL },
	{ "recursion", "RecursionError", NULL,
	  "The calls nested deeper than Python allows (about 1,000 levels). "
	  "This is Python's own limit, the same outside the sandbox, and it "
	  "usually means a recursion that never reaches its base case. Check "
	  "the base case, or turn the recursion into a loop." },
	{ "readonly", "OSError",
	  "'%s' cannot be written: only the work dir /work (and /tmp) can be, "
	  "the rest of the sandbox's filesystem is read-only and the host's "
	  "files are not there (constraint 2). Write to a relative name such as "
	  "'out.csv'; F8 in the playground (or sandpit run --keep DIR) keeps a "
	  "copy after the run.",
	  "Only the work dir /work (and /tmp) can be written: the rest of the "
	  "sandbox's filesystem is read-only and the host's files are not there "
	  "(constraint 2). Write to a relative name such as 'out.csv'; F8 in the "
	  "playground (or sandpit run --keep DIR) keeps a copy after the run." },
	{ "network", "OSError", NULL,
	  "The program tried to reach a network, and a run has none "
	  "(constraint 1): names do not resolve and no socket reaches another "
	  "machine. Bring the data in yourself: paste it into the program, put "
	  "it in the carry buffer, or attach it as a file." },
};

/* A Python name (dotted for a module's exception): at most 63 bytes. */
static bool python_name(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n == 0 || n > 63 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.'))
			return false;
	}
	return true;
}

/* The detail as one plain name: valid UTF-8 at most DETAIL_MAX bytes
 * (never cut inside a character), controls, quotes and invalid bytes
 * each shown as '?'. So the message is JSON text as it is. */
static void clean_detail(const char *s, char *out, size_t cap)
{
	size_t n = 0, len = s ? strlen(s) : 0;

	for (size_t i = 0; i < len;) {
		utf8proc_int32_t cp;
		utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
						      (utf8proc_ssize_t)(len - i), &cp);
		bool ok = k > 0 && cp >= 0x20 && cp != 0x7f && cp != '\'' &&
			  !(cp >= 0x80 && cp < 0xa0);
		size_t take = ok ? (size_t)k : 1;

		if (n + (ok ? take : 1) > DETAIL_MAX || n + take + 1 > cap)
			break;
		if (ok)
			memcpy(out + n, s + i, take);
		else
			out[n] = '?';
		n += ok ? take : 1;
		i += take;
	}
	out[n] = '\0';
}

/* A topic's text with its one "%s" replaced by value (the text is a
 * template, never a format: value may hold any byte). */
static void fill_in(char *out, size_t len, const char *tmpl, const char *value)
{
	const char *at = strstr(tmpl, "%s");

	if (!at)
		snprintf(out, len, "%s", tmpl);
	else
		snprintf(out, len, "%.*s%s%s", (int)(at - tmpl), tmpl, value, at + 2);
}

int sp_hints_add(struct sp_result *res, const char *topic, const char *about,
		 const char *detail, int line)
{
	const struct topic *t = NULL;
	char clean[DETAIL_MAX + 1], msg[1024], size[32];
	struct sp_hint *h;

	for (size_t i = 0; i < SP_ARRAY_SIZE(topics); i++)
		if (topic && strcmp(topic, topics[i].name) == 0)
			t = &topics[i];
	if (!t || res->n_hints >= SP_MAX_HINTS)
		return -1;
	if (line < 0)
		line = 0;
	for (size_t i = 0; i < res->n_hints; i++)
		if ((res->hints[i].line == line || line == 0) &&
		    (strcmp(res->hints[i].topic, t->name) == 0 ||
		     /* the traceback's FileNotFoundError, after the prelude
		      * said it was a write */
		     (!strcmp(res->hints[i].topic, "write") && !strcmp(t->name, "file"))))
			return 0;  /* the same cause, reported again */
	clean_detail(detail, clean, sizeof clean);
	if (strcmp(t->name, "memory") == 0) {
		/* the figure is the run's, never the report's */
		sp_format_bytes(res->limits.memory_bytes, size, sizeof size);
		fill_in(msg, sizeof msg, t->with, size);
	} else if (t->with && clean[0]) {
		fill_in(msg, sizeof msg, t->with, clean);
	} else {
		snprintf(msg, sizeof msg, "%s", t->without);
	}
	if (!res->hints) {
		res->hints = calloc(SP_MAX_HINTS, sizeof *res->hints);
		if (!res->hints)
			return -1;
	}
	h = &res->hints[res->n_hints];
	h->about = strdup(python_name(about) ? about : t->about);
	h->message = strdup(msg);
	if (!h->about || !h->message) {
		free(h->about);
		free(h->message);
		return -1;
	}
	h->topic = t->name;
	h->line = line;
	res->n_hints++;
	return 0;
}

void sp_hints_free(struct sp_result *res)
{
	for (size_t i = 0; i < res->n_hints; i++) {
		free(res->hints[i].about);
		free(res->hints[i].message);
	}
	free(res->hints);
	res->hints = NULL;
	res->n_hints = 0;
}

json_t *sp_hints_json(const struct sp_result *res)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < res->n_hints; i++) {
		const struct sp_hint *h = &res->hints[i];
		json_t *o = json_object();

		/* both are valid UTF-8 by construction (sp_hints_add) */
		json_object_set_new(o, "line", h->line > 0 ? json_integer(h->line) : json_null());
		json_object_set_new(o, "about", json_string(h->about));
		json_object_set_new(o, "message", json_string(h->message));
		json_array_append_new(a, o);
	}
	return a;
}

void sp_hints_tail_add(char *tail, size_t *len, size_t cap, const char *s, size_t n)
{
	if (n >= cap) {
		s += n - cap;
		n = cap;
	}
	if (*len + n > cap) {
		size_t drop = *len + n - cap;
		memmove(tail, tail + drop, *len - drop);
		*len -= drop;
	}
	memcpy(tail + *len, s, n);
	*len += n;
}

/* The text between the last "'" pair of msg (a name Python quoted). */
static void quoted(const char *msg, size_t len, char *out, size_t cap)
{
	const char *end = NULL, *start = NULL;

	out[0] = '\0';
	for (size_t i = len; i > 0; i--)
		if (msg[i - 1] == '\'') {
			if (!end) {
				end = msg + i - 1;
			} else {
				start = msg + i;
				break;
			}
		}
	if (start && end > start)
		snprintf(out, cap, "%.*s", (int)(end - start), start);
}

/* The topic of a traceback's last line ("Name: message"), or NULL. */
static const char *topic_of(const char *name, size_t nlen, const char *msg,
			    size_t mlen, bool via_socket, char *detail, size_t cap)
{
#define IS(s) (nlen == sizeof(s) - 1 && memcmp(name, s, nlen) == 0)
	detail[0] = '\0';
	if (IS("ModuleNotFoundError")) {
		quoted(msg, mlen, detail, cap);
		return "module";
	}
	if (IS("FileNotFoundError")) {
		quoted(msg, mlen, detail, cap);
		return "file";
	}
	/* input()'s own words: the end of a pipe, a pickle or a forkserver's
	 * socket is an EOFError too, and no one's typing would help there */
	if (IS("EOFError"))
		return mlen >= 23 && memcmp(msg, "EOF when reading a line", 23) == 0 ? "input" : NULL;
	if (IS("MemoryError"))
		return "memory";
	if (IS("RecursionError"))
		return "recursion";
	/* not ConnectionRefusedError: no socket reaches another machine here,
	 * so that one comes from a unix socket of the program's own */
	if (IS("socket.gaierror") || IS("socket.herror") || IS("urllib.error.URLError"))
		return "network";
	if ((IS("OSError") || IS("PermissionError")) && mlen > 10 &&
	    memcmp(msg, "[Errno 30]", 10) == 0) {
		quoted(msg, mlen, detail, cap);
		return "readonly";
	}
	if (IS("PermissionError") && via_socket)
		return "network";
	return NULL;
#undef IS
}

void sp_hints_from_tracebacks(struct sp_result *res, const char *text, size_t len)
{
	static const char head[] = "Traceback (most recent call last):";
	const char *p = text, *end = text + len;

	while (p < end && res->n_hints < SP_MAX_HINTS) {
		const char *tb = memmem(p, (size_t)(end - p), head, sizeof head - 1);
		const char *l, *nl;
		int line = 0;
		bool via_socket = false;

		if (!tb)
			break;
		/* frames are indented; the first line that is not ends the block */
		for (l = tb + sizeof head - 1; l < end; l = nl + 1) {
			nl = memchr(l, '\n', (size_t)(end - l));
			if (!nl)
				nl = end;
			if (l == tb + sizeof head - 1)
				continue; /* the rest of the head line */
			if (l < end && *l != ' ')
				break;
			static const char file[] = "  File \"";
			if ((size_t)(nl - l) > sizeof file && memcmp(l, file, sizeof file - 1) == 0) {
				const char *f = l + sizeof file - 1;
				const char *q = memchr(f, '"', (size_t)(nl - f));
				/* the program's own file, not a library's (/usr/...) */
				if (q && *f != '/' && *f != '<' && nl - q > 8 &&
				    memcmp(q, "\", line ", 8) == 0) {
					/* the program's text: a number past int is none */
					long n = strtol(q + 8, NULL, 10);
					line = n > 0 && n <= INT_MAX ? (int)n : 0;
				}
				if (q && q - f > 10 && memcmp(q - 10, "/socket.py", 10) == 0)
					via_socket = true;
			}
		}
		if (l >= end)
			break;
		nl = memchr(l, '\n', (size_t)(end - l));
		if (!nl)
			nl = end;
		const char *colon = memchr(l, ':', (size_t)(nl - l));
		const char *name_end = colon ? colon : nl;
		const char *msg = colon ? colon + 1 : nl;
		char detail[DETAIL_MAX + 1], about[64];
		while (msg < nl && *msg == ' ')
			msg++;
		const char *t = topic_of(l, (size_t)(name_end - l), msg, (size_t)(nl - msg),
					 via_socket, detail, sizeof detail);
		if (t) {
			snprintf(about, sizeof about, "%.*s", (int)(name_end - l), l);
			sp_hints_add(res, t, about, detail, line);
		}
		p = nl;
	}
}
