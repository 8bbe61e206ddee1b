/* SPDX-License-Identifier: MIT */
/*
 * learn_grade.c - a class folder judged against one lesson (learn_grade.h).
 *
 * Every text that goes out (a file's name, a verdict that may quote the
 * program's output) is made visible first: a learner's file name or
 * output is someone else's input on the teacher's terminal.
 */
#include "cmd/learn_grade.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config/config.h"
#include "lesson/lesson.h"
#include "text/fileio.h"
#include "text/sanitize.h"
#include "buf.h"
#include "banned.h"

/* What one file came to. */
enum grade { G_PASSED, G_NOT_YET, G_ERROR };

/* The paths to judge: each FILE, or a directory's *.py files by name. */
struct paths {
	char **v;
	size_t n, cap;
};

static int add_path(struct paths *p, const char *path)
{
	char *s = strdup(path);
	char **v;

	if (!s || !(v = sp_grow(p->v, &p->cap, p->n + 1, sizeof *p->v))) {
		free(s);
		return -1;
	}
	p->v = v;
	p->v[p->n++] = s;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A class folder: its *.py files (regular files; no subdirectories), in
 * name order so the table reads the same each time. */
static int add_dir(struct paths *p, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t first = p->n;
	int rc = 0;

	if (!d)
		return add_path(p, dir); /* judged, and its error said, as a file */
	while (rc == 0 && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char *full;
		if (n < 4 || strcmp(e->d_name + n - 3, ".py") || e->d_name[0] == '.')
			continue;
		if (asprintf(&full, "%s/%s", dir, e->d_name) < 0)
			rc = -1;
		else {
			rc = add_path(p, full);
			free(full);
		}
	}
	closedir(d);
	qsort(p->v + first, p->n - first, sizeof *p->v, by_name);
	return rc;
}

static void free_paths(struct paths *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p->v);
}

/* The program in path, or NULL with why filled. */
static char *read_program(const char *path, char *why, size_t len)
{
	struct fio_error fe;
	size_t n = 0;
	char *text = fio_read(path, LESSON_MAX_BYTES, 0, &n, &fe);

	if (!text) {
		snprintf(why, len, "cannot read the program: %s",
			 fe.kind == FIO_NOT_REGULAR ? "not a regular file" :
			 fe.kind == FIO_TOO_BIG ? "larger than 1 MiB" : strerror(fe.err));
		return NULL;
	}
	if (memchr(text, '\0', n)) {
		snprintf(why, len, "not a program (it holds a NUL byte)");
		free(text);
		return NULL;
	}
	return text;
}

/* A JSON string of s made visible (never NULL for jansson). */
static json_t *jstr(const char *s)
{
	char *safe = sanitize_dup(s ? s : "", true);
	json_t *j = json_string(safe ? safe : "");

	free(safe);
	return j ? j : json_string("");
}

static json_t *checks_json(const struct lesson_checks *rec)
{
	json_t *a = json_array();

	for (size_t i = 0; rec && i < rec->n; i++) {
		const struct lesson_check *k = &rec->v[i];
		json_t *o = json_object();
		json_object_set_new(o, "line", json_integer(k->line));
		json_object_set_new(o, "again", json_boolean(k->again));
		json_object_set_new(o, "check", k->again ? json_null() : jstr(k->check));
		json_object_set_new(o, "passed", json_boolean(k->held));
		json_object_set_new(o, "words", k->held ? json_null() : jstr(k->why));
		json_array_append_new(a, o);
	}
	return a;
}

