/* SPDX-License-Identifier: MIT */
/*
 * mcp_history.c - the MCP runs' directory (mcp_history.h).
 *
 * Run dirs are named so that their names sort by time. The root is
 * opened once, by descriptor (keptdirs.h: never a link, only the user's
 * own), and pruning goes through that descriptor and only touches names
 * sandpit gives run dirs: the dir is sandpit's own, but it lives in a
 * home someone else may have prepared.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "config/config.h"
#include "config/keptdirs.h"
#include "text/fileio.h"
#include "service/mcp_history.h"
#include "banned.h"

#define VIOLATIONS_MARK "violations"

static char root[1024];
static int root_fd = -1;
static bool temp_root;

static int use_root(const char *path, char *err, size_t errlen)
{
	int fd = keptdirs_open(path, err, errlen);

	if (fd < 0)
		return -1;
	if (root_fd >= 0)
		close(root_fd);
	root_fd = fd;
	if (path != root)
		snprintf(root, sizeof root, "%s", path);
	return 0;
}

int mcp_history_open_at(const char *path, char *err, size_t errlen)
{
	return use_root(path, err, errlen);
}

int mcp_history_open(char *err, size_t errlen)
{
	char state[1024];

	err[0] = '\0';
	if (config_state_path("mcp-runs", state, sizeof state, true) == 0) {
		if (mkdir(state, 0700) < 0 && errno != EEXIST)
			snprintf(err, errlen, "'%s' cannot be made: %s", state, strerror(errno));
		else if (use_root(state, err, errlen) == 0)
			return 0;
	}
	snprintf(root, sizeof root, "/tmp/sandpit-mcp-XXXXXX");
	if (!mkdtemp(root) || use_root(root, err, errlen) < 0) {
		snprintf(err, errlen, "no state dir and no temp dir for the runs' files: %s",
			 strerror(errno));
		root[0] = '\0';
		return -1;
	}
	temp_root = true;
	return 0;
}

const char *mcp_history_root(void)
{
	return root;
}

int mcp_history_new(unsigned n, char *dir, size_t len)
{
	char stamp[32], name[80];
	time_t now = time(NULL);
	struct tm tm;
	int w;

	if (root_fd < 0)
		return -1;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	snprintf(name, sizeof name, "%s-%d-%05u", stamp, (int)getpid(), n);
	w = snprintf(dir, len, "%s/%s", root, name);
	if (w < 0 || (size_t)w >= len || mkdirat(root_fd, name, 0700) < 0)
		return -1;
	return 0;
}

static void save(const char *dir, const char *name, const char *data, size_t n)
{
	char path[1400], err[300];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fio_replace(path, data, n, 0600, err, sizeof err);
}

void mcp_history_save(const char *dir, const char *code, size_t code_len, const char *json,
		      unsigned violations)
{
	save(dir, "code.py", code ? code : "", code ? code_len : 0);
	if (json)
		save(dir, "result.json", json, strlen(json));
	if (violations) {
		char count[24];
		snprintf(count, sizeof count, "%u\n", violations);
		save(dir, VIOLATIONS_MARK, count, strlen(count));
	}
}

char *mcp_history_answer(const json_t *result)
{
	struct sp_buf b = SP_BUF_INIT;
	const json_t *block;
	size_t i;
	bool summary = false;

	json_array_foreach(json_object_get(result, "content"), i, block) {
		const char *type = json_string_value(json_object_get(block, "type"));
		const json_t *text = json_object_get(block, "text");
		char line[300];
		if (!type)
			continue;
		if (!strcmp(type, "text") && json_is_string(text)) {
			/* the summary whole; the JSON blocks are result.json's */
			if (!summary) {
				sp_buf_add(&b, json_string_value(text), json_string_length(text));
				summary = true;
				continue;
			}
			snprintf(line, sizeof line, "[a text block of %zu bytes: the result as JSON]",
				 json_string_length(text));
		} else if (!strcmp(type, "image")) {
			snprintf(line, sizeof line, "[an image, %.60s, %zu bytes of base64]",
				 json_string_value(json_object_get(block, "mimeType")) ?
				 json_string_value(json_object_get(block, "mimeType")) : "?",
				 json_string_length(json_object_get(block, "data")));
		} else if (!strcmp(type, "resource_link")) {
			snprintf(line, sizeof line, "[a link to the resource %.200s]",
				 json_string_value(json_object_get(block, "uri")) ?
				 json_string_value(json_object_get(block, "uri")) : "?");
		} else {
			snprintf(line, sizeof line, "[a %.40s block]", type);
		}
		if (b.len && b.data[b.len - 1] != '\n')
			sp_buf_adds(&b, "\n");
		sp_buf_adds(&b, line);
	}
	return sp_buf_detach(&b, NULL);
}

void mcp_history_save_answer(const char *dir, const char *text)
{
	if (text)
		save(dir, "answer.txt", text, strlen(text));
}

/* A request's name for a file in the work dir, safe as one name in in/
 * (the engine refuses the others before a run anyway). */
static bool name_ok(const char *name)
{
	return name && name[0] && strcmp(name, ".") && strcmp(name, "..") && !strchr(name, '/') &&
	       strlen(name) < 256;
}

/* Copy input file i of rq (its bytes, held by the request) into dir/in/
 * when it fits in *left: its record. */
