/* SPDX-License-Identifier: MIT */
/*
 * request.c - a JSON run request into a run's config (request.h).
 *
 * Every field is checked before anything is written: its type, its size,
 * a file's name (no '/', not . or ..), base64 that decodes, a host path
 * that lies under an allowed directory, opened from its descriptor
 * without following a link (allow_dir.h).
 * Messages speak of the request's own fields ("files[2].base64"), since
 * the reader is whoever wrote the request, often a model.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text/base64.h"
#include "text/fileio.h"
#include "config/limit_fields.h"
#include "service/allow_dir.h"
#include "service/request.h"
#include "banned.h"

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

void request_policy_init(struct request_policy *pol)
{
	memset(pol, 0, sizeof *pol);
	sp_limits_default(&pol->dflt);
	pol->max = pol->dflt;
}

void request_prepare(const struct request_policy *pol, char *preload, const char **names,
		     struct sp_prepare *prep)
{
	char *save = NULL;

	memset(prep, 0, sizeof *prep);
	prep->python = pol->python;
	prep->limits = pol->dflt;
	prep->preload = names;
	if (!preload)
		return;
	for (char *t = strtok_r(preload, ", ", &save); t && prep->n_preload < SP_MAX_PRELOAD;
	     t = strtok_r(NULL, ", ", &save))
		names[prep->n_preload++] = t;
}

static char *dup_string(const json_t *v, size_t *len)
{
	size_t n = json_string_length(v);
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, json_string_value(v), n);
		s[n] = '\0';
		*len = n;
	}
	return s;
}

/* One limit of the request: a number or a string limit_parse() reads,
 * lowered to the maximum (said in rq->clamped). */
static int take_limit(const char *key, const json_t *v, const struct request_policy *pol,
		      struct request *rq, char *err, size_t len)
{
	int id = limit_find(key);
	char text[64], why[256], asked[64], max[64];
	struct sp_limits l = rq->limits;

	if (id < 0 || id == LIM_COUNT)
		return fail(err, len, "limits.%s: no such limit (give cpu, wall, memory, output, "
			    "disk, procs)", key);
	if (json_is_integer(v))
		snprintf(text, sizeof text, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(text, sizeof text, "%.3f", json_real_value(v));
	else if (json_is_string(v) && json_string_length(v) < sizeof text)
		snprintf(text, sizeof text, "%s", json_string_value(v));
	else
		return fail(err, len, "limits.%s: give a number (%s) or a short string",
			    key, limit_fields[id].unit == LU_SECONDS ? "seconds" :
			    limit_fields[id].unit == LU_SIZE ? "bytes, or \"64M\"" : "a count");
	if (limit_parse((enum limit_id)id, text, &l, why, sizeof why) < 0)
		return fail(err, len, "limits.%s: %s", key, why);
	if (limit_get(&l, (enum limit_id)id) > limit_get(&pol->max, (enum limit_id)id)) {
		size_t at = strlen(rq->clamped);
		limit_format((enum limit_id)id, &l, asked, sizeof asked);
		limit_format((enum limit_id)id, &pol->max, max, sizeof max);
		limit_parse((enum limit_id)id, max, &l, why, sizeof why);
		snprintf(rq->clamped + at, sizeof rq->clamped - at, "%s%s %s lowered to the "
			 "server's maximum %s", at ? "; " : "", key, asked, max);
	}
	rq->limits = l;
	return 0;
}

static int take_limits(const json_t *lim, const struct request_policy *pol,
		       struct request *rq, char *err, size_t len)
{
	const char *key;
	json_t *v;

