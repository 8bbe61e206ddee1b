/* SPDX-License-Identifier: MIT */
/*
 * mcp_runs.c - reading the MCP runs' history (mcp_runs.h). A run dir
 * holds code.py, result.json and files/; a dir that lacks one still
 * lists, with what it has ("?" for an unknown status).
 */
#include <dirent.h>
#include <errno.h>
#include <unistd.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "config/config.h"
#include "config/keptdirs.h"
#include "text/fileio.h"
#include "service/mcp_content.h"
#include "service/mcp_runs.h"
#include "service/result_json.h"
#include "text/sanitize.h"
#include "banned.h"

#define MAX_CODE (16u << 20)
#define MAX_RESULT (64u << 20)

static char *read_in(const char *dir, const char *name, size_t max, size_t *len)
{
	char path[1300];
	struct fio_error e;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return fio_read(path, max, FIO_NOFOLLOW, len, &e);
}

/* name's JSON in dir: a byte the program wrote that was not UTF-8 (a
 * lone surrogate's escape in the text) as U+FFFD, which jansson takes:
 * one such byte must not hide the run. */
static json_t *json_in(const char *dir, const char *name)
{
	size_t n;
	char *text = read_in(dir, name, MAX_RESULT, &n);
	json_t *r = text ? result_json_parse(text, n) : NULL;

	free(text);
	return r;
}

static json_t *result_of(const char *dir)
{
	return json_in(dir, "result.json");
}

/* "20261201-211502-123-00007" into "2026-12-01 21:15:02" */
static void when_of(const char *name, char *buf, size_t len)
{
	if (strlen(name) >= 15 && name[8] == '-')
		snprintf(buf, len, "%.4s-%.2s-%.2s %.2s:%.2s:%.2s", name, name + 4, name + 6,
			 name + 9, name + 11, name + 13);
	else
		snprintf(buf, len, "%.20s", name);
}

static void first_line(const char *dir, char *buf, size_t len)
{
	size_t n;
	char *code = read_in(dir, "code.py", MAX_CODE, &n), *p, *clean;

	buf[0] = '\0';
	if (!code)
		return;
	for (p = code; *p; ) {
		char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		if (strspn(p, " \t") < l) {
			p[l] = '\0';
			if ((clean = sanitize_dup(p + strspn(p, " \t"), true))) {
				snprintf(buf, len, "%s", clean);
				free(clean);
			}
			break;
		}
		p = nl ? nl + 1 : p + l;
	}
	free(code);
}

static int newest_first(const void *a, const void *b)
{
	return strcmp(((const struct mcp_run_entry *)b)->dir, ((const struct mcp_run_entry *)a)->dir);
}

size_t mcp_runs_list(const char *root, struct mcp_run_entry **out, char *err, size_t errlen)
{
	char def[1024];
	struct mcp_run_entry *v = NULL;
	size_t n = 0, cap = 0;
	struct stat st;
	int fd;
	DIR *d;
	struct dirent *de;

	*out = NULL;
	err[0] = '\0';
	if (!root) {
		if (config_state_path("mcp-runs", def, sizeof def, false) < 0)
			return 0;
		root = def;
	}
	if (lstat(root, &st) < 0 && errno == ENOENT)
		return 0; /* no runs yet */
	/* only the user's own dir, not a link: the server keeps none elsewhere */
	if ((fd = keptdirs_open(root, err, errlen)) < 0)
		return 0;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return 0;
	}
	while ((de = readdir(d))) {
		struct mcp_run_entry *e;
		json_t *r;
		if (!keptdirs_name_ours(de->d_name) || de->d_type != DT_DIR)
			continue;
		if (n == cap) {
			struct mcp_run_entry *g = realloc(v, (cap = cap ? cap * 2 : 32) * sizeof *v);
			if (!g)
				break;
			v = g;
		}
		e = &v[n++];
		memset(e, 0, sizeof *e);
		snprintf(e->dir, sizeof e->dir, "%s/%s", root, de->d_name);
		when_of(de->d_name, e->when, sizeof e->when);
		r = result_of(e->dir);
		snprintf(e->status, sizeof e->status, "%s",
			 json_is_string(json_object_get(r, "status")) ?
			 json_string_value(json_object_get(r, "status")) : "?");
		e->violations = (unsigned)json_array_size(json_object_get(r, "violations"));
		json_decref(r);
		first_line(e->dir, e->first, sizeof e->first);
	}
	closedir(d);
	qsort(v, n, sizeof *v, newest_first);
	if (n > MCP_RUNS_MAX)
		n = MCP_RUNS_MAX;
	*out = v;
	return n;
}