/* One file's line (text) or object (json). */
static void report(const struct lesson *l, long no, const char *file, enum grade g,
		   const char *verdict, unsigned runs, const struct lesson_checks *rec,
		   bool json, bool alone)
{
	if (json) {
		json_t *o = json_object();
		json_object_set_new(o, "lesson", jstr(l->id));
		json_object_set_new(o, "number", json_integer(no));
		json_object_set_new(o, "file", jstr(file));
		json_object_set_new(o, "passed", json_boolean(g == G_PASSED));
		json_object_set_new(o, "error", g == G_ERROR ? jstr(verdict) : json_null());
		json_object_set_new(o, "verdict", g == G_ERROR ? json_null() : jstr(verdict));
		json_object_set_new(o, "runs", json_integer(runs));
		json_object_set_new(o, "limits_lowered", l->capped[0] ? jstr(l->capped) : json_null());
		json_object_set_new(o, "checks", checks_json(g == G_ERROR ? NULL : rec));
		char *s = json_dumps(o, JSON_COMPACT);
		if (s)
			printf("%s\n", s);
		free(s);
		json_decref(o);
		return;
	}
	char *v = sanitize_dup(verdict, true), *f = sanitize_dup(file, true);
	if (alone && g != G_ERROR)
		printf("lesson %ld (%s): %s\n", no, l->id, v ? v : "");
	else if (alone)
		fprintf(stderr, "sandpit: %s: %s\n", f ? f : "", v ? v : "");
	else
		printf("%s: %s%s\n", f ? f : "", g == G_ERROR ? "error: " : "", v ? v : "");
	free(v);
	free(f);
}

/* One file judged: its grade, reported. */
static enum grade grade_one(const struct lesson *l, long no, const struct pg_config *cfg,
			    const char *file, struct lesson_checks *rec, bool json,
			    bool alone)
{
	struct sp_error err = { { 0 } };
	char verdict[700] = "";
	unsigned runs = 0;
	bool passed = false;
	enum grade g;
	char *text = read_program(file, verdict, sizeof verdict);

	if (!text) {
		g = G_ERROR;
	} else if (lesson_try_checks(l, text, &cfg->limits, cfg->python[0] ? cfg->python : NULL,
				     &passed, &runs, verdict, sizeof verdict, rec, &err) < 0) {
		snprintf(verdict, sizeof verdict, "a run did not start: %s", err.msg);
		g = G_ERROR;
	} else {
		g = passed ? G_PASSED : G_NOT_YET;
	}
	free(text);
	report(l, no, file, g, verdict, runs, rec, json, alone);
	return g;
}

int learn_grade(const struct lesson *l, long no, const struct pg_config *cfg,
		char *const *files, size_t n, bool json)
{
	struct paths p = { 0 };
	struct lesson_checks *rec = calloc(1, sizeof *rec);
	size_t count[3] = { 0 };
	int rc = 0;

	for (size_t i = 0; rec && i < n && rc == 0; i++) {
		struct stat st;
		rc = stat(files[i], &st) == 0 && S_ISDIR(st.st_mode) ? add_dir(&p, files[i])
								      : add_path(&p, files[i]);
	}
	if (!rec || rc < 0) {
		fprintf(stderr, "sandpit: out of memory\n");
		free(rec);
		free_paths(&p);
		return 2;
	}
	bool alone = p.n == 1 && n == 1 && !json;
	for (size_t i = 0; i < p.n; i++)
		count[grade_one(l, no, cfg, p.v[i], rec, json, alone)]++;
	/* a lesson that asked for more than the lesson maxima ran under them:
	 * said, so a teacher knows the limits in force are not the file's */
	if (l->capped[0] && !json)
		printf("  limits:   %s (the most a lesson may set)\n", l->capped);
	if (!alone) {
		FILE *to = json ? stderr : stdout;
		fprintf(to, "%zu passed, %zu not yet", count[G_PASSED], count[G_NOT_YET]);
		if (count[G_ERROR])
			fprintf(to, ", %zu not judged", count[G_ERROR]);
		fprintf(to, " (lesson %ld, %s)\n", no, l->id);
	}
	if (!p.n)
		fprintf(stderr, "sandpit: no program to judge (a class folder holds *.py files)\n");
	rc = !p.n || count[G_ERROR] ? 2 : count[G_NOT_YET] ? 1 : 0;
	free(rec);
	free_paths(&p);
	return rc;
}