	if (!lim || json_is_null(lim))
		return 0;
	if (!json_is_object(lim))
		return fail(err, len, "limits: give an object such as {\"cpu\": 2, \"memory\": "
			    "\"256M\"}");
	json_object_foreach((json_t *)lim, key, v)
		if (take_limit(key, v, pol, rq, err, len) < 0)
			return -1;
	return 0;
}

/* The bytes of files[i] from a host path: opened under an allowed dir
 * by descriptor (allow_dir.c), read from that descriptor (a regular
 * file, at most the disk limit), so the run's copy is of what was
 * checked. */
static char *read_allowed(size_t i, const char *path, const struct request_policy *pol,
			  const struct request *rq, size_t *n, char *err, size_t len)
{
	char why[300];
	struct fio_error e;
	char *data;
	int fd;

	if (pol->n_allow == 0) {
		fail(err, len, "files[%zu].path: this server reads no host files (start it with "
		     "--allow-dir DIR); send the file's text or base64 instead", i);
		return NULL;
	}
	if ((fd = allow_dir_open_file(pol->allow_dirs, pol->n_allow, path, why, sizeof why)) < 0) {
		fail(err, len, "files[%zu].path: '%s' %s", i, path, why);
		return NULL;
	}
	data = fio_read_fd(fd, path, rq->limits.disk_bytes, 0, n, &e);
	close(fd);
	if (!data)
		fail(err, len, "files[%zu].path: '%s' %s", i, path,
		     e.kind == FIO_TOO_BIG ? "is over the disk limit" :
		     e.kind == FIO_NOT_REGULAR ? "is not a regular file" : "cannot be read");
	return data;
}

/* files[i]'s bytes, owned by rq from here on (data is malloc'd). */
static void keep_bytes(struct request *rq, size_t i, void *data, size_t n)
{
	rq->data[i] = data;
	rq->files[i].data = data;
	rq->files[i].len = n;
	rq->bytes += n;
}

static void *dup_bytes(const char *p, size_t n)
{
	char *d = malloc(n ? n : 1);

	if (d)
		memcpy(d, p, n);
	return d;
}

static int take_file(size_t i, const json_t *f, const struct request_policy *pol,
		     struct request *rq, char *err, size_t len)
{
	const json_t *name = json_object_get(f, "name");
	const json_t *text = json_object_get(f, "text");
	const json_t *b64 = json_object_get(f, "base64");
	const json_t *path = json_object_get(f, "path");
	const char *nm;
	char *data = NULL;
	size_t n = 0, bad;

	if (!json_is_object(f))
		return fail(err, len, "files[%zu]: give an object {\"name\": ..., \"text\": ...}", i);
	if (!json_is_string(name) || json_string_length(name) == 0)
		return fail(err, len, "files[%zu].name: give the file's name in the work dir, "
			    "a string", i);
	nm = json_string_value(name);
	if (strlen(nm) != json_string_length(name) || strchr(nm, '/') || !strcmp(nm, ".") ||
	    !strcmp(nm, "..") || json_string_length(name) > 255)
		return fail(err, len, "files[%zu].name '%s': a plain file name is needed (no '/', "
			    "not . or .., at most 255 bytes); the file lands in the work dir", i,
			    strlen(nm) > 80 ? "(long)" : nm);
	if (!!text + !!b64 + !!path != 1)
		return fail(err, len, "files[%zu] ('%s'): give exactly one of text, base64 or path",
			    i, nm);
	if (text) {
		if (!json_is_string(text))
			return fail(err, len, "files[%zu].text: give a string", i);
		if (json_string_length(text) > rq->limits.disk_bytes)
			return fail(err, len, "files[%zu] ('%s') is over the disk limit", i, nm);
		n = json_string_length(text);
		if (!(data = dup_bytes(json_string_value(text), n)))
			return fail(err, len, "out of memory");
	} else if (b64) {
		unsigned char *bytes;
		if (!json_is_string(b64))
			return fail(err, len, "files[%zu].base64: give a string", i);
		bytes = base64_decode(json_string_value(b64), json_string_length(b64), &n, &bad);
		if (!bytes)
			return bad == (size_t)-1 ? fail(err, len, "out of memory")
			       : fail(err, len, "files[%zu].base64 ('%s') is not base64: a bad "
				      "character or length at offset %zu", i, nm, bad);
		if (n > rq->limits.disk_bytes) {
			free(bytes);
			return fail(err, len, "files[%zu] ('%s') is over the disk limit", i, nm);
		}
		data = (char *)bytes;
	} else {
		if (!json_is_string(path))
			return fail(err, len, "files[%zu].path: give a string", i);
		if (!(data = read_allowed(i, json_string_value(path), pol, rq, &n, err, len)))
			return -1;
	}
	keep_bytes(rq, i, data, n);
	rq->n_files = i + 1;
	if (!(rq->names[i] = strdup(nm)))
		return fail(err, len, "out of memory");
	rq->files[i].name = rq->names[i];
	return 0;
}

static int take_files(const json_t *files, const struct request_policy *pol,
		      struct request *rq, char *err, size_t len)
{
	size_t i;
	json_t *f;

