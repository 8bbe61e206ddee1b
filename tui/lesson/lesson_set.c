/* SPDX-License-Identifier: MIT */
/*
 * lesson_set.c - which lessons there are: the shipped ones (lessons/
 * NN_name.lesson, embedded in the binary by tools/embed.sh as the demos
 * are, so they work after `make install`), then a teacher's own from
 * `--lessons DIR`. A broken file is reported with FILE:LINE and skipped;
 * the others still load. Also writes a lesson's [file] sections to a
 * private temporary directory for the run to attach.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lesson/lesson.h"
#include "text/fileio.h"
#include "text/sanitize.h"
#include "buf.h"
#include "banned.h"

struct embedded_file {
	const char *name;
	const char *text;
	size_t len;
};
extern const struct embedded_file lessons_embedded[];

/* Add one error line, made visible (it names a file and may quote the
 * file's text); false when memory ran out. */
static bool add_error(struct lesson_set *s, const char *msg)
{
	char **e = sp_grow(s->errors, &s->errors_cap, s->n_errors + 1, sizeof *e);
	if (!e)
		return false;
	s->errors = e;
	if (!(e[s->n_errors] = sanitize_dup(msg, true)))
		return false;
	s->n_errors++;
	return true;
}

/* Parse text as one more lesson; a parse error becomes an error entry.
 * -1 only when memory ran out. */
static int add_lesson(struct lesson_set *s, const char *text, size_t len,
		      const char *source, const char *id)
{
	char err[600];
	struct lesson l;
	struct lesson *v;

	if (lesson_parse(text, len, source, id, &l, err, sizeof err) < 0)
		return add_error(s, err) ? 0 : -1;
	if (lesson_set_find(s, l.id) >= 0) {
		snprintf(err, sizeof err, "%s:1: a lesson named %s is already "
			 "loaded (rename the file)", source, l.id);
		lesson_free(&l);
		return add_error(s, err) ? 0 : -1;
	}
	v = sp_grow(s->v, &s->cap, s->n + 1, sizeof *v);
	if (!v) {
		lesson_free(&l);
		return -1;
	}
	s->v = v;
	s->v[s->n++] = l;
	return 0;
}

/* The id of a file: its name without ".lesson". */
static void strip_ext(const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);
	if (n > 7 && !strcmp(name + n - 7, ".lesson"))
		n -= 7;
	snprintf(buf, len, "%.*s", (int)n, name);
}

/* Read a regular file of at most LESSON_MAX_BYTES (fileio.c). NULL with err. */
static char *read_small(const char *path, size_t *len, char *err, size_t errlen)
{
	struct fio_error e;
	char *buf = fio_read(path, LESSON_MAX_BYTES, 0, len, &e);

	if (buf)
		return buf;
	if (e.kind == FIO_OPEN)
		snprintf(err, errlen, "%s:1: cannot open: %s", path, strerror(e.err));
	else if (e.kind == FIO_NOT_REGULAR)
		snprintf(err, errlen, "%s:1: not a regular file", path);
	else if (e.kind == FIO_TOO_BIG)
		snprintf(err, errlen, "%s:1: the file is larger than %u KiB", path,
			 LESSON_MAX_BYTES >> 10);
	else
		snprintf(err, errlen, "%s:1: %s", path, strerror(e.err));
	return NULL;
}

/* scandir: file-name order is lesson order. */
static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* scandir: NAME.lesson, not hidden. */
static int lesson_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	return d->d_name[0] != '.' && n > 7 && !strcmp(d->d_name + n - 7, ".lesson");
}