static json_t *keep_input(const char *dir, const struct request *rq, size_t i, size_t *left)
{
	const struct sp_file_bytes *f = &rq->files[i];
	const char *name = f->name;
	json_t *rec = json_object();
	char path[1500], err[300];

	json_object_set_new(rec, "name", json_string(name_ok(name) ? name : "?"));
	if (!name_ok(name)) {
		json_object_set_new(rec, "not_kept", json_string("its name is not one a work dir takes"));
		return rec;
	}
	json_object_set_new(rec, "bytes", json_integer((json_int_t)f->len));
	if (f->len > *left) {
		char why[200];
		snprintf(why, sizeof why, "over the history's cap of %u MiB of input files "
			 "a run", MCP_HISTORY_IN_BYTES >> 20);
		json_object_set_new(rec, "not_kept", json_string(why));
		return rec;
	}
	snprintf(path, sizeof path, "%s/in/%s", dir, name);
	if (fio_replace(path, f->data, f->len, 0600, err, sizeof err) == 0) {
		json_object_set_new(rec, "kept", json_true());
		*left -= f->len;
	} else {
		json_object_set_new(rec, "not_kept", json_string("it could not be written"));
	}
	return rec;
}

void mcp_history_save_request(const char *dir, const struct request *rq)
{
	json_t *o = json_object(), *files = json_array(), *lim;
	size_t left = MCP_HISTORY_IN_BYTES;
	char path[1300], *text;

	if (rq->stdin_data && rq->stdin_len) {
		json_t *s = json_stringn(rq->stdin_data, rq->stdin_len);
		if (s)
			json_object_set_new(o, "stdin", s);
	}
	if (rq->carry) {
		json_t *c = json_loadb(rq->carry, rq->carry_len, 0, NULL);
		json_object_set_new(o, "carry", c ? c : json_stringn(rq->carry, rq->carry_len));
	}
	lim = json_pack("{s:I, s:I, s:I, s:I, s:I, s:i}",
			"cpu_ms", (json_int_t)rq->limits.cpu_ms,
			"wall_ms", (json_int_t)rq->limits.wall_ms,
			"memory_bytes", (json_int_t)rq->limits.memory_bytes,
			"output_bytes", (json_int_t)rq->limits.output_bytes,
			"disk_bytes", (json_int_t)rq->limits.disk_bytes,
			"procs", (int)rq->limits.procs);
	if (lim)
		json_object_set_new(o, "limits", lim);
	if (rq->clamped[0])
		json_object_set_new(o, "clamped", json_string(rq->clamped));
	if (rq->n_files) {
		snprintf(path, sizeof path, "%s/in", dir);
		mkdir(path, 0700);
	}
	for (size_t i = 0; i < rq->n_files; i++)
		json_array_append_new(files, keep_input(dir, rq, i, &left));
	json_object_set_new(o, "files_in", files);
	if ((text = json_dumps(o, JSON_INDENT(2)))) {
		save(dir, "request.json", text, strlen(text));
		free(text);
	}
	json_decref(o);
}

/* ---- prune ------------------------------------------------------------ */

struct kept {
	char *name;
	bool violations, drop;
	uint64_t bytes;
	time_t mtime;
};

static void prune_dirs(const struct mcp_history_policy *p, struct kept *k, size_t n, time_t now)
{
	unsigned plain = 0, viol = 0;
	uint64_t total = 0;

	/* newest first: the counts and the ages */
	for (size_t i = n; i-- > 0;) {
		unsigned *count = k[i].violations ? &viol : &plain;
		unsigned max = k[i].violations ? p->violation_runs : p->runs;
		time_t days = k[i].violations ? p->violation_days : p->days;
		bool over = ++*count > max || now - k[i].mtime > days * 86400;
		k[i].drop = over && i != n - 1; /* the newest run always stays */
		if (!k[i].drop)
			total += k[i].bytes;
	}
	/* then the bytes: the oldest without violations first */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i + 1 < n && total > p->bytes; i++)
			if (!k[i].drop && k[i].violations == (pass == 1)) {
				k[i].drop = true;
				total -= k[i].bytes;
			}
}

void mcp_history_prune_by(const struct mcp_history_policy *p, time_t now)
{
	char **names, mark[300];
	struct kept *k;
	struct stat st;
	size_t n;

	if (root_fd < 0 || (n = keptdirs_list(root_fd, &names)) == 0)
		return;
	if (!(k = calloc(n, sizeof *k))) {
		keptdirs_names_free(names, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		k[i].name = names[i];
		snprintf(mark, sizeof mark, "%s/" VIOLATIONS_MARK, names[i]);
		k[i].violations = fstatat(root_fd, mark, &st, AT_SYMLINK_NOFOLLOW) == 0;
		k[i].mtime = fstatat(root_fd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 ? st.st_mtime : now;
		k[i].bytes = keptdirs_bytes(root_fd, names[i]);
	}
	prune_dirs(p, k, n, now);
	for (size_t i = 0; i < n; i++)
		if (k[i].drop)
			keptdirs_remove(root_fd, names[i]);
	free(k);
	keptdirs_names_free(names, n);
}

void mcp_history_prune(void)
{
	const struct mcp_history_policy p = MCP_HISTORY_POLICY;

	mcp_history_prune_by(&p, time(NULL));
}

void mcp_history_close(void)
{
	if (temp_root && root_fd >= 0) {
		char **names;
		size_t n = keptdirs_list(root_fd, &names);
		for (size_t i = 0; i < n; i++)
			keptdirs_remove(root_fd, names[i]);
		keptdirs_names_free(names, n);
		rmdir(root);
	}
	if (root_fd >= 0)
		close(root_fd);
	root_fd = -1;
	root[0] = '\0';
	temp_root = false;
}