	if (!files || json_is_null(files))
		return 0;
	if (!json_is_array(files))
		return fail(err, len, "files: give an array of {\"name\", \"text\"|\"base64\"} "
			    "objects");
	if (json_array_size(files) > SP_MAX_FILES_IN)
		return fail(err, len, "files: %zu files, at most %d: pack them into one archive "
			    "(zip or tar, as base64) and unpack it in the program",
			    json_array_size(files), SP_MAX_FILES_IN);
	json_array_foreach(files, i, f)
		if (take_file(i, f, pol, rq, err, len) < 0)
			return -1;
	return 0;
}

static const char *const known[] = { "code", "files", "stdin", "carry", "limits" };

int request_parse(const json_t *args, const struct request_policy *pol, struct request *rq,
		  char *err, size_t errlen)
{
	const json_t *code, *in, *carry;
	const char *key;
	json_t *v;
	struct sp_error e;

	memset(rq, 0, sizeof *rq);
	rq->limits = pol->dflt;
	if (!json_is_object(args))
		return fail(err, errlen, "the arguments must be an object with at least \"code\"");
	json_object_foreach((json_t *)args, key, v) {
		bool ok = false;
		for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
			ok |= !strcmp(key, known[i]);
		if (!ok)
			return fail(err, errlen, "unknown argument \"%.60s\" (give code, files, stdin, "
				    "carry, limits)", key);
	}
	code = json_object_get(args, "code");
	if (!code)
		return fail(err, errlen, "code: missing; give the Python program as a string");
	if (!json_is_string(code))
		return fail(err, errlen, "code: give the Python program as a string");
	if (json_string_length(code) > REQUEST_MAX_CODE)
		return fail(err, errlen, "code: over %u MiB", REQUEST_MAX_CODE >> 20);
	if (take_limits(json_object_get(args, "limits"), pol, rq, err, errlen) < 0)
		goto bad;
	in = json_object_get(args, "stdin");
	if (in && !json_is_null(in)) {
		if (!json_is_string(in)) {
			fail(err, errlen, "stdin: give the program's input as a string");
			goto bad;
		}
		if (json_string_length(in) > REQUEST_MAX_STDIN) {
			fail(err, errlen, "stdin: over %u MiB", REQUEST_MAX_STDIN >> 20);
			goto bad;
		}
		if (!(rq->stdin_data = dup_string(in, &rq->stdin_len)))
			goto nomem;
	}
	carry = json_object_get(args, "carry");
	if (carry && !json_is_null(carry)) {
		if (!json_is_object(carry)) {
			fail(err, errlen, "carry: give an object (the carry_out of an earlier run)");
			goto bad;
		}
		if (!(rq->carry = json_dumps(carry, JSON_COMPACT)))
			goto nomem;
		rq->carry_len = strlen(rq->carry);
		if (sp_carry_validate(rq->carry, rq->carry_len, rq->limits.carry_bytes, &e) < 0) {
			fail(err, errlen, "carry: %s", e.msg);
			goto bad;
		}
	}
	if (take_files(json_object_get(args, "files"), pol, rq, err, errlen) < 0)
		goto bad;
	if (!(rq->code = dup_string(code, &rq->code_len)))
		goto nomem;
	rq->bytes += rq->code_len + rq->stdin_len + rq->carry_len;
	{
		struct sp_config cfg;
		request_config(rq, pol, &cfg);
		if (sp_files_in_check(&cfg, &e) < 0) {
			fail(err, errlen, "files: %s", e.msg);
			goto bad;
		}
	}
	return 0;
nomem:
	fail(err, errlen, "out of memory");
bad:
	request_free(rq);
	return -1;
}

void request_config(const struct request *rq, const struct request_policy *pol,
		    struct sp_config *cfg)
{
	sp_config_init(cfg);
	cfg->python = pol->python;
	cfg->code = rq->code;
	cfg->code_len = rq->code_len;
	cfg->stdin_data = rq->stdin_data;
	cfg->stdin_len = rq->stdin_len;
	cfg->carry_in = rq->carry;
	cfg->carry_in_len = rq->carry_len;
	cfg->limits = rq->limits;
	cfg->files_bytes = rq->files;
	cfg->n_files_bytes = rq->n_files;
	cfg->keep_output = true;
}

void request_free(struct request *rq)
{
	for (size_t i = 0; i < SP_MAX_FILES_IN; i++) {
		free(rq->data[i]);
		free(rq->names[i]);
		rq->data[i] = rq->names[i] = NULL;
	}
	free(rq->code);
	free(rq->stdin_data);
	free(rq->carry);
	rq->code = rq->stdin_data = rq->carry = NULL;
	rq->n_files = 0;
	rq->bytes = 0;
}
