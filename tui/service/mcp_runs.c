/* SPDX-License-Identifier: MIT */
/*
 * mcp_runs.c - reading the MCP runs' history (mcp_runs.h). A run dir
 * holds code.py, result.json and files/; a dir that lacks one still
 * lists, with what it has ("?" for an unknown status).
 */
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "config/config.h"
#include "text/fileio.h"
#include "service/mcp_content.h"
#include "service/mcp_runs.h"
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

static json_t *result_of(const char *dir)
{
	size_t n;
	char *text = read_in(dir, "result.json", MAX_RESULT, &n);
	json_t *r = text ? json_loadb(text, n, 0, NULL) : NULL;

	free(text);
	return r;
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

size_t mcp_runs_list(const char *root, struct mcp_run_entry **out)
{
	char def[1024];
	struct mcp_run_entry *v = NULL;
	size_t n = 0, cap = 0;
	DIR *d;
	struct dirent *de;

	*out = NULL;
	if (!root) {
		if (config_state_path("mcp-runs", def, sizeof def, false) < 0)
			return 0;
		root = def;
	}
	if (!(d = opendir(root)))
		return 0;
	while ((de = readdir(d))) {
		struct mcp_run_entry *e;
		json_t *r;
		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
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

/* text, sanitized as a block (line breaks kept), onto b */
static void add_text(struct sp_buf *b, const char *text)
{
	char *clean = sanitize_dup(text ? text : "", false);

	if (clean) {
		sp_buf_adds(b, clean);
		if (clean[0] && clean[strlen(clean) - 1] != '\n')
			sp_buf_adds(b, "\n");
	}
	free(clean);
}

static void add_line(struct sp_buf *b, const char *s)
{
	sp_buf_adds(b, s);
	sp_buf_adds(b, "\n");
}

char *mcp_runs_detail(const struct mcp_run_entry *e, char **picture)
{
	struct sp_buf b = SP_BUF_INIT;
	json_t *r = result_of(e->dir), *v;
	size_t n, i;
	char *code = mcp_runs_code(e, &n), line[300];

	*picture = NULL;
	snprintf(line, sizeof line, "Run of %s: %s", e->when, e->status);
	add_line(&b, line);
	add_line(&b, "");
	add_line(&b, "--- code ---");
	add_text(&b, code);
	free(code);
	add_line(&b, "--- stdout ---");
	add_text(&b, json_string_value(json_object_get(r, "stdout")));
	add_line(&b, "--- stderr ---");
	add_text(&b, json_string_value(json_object_get(r, "stderr")));
	if (json_is_string(json_object_get(r, "error"))) {
		add_line(&b, "--- the sandbox failed ---");
		add_text(&b, json_string_value(json_object_get(r, "error")));
	}
	if (json_array_size(json_object_get(r, "violations")))
		add_line(&b, "--- violations ---");
	json_array_foreach(json_object_get(r, "violations"), i, v) {
		json_t *ln = json_object_get(v, "line");
		const char *kind = json_string_value(json_object_get(v, "kind"));
		if (json_is_integer(ln))
			snprintf(line, sizeof line, "%s at line %lld: ", kind ? kind : "?",
				 (long long)json_integer_value(ln));
		else
			snprintf(line, sizeof line, "%s: ", kind ? kind : "?");
		sp_buf_adds(&b, line);
		add_text(&b, json_string_value(json_object_get(v, "what")));
		sp_buf_adds(&b, "  ");
		add_text(&b, json_string_value(json_object_get(v, "message")));
	}
	if (json_array_size(json_object_get(r, "hints")))
		add_line(&b, "--- hints ---");
	json_array_foreach(json_object_get(r, "hints"), i, v)
		add_text(&b, json_string_value(json_object_get(v, "message")));
	if (json_array_size(json_object_get(r, "files")))
		add_line(&b, "--- files it left ---");
	json_array_foreach(json_object_get(r, "files"), i, v) {
		const char *kept = json_string_value(json_object_get(v, "kept"));
		const char *path = json_string_value(json_object_get(v, "path"));
		add_text(&b, path);
		/* a picture only from this run's own files/ dir */
		if (!*picture && kept && path && !strstr(path, "..")) {
			char want[1400];
			snprintf(want, sizeof want, "%s/files/%s", e->dir, path);
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
	json_decref(r);
	return sp_buf_detach(&b, NULL);
}
