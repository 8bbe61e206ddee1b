/* SPDX-License-Identifier: MIT */
/*
 * lesson_progress.c - the learner's progress file (lesson_progress.h),
 * read and written with jansson.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "text/fileio.h"
#include "lesson/lesson_progress.h"
#include "buf.h"
#include "banned.h"

#define MAX_PASSED 4096
#define MAX_PROGRESS_BYTES (4u << 20) /* 4096 ids of at most 1 KiB */

void lesson_progress_free(struct lesson_progress *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->passed[i]);
	free(p->passed);
	p->passed = NULL;
	p->n = p->cap = 0;
	p->current[0] = '\0';
}

bool lesson_progress_passed(const struct lesson_progress *p, const char *id)
{
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->passed[i], id))
			return true;
	return false;
}

/* Remember id as passed (once). 0, or -1 when memory ran out. */
static int add_passed(struct lesson_progress *p, const char *id)
{
	char **v;

	if (lesson_progress_passed(p, id) || p->n >= MAX_PASSED)
		return 0;
	v = sp_grow(p->passed, &p->cap, p->n + 1, sizeof *v);
	if (!v)
		return -1;
	p->passed = v;
	if (!(v[p->n] = strdup(id)))
		return -1;
	p->n++;
	return 0;
}

int lesson_progress_load(struct lesson_progress *p, char *err, size_t errlen)
{
	json_error_t je;
	json_t *root, *passed, *cur;
	char bad[sizeof p->path + 8];
	struct fio_error fe;
	char *text;
	size_t len;

	memset(p, 0, sizeof *p);
	if (config_state_path(LESSON_PROGRESS_FILE, p->path, sizeof p->path, false) < 0) {
		p->path[0] = '\0';
		snprintf(err, errlen, "no state directory (set HOME or "
			 "XDG_STATE_HOME): progress is not kept");
		return -1;
	}
	/* fileio.c: a FIFO or a device there is refused, never waited on */
	text = fio_read(p->path, MAX_PROGRESS_BYTES, 0, &len, &fe);
	if (!text && fe.kind == FIO_OPEN && fe.err == ENOENT)
		return 0;
	root = text ? json_loadb(text, len, JSON_REJECT_DUPLICATES, &je) : NULL;
	free(text);
	if (!root)
		goto bad;
	passed = json_object_get(root, "passed");
	cur = json_object_get(root, "current");
	if (!json_is_object(root) || (passed && !json_is_array(passed)) ||
	    (cur && !json_is_string(cur)))
		goto bad_root;
	for (size_t i = 0; passed && i < json_array_size(passed); i++) {
		json_t *s = json_array_get(passed, i);
		if (!json_is_string(s))
			goto bad_root;
		if (add_passed(p, json_string_value(s)) < 0) {
			json_decref(root);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	if (cur)
		snprintf(p->current, sizeof p->current, "%s", json_string_value(cur));
	json_decref(root);
	return 0;
bad_root:
	json_decref(root);
	lesson_progress_free(p);
bad:
	snprintf(bad, sizeof bad, "%s.bad", p->path);
	if (rename(p->path, bad) == 0)
		snprintf(err, errlen, "%s was not lesson progress; it is kept as "
			 "%s and progress starts afresh", p->path, bad);
	else
		snprintf(err, errlen, "%s cannot be read (%s); progress is not "
			 "kept", p->path, strerror(errno));
	if (access(p->path, F_OK) == 0)
		p->path[0] = '\0'; /* never write over what we could not read */
	return -1;
}

/* Replace path with text, atomically and durably (fileio.c). */
static int write_atomic(const char *path, const char *text, char *err, size_t errlen)
{
	char why[1200];

	if (fio_replace(path, text, strlen(text), 0600, why, sizeof why) < 0) {
		snprintf(err, errlen, "%s: progress not saved: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Write the whole progress to its file. 0, or -1 with err. */
static int save(struct lesson_progress *p, char *err, size_t errlen)
{
	json_t *root = json_object(), *arr = json_array();
	char *text;
	int rc;

	if (!p->path[0]) {
		snprintf(err, errlen, "progress is not kept (no usable state file)");
		json_decref(root);
		json_decref(arr);
		return -1;
	}
	/* the directory may not exist yet */
	config_state_path(LESSON_PROGRESS_FILE, p->path, sizeof p->path, true);
	if (!root || !arr)
		goto oom;
	for (size_t i = 0; i < p->n; i++)
		json_array_append_new(arr, json_string(p->passed[i]));
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "current", json_string(p->current));
	json_object_set(root, "passed", arr);
	text = json_dumps(root, JSON_INDENT(2));
	json_decref(root);
	json_decref(arr);
	if (!text) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = write_atomic(p->path, text, err, errlen);
	free(text);
	return rc;
oom:
	json_decref(root);
	json_decref(arr);
	snprintf(err, errlen, "out of memory");
	return -1;
}

int lesson_progress_pass(struct lesson_progress *p, const char *id,
			 char *err, size_t errlen)
{
	if (add_passed(p, id) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return save(p, err, errlen);
}

int lesson_progress_set_current(struct lesson_progress *p, const char *id,
				char *err, size_t errlen)
{
	if (!strcmp(p->current, id))
		return 0;
	snprintf(p->current, sizeof p->current, "%s", id);
	return save(p, err, errlen);
}

int lesson_progress_reset(char *path, size_t pathlen, char *err, size_t errlen)
{
	if (config_state_path(LESSON_PROGRESS_FILE, path, pathlen, false) < 0) {
		snprintf(err, errlen, "no state directory (set HOME or XDG_STATE_HOME)");
		return -1;
	}
	if (unlink(path) < 0 && errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