char *mcp_runs_code(const struct mcp_run_entry *e, size_t *len)
{
	return read_in(e->dir, "code.py", MAX_CODE, len);
}

/* len bytes sanitized onto b: as a block (line breaks kept, a NUL shown,
 * a line break after), or as a part of one line (one_line: none kept) */
static void add_clean(struct sp_buf *b, const char *text, size_t len, bool one_line)
{
	struct sanitizer z;
	size_t cap = sanitize_max_out(len) + 16, n;
	char *out = malloc(cap);

	if (!out)
		return;
	sanitize_init(&z);
	z.one_line = one_line;
	n = sanitize_feed(&z, text ? text : "", text ? len : 0, out, cap);
	n += sanitize_finish(&z, out + n, cap - n);
	out[n] = '\0';
	sp_buf_adds(b, out);
	if (!one_line && n && out[n - 1] != '\n')
		sp_buf_adds(b, "\n");
	free(out);
}

static void add_bytes(struct sp_buf *b, const char *text, size_t len)
{
	add_clean(b, text, len, false);
}

/* a JSON string's value as a part of one line */
static void add_inline(struct sp_buf *b, const json_t *s)
{
	if (json_is_string(s))
		add_clean(b, json_string_value(s), json_string_length(s), true);
}

static void add_text(struct sp_buf *b, const char *text)
{
	add_bytes(b, text, text ? strlen(text) : 0);
}

/* a JSON string's whole value (NULs included) */
static void add_json_string(struct sp_buf *b, const json_t *s)
{
	if (json_is_string(s))
		add_bytes(b, json_string_value(s), json_string_length(s));
}

static void add_line(struct sp_buf *b, const char *s)
{
	sp_buf_adds(b, s);
	sp_buf_adds(b, "\n");
}

static void add_json(struct sp_buf *b, const json_t *v)
{
	char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);

	add_text(b, text ? text : "?");
	free(text);
}