/* Every DIR/ *.lesson, ids "DIRNAME/NAME". */
static int load_dir(struct lesson_set *s, const char *dir)
{
	struct dirent **names;
	char err[600], path[4096], id[512], base[256];
	const char *slash;
	size_t dl = strlen(dir);
	int n, rc = 0;

	while (dl > 1 && dir[dl - 1] == '/')
		dl--;
	n = scandir(dir, &names, lesson_file, by_name);
	if (n < 0) {
		snprintf(err, sizeof err, "%s: cannot read the lesson directory: %s",
			 dir, strerror(errno));
		add_error(s, err);
		return -1;
	}
	if (n == 0) {
		snprintf(err, sizeof err, "%s: no *.lesson files in this directory", dir);
		if (!add_error(s, err))
			rc = -1;
	}
	slash = memrchr(dir, '/', dl > 1 ? dl - 1 : dl);
	snprintf(base, sizeof base, "%.*s", slash ? (int)(dir + dl - slash - 1) : (int)dl,
		 slash ? slash + 1 : dir);
	for (int i = 0; i < n; i++) {
		char *text;
		size_t len = 0;
		char stem[256];

		snprintf(path, sizeof path, "%.*s/%s", (int)dl, dir, names[i]->d_name);
		strip_ext(names[i]->d_name, stem, sizeof stem);
		snprintf(id, sizeof id, "%s/%s", base, stem);
		text = read_small(path, &len, err, sizeof err);
		if (!text) {
			if (!add_error(s, err))
				rc = -1;
		} else if (add_lesson(s, text, len, path, id) < 0) {
			rc = -1;
		}
		free(text);
		free(names[i]);
	}
	free(names);
	return rc;
}

int lesson_set_load(struct lesson_set *s, const char *dir)
{
	char id[256], source[300];

	memset(s, 0, sizeof *s);
	for (size_t i = 0; lessons_embedded[i].name; i++) {
		strip_ext(lessons_embedded[i].name, id, sizeof id);
		snprintf(source, sizeof source, "lessons/%s", lessons_embedded[i].name);
		if (add_lesson(s, lessons_embedded[i].text, lessons_embedded[i].len,
			       source, id) < 0)
			return -1;
	}
	if (dir && load_dir(s, dir) < 0)
		return -1;
	return 0;
}

void lesson_set_free(struct lesson_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		lesson_free(&s->v[i]);
	free(s->v);
	for (size_t i = 0; i < s->n_errors; i++)
		free(s->errors[i]);
	free(s->errors);
	memset(s, 0, sizeof *s);
}

long lesson_set_find(const struct lesson_set *s, const char *id)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].id, id))
			return (long)i;
	return -1;
}

/* Create path (never an existing file or a link) with text. 0, or -1
 * with errno. */
static int write_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -1;
	while (len) {
		ssize_t w = write(fd, text, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		text += w;
		len -= (size_t)w;
	}
	return close(fd);
}

/* Stage l's [file]s, each in place by a [data] when swap says so (swap
 * NULL: none). */
static int stage(const struct lesson *l, const struct lesson_again *swap,
		 struct lesson_stage *st, char *err, size_t errlen)
{
	const char *tmp = getenv("TMPDIR");

	memset(st, 0, sizeof *st);
	if (!l->n_files)
		return 0;
	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	snprintf(st->dir, sizeof st->dir, "%s/sandpit-lesson.XXXXXX", tmp);
	if (!mkdtemp(st->dir)) {
		snprintf(err, errlen, "cannot make a directory for the lesson's "
			 "files in %s: %s", tmp, strerror(errno));
		st->dir[0] = '\0';
		return -1;
	}
	for (size_t i = 0; i < l->n_files; i++) {
		const struct lesson_file *f = &l->files[i];
		for (size_t k = 0; swap && k < swap->n_swap; k++)
			if (!strcmp(swap->swap[k].name, f->name))
				f = &l->data[swap->swap[k].data];
		snprintf(st->paths[i], sizeof st->paths[i], "%s/%s", st->dir,
			 l->files[i].name);
		st->n = i + 1;
		if (write_file(st->paths[i], f->text, f->len) < 0) {
			snprintf(err, errlen, "cannot write the lesson's file %s: %s",
				 st->paths[i], strerror(errno));
			lesson_stage_remove(st);
			return -1;
		}
		st->in[i].host_path = st->paths[i];
		st->in[i].name = l->files[i].name;
	}
	return 0;
}

int lesson_stage_files(const struct lesson *l, struct lesson_stage *st,
		       char *err, size_t errlen)
{
	return stage(l, NULL, st, err, errlen);
}

int lesson_stage_again(const struct lesson *l, size_t k, struct lesson_stage *st,
		       char *err, size_t errlen)
{
	return stage(l, &l->again[k], st, err, errlen);
}

void lesson_stage_remove(struct lesson_stage *st)
{
	if (!st->dir[0])
		return;
	for (size_t i = 0; i < st->n; i++)
		unlink(st->paths[i]);
	rmdir(st->dir);
	st->dir[0] = '\0';
	st->n = 0;
}