static long long num(const json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

/* "cpu 5 s, wall 10 s, memory 256 MiB, ..." */
static void add_limits(struct sp_buf *b, const json_t *l)
{
	char line[300], mem[32], out[32], disk[32];

	if (!json_is_object(l))
		return;
	sp_format_bytes((uint64_t)num(l, "memory_bytes"), mem, sizeof mem);
	sp_format_bytes((uint64_t)num(l, "output_bytes"), out, sizeof out);
	sp_format_bytes((uint64_t)num(l, "disk_bytes"), disk, sizeof disk);
	snprintf(line, sizeof line, "limits: cpu %.3g s, wall %.3g s, memory %s, output %s, "
		 "disk %s, processes %lld", (double)num(l, "cpu_ms") / 1000,
		 (double)num(l, "wall_ms") / 1000, mem, out, disk, num(l, "procs"));
	add_line(b, line);
}

/* "used: 0.03 s CPU, 0.05 s wall, peak memory 5.6 MiB, ..." */
static void add_usage(struct sp_buf *b, const json_t *u)
{
	char line[300], cpu[32], wall[32], mem[32], out[32], disk[32];

	if (!json_is_object(u))
		return;
	sp_format_ms((uint64_t)num(u, "cpu_ms"), cpu, sizeof cpu);
	sp_format_ms((uint64_t)num(u, "wall_ms"), wall, sizeof wall);
	sp_format_bytes((uint64_t)num(u, "peak_memory_bytes"), mem, sizeof mem);
	sp_format_bytes((uint64_t)num(u, "output_bytes"), out, sizeof out);
	sp_format_bytes((uint64_t)num(u, "disk_bytes"), disk, sizeof disk);
	snprintf(line, sizeof line, "used: %s CPU, %s wall, peak memory %s, output %s, disk %s, "
		 "processes %lld", cpu, wall, mem, out, disk, num(u, "procs_peak"));
	add_line(b, line);
}

/* The globals the run ended with ("name: type = repr"). */
static void add_variables(struct sp_buf *b, const json_t *r)
{
	const json_t *v;
	size_t i;

	if (json_array_size(json_object_get(r, "variables")))
		add_line(b, "--- variables ---");
	json_array_foreach(json_object_get(r, "variables"), i, v) {
		add_inline(b, json_object_get(v, "name"));
		sp_buf_adds(b, ": ");
		add_inline(b, json_object_get(v, "type"));
		sp_buf_adds(b, " = ");
		add_inline(b, json_object_get(v, "repr"));
		sp_buf_adds(b, "\n");
	}
	if (json_integer_value(json_object_get(r, "variables_more")) > 0) {
		char line[80];
		snprintf(line, sizeof line, "(and %lld more)", num(r, "variables_more"));
		add_line(b, line);
	}
}

/* What the request sent besides the code (request.json; older runs have
 * none, and their result's files_in tells the names). */
static void add_request(struct sp_buf *b, const json_t *q, const json_t *r)
{
	const json_t *files = json_object_get(q, "files_in"), *v;
	char line[600];
	size_t i;

	add_line(b, "--- what the request asked ---");
	add_limits(b, json_object_get(r, "limits"));
	if (json_is_string(json_object_get(q, "clamped"))) {
		sp_buf_adds(b, "lowered to the server's maxima: ");
		add_json_string(b, json_object_get(q, "clamped"));
	}
	if (json_is_string(json_object_get(q, "stdin"))) {
		add_line(b, "stdin:");
		add_json_string(b, json_object_get(q, "stdin"));
	}
	if (json_object_get(q, "carry")) {
		sp_buf_adds(b, "carry in: ");
		add_json(b, json_object_get(q, "carry"));
	}
	if (!files)
		files = json_object_get(r, "files_in");
	if (json_array_size(files))
		add_line(b, "files in:");
	json_array_foreach(files, i, v) {
		const json_t *name = json_object_get(v, "name");
		const char *why = json_string_value(json_object_get(v, "not_kept"));
		char size[32];
		sp_buf_adds(b, "  ");
		add_inline(b, name ? name : json_object_get(v, "path"));
		sp_format_bytes((uint64_t)num(v, "bytes"), size, sizeof size);
		snprintf(line, sizeof line, "  %s%s", size,
			 json_is_true(json_object_get(v, "kept")) ? ", kept (e attaches it)" :
			 why ? ", not kept: " : q ? "" : ", not kept (an older run)");
		sp_buf_adds(b, line);
		add_text(b, why ? why : "");
		if (!why)
			sp_buf_adds(b, "\n");
	}
}

static void add_violations(struct sp_buf *b, const json_t *r)
{
	const json_t *v;
	char line[300];
	size_t i;

	if (json_array_size(json_object_get(r, "violations")))
		add_line(b, "--- violations ---");
	json_array_foreach(json_object_get(r, "violations"), i, v) {
		json_t *ln = json_object_get(v, "line");
		const char *kind = json_string_value(json_object_get(v, "kind"));
		if (json_is_integer(ln))
			snprintf(line, sizeof line, "%s at line %lld: ", kind ? kind : "?",
				 (long long)json_integer_value(ln));
		else
			snprintf(line, sizeof line, "%s: ", kind ? kind : "?");
		sp_buf_adds(b, line);
		add_json_string(b, json_object_get(v, "what"));
		sp_buf_adds(b, "  ");
		add_json_string(b, json_object_get(v, "message"));
	}
	if (json_array_size(json_object_get(r, "hints")))
		add_line(b, "--- hints ---");
	json_array_foreach(json_object_get(r, "hints"), i, v)
		add_json_string(b, json_object_get(v, "message"));
}

/* The files the run left; the first picture among this run's own. */
static void add_files(struct sp_buf *b, const json_t *r, const char *dir, char **picture)
{
	const json_t *v;
	size_t i;

	if (json_array_size(json_object_get(r, "files")))
		add_line(b, "--- files it left ---");
	json_array_foreach(json_object_get(r, "files"), i, v) {
		const char *kept = json_string_value(json_object_get(v, "kept"));
		const char *path = json_string_value(json_object_get(v, "path"));
		add_json_string(b, json_object_get(v, "path"));
		/* a picture only from this run's own files/ dir */
		if (!*picture && kept && path && !strstr(path, "..")) {
			char want[1400];
			snprintf(want, sizeof want, "%s/files/%s", dir, path);
			if (!strcmp(want, kept)) {
				size_t len;
				struct fio_error fe;
				char *data = fio_read(want, 16, FIO_NOFOLLOW | FIO_PREFIX, &len, &fe);
				if (data && mcp_image_type((unsigned char *)data, len))
					*picture = strdup(want);
				free(data);
			}
		}
	}
}

char *mcp_runs_detail(const struct mcp_run_entry *e, char **picture)
{
	struct sp_buf b = SP_BUF_INIT;
	json_t *r = result_of(e->dir), *q = json_in(e->dir, "request.json"), *lv;
	size_t n;
	char *code = mcp_runs_code(e, &n), line[300], *answer;

	*picture = NULL;
	snprintf(line, sizeof line, "Run of %s: %s", e->when, e->status);
	if (json_is_integer(json_object_get(r, "exit_code")))
		snprintf(line + strlen(line), sizeof line - strlen(line), ", exit code %lld",
			 num(r, "exit_code"));
	add_line(&b, line);
	add_usage(&b, json_object_get(r, "usage"));
	if (!r)
		add_line(&b, "(its result.json is missing or not JSON: only the code is shown)");
	add_line(&b, "");
	add_request(&b, q, r);
	add_line(&b, "--- code ---");
	add_bytes(&b, code, code ? n : 0);
	free(code);
	add_line(&b, "--- stdout ---");
	add_json_string(&b, json_object_get(r, "stdout"));
	add_line(&b, "--- stderr ---");
	add_json_string(&b, json_object_get(r, "stderr"));
	if (json_object_get(r, "stdout_base64") || json_object_get(r, "stderr_base64"))
		add_line(&b, "(bytes that are not UTF-8 show as U+FFFD; the model got them exact "
			 "in base64)");
	if (json_is_true(json_object_get(r, "truncated")))
		add_line(&b, "(the output was cut at its limit)");
	if (json_is_object(lv = json_object_get(r, "last_value"))) {
		const char *type = json_string_value(json_object_get(lv, "type"));
		snprintf(line, sizeof line, "--- Out (the last expression's value, of type %.100s) ---",
			 type ? type : "value");
		add_line(&b, line);
		add_json_string(&b, json_object_get(lv, "repr"));
	}
	if (json_object_get(r, "carry_out") && !json_is_null(json_object_get(r, "carry_out"))) {
		add_line(&b, "--- carry out ---");
		add_json(&b, json_object_get(r, "carry_out"));
	}
	if (json_is_string(json_object_get(r, "error"))) {
		add_line(&b, "--- the sandbox failed ---");
		add_json_string(&b, json_object_get(r, "error"));
	}
	add_variables(&b, r);
	add_violations(&b, r);
	add_files(&b, r, e->dir, picture);
	if ((answer = read_in(e->dir, "answer.txt", MAX_RESULT, &n))) {
		add_line(&b, "--- what the model read (the tool result's text) ---");
		add_bytes(&b, answer, n);
		free(answer);
	}
	json_decref(r);
	json_decref(q);
	return sp_buf_detach(&b, NULL);
}

/* Is name a kept input's, safe as one name under in/? */
static bool input_name_ok(const char *name)
{
	return name && name[0] && strcmp(name, ".") && strcmp(name, "..") && !strchr(name, '/');
}

size_t mcp_runs_inputs(const struct mcp_run_entry *e, char ***paths, size_t *not_kept)
{
	json_t *q = json_in(e->dir, "request.json"), *v;
	char **out = calloc(SP_MAX_FILES_IN, sizeof *out);
	size_t n = 0, i;

	*paths = out;
	*not_kept = 0;
	json_array_foreach(json_object_get(q, "files_in"), i, v) {
		const char *name = json_string_value(json_object_get(v, "name"));
		char path[1400];
		struct stat st;
		if (!out || n == SP_MAX_FILES_IN || !json_is_true(json_object_get(v, "kept")) ||
		    !input_name_ok(name)) {
			(*not_kept)++;
			continue;
		}
		snprintf(path, sizeof path, "%s/in/%s", e->dir, name);
		if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode) || !(out[n] = strdup(path)))
			(*not_kept)++;
		else
			n++;
	}
	json_decref(q);
	return n;
}

void mcp_runs_sent(const struct mcp_run_entry *e, char **stdin_text, size_t *stdin_len,
		   char **carry)
{
	json_t *q = json_in(e->dir, "request.json"), *s = json_object_get(q, "stdin");

	*stdin_text = NULL;
	*stdin_len = 0;
	*carry = NULL;
	if (json_is_string(s) && (*stdin_text = malloc(json_string_length(s) + 1))) {
		*stdin_len = json_string_length(s);
		memcpy(*stdin_text, json_string_value(s), *stdin_len + 1);
	}
	if (json_is_object(json_object_get(q, "carry")))
		*carry = json_dumps(json_object_get(q, "carry"), JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(q);
}
