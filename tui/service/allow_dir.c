/* SPDX-License-Identifier: MIT */
/*
 * allow_dir.c - the allowed host directories, held open, and a request's
 * host path opened under one of them (allow_dir.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text/fileio.h"
#include "text/open_beneath.h"
#include "service/allow_dir.h"
#include "banned.h"

int allow_dir_open(struct allow_dir *d, const char *arg, char *err, size_t errlen)
{
	char real[PATH_MAX];
	struct stat held, named;

	memset(d, 0, sizeof *d);
	d->fd = open(arg, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0 || !realpath(arg, real) || stat(real, &named) < 0 ||
	    fstat(d->fd, &held) < 0) {
		snprintf(err, errlen, "'%s': not a directory (%s)", arg, strerror(errno));
		goto fail;
	}
	/* the name must say which directory is held: requests are matched
	 * to it by name */
	if (held.st_dev != named.st_dev || held.st_ino != named.st_ino) {
		snprintf(err, errlen, "'%s': changed while it was opened; try again", arg);
		goto fail;
	}
	d->real = strdup(real);
	/* the operator's own spelling too, when a request can use it: a
	 * request's path is matched by name, then opened from fd all the same */
	if (arg[0] == '/')
		d->given = strdup(arg);
	if (!d->real || (arg[0] == '/' && !d->given))
		goto nomem;
	return 0;
nomem:
	snprintf(err, errlen, "out of memory");
fail:
	allow_dir_close(d);
	return -1;
}

void allow_dir_close(struct allow_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	free(d->given);
	free(d->real);
	d->given = d->real = NULL;
	d->fd = -1;
}

/* Why open_beneath() failed with err, in a request author's words. */
static const char *open_failure(int err)
{
	switch (err) {
	case ELOOP: return "is reached through a symbolic link: host files are read only "
			   "by their real path under an --allow-dir, never through a link";
	case EXDEV: return "goes up with '..': give the file's path under the --allow-dir "
			   "without '..'";
	case EINVAL: return "is an allowed directory itself: name a file in it";
	case ENOENT: case ENOTDIR: return "does not exist";
	case ENAMETOOLONG: return "has a name too long";
	case EACCES: return "cannot be read (permission denied)";
	default: return "cannot be opened";
	}
}

int allow_dir_open_file(const struct allow_dir *dirs, size_t n, const char *path,
			char *why, size_t whylen)
{
	const struct allow_dir *d = NULL;
	const char *rel = NULL;
	struct stat st;
	int fd;

	if (path[0] != '/') {
		snprintf(why, whylen, "is not an absolute path");
		return -1;
	}
	for (size_t i = 0; i < n && !rel; i++) {
		d = &dirs[i];
		rel = path_below(path, d->real);
		if (!rel && d->given)
			rel = path_below(path, d->given);
	}
	if (!rel) {
		snprintf(why, whylen, "is outside the directories this server allows "
			 "(--allow-dir)");
		return -1;
	}
	fd = open_beneath(d->fd, rel, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		snprintf(why, whylen, "%s", open_failure(errno));
		return -1;
	}
	/* what was opened is what is judged: the descriptor, not the name */
	if (fstat(fd, &st) < 0)
		st.st_mode = 0;
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "is %s, not a regular file: only regular files are read",
			 fio_type_name(st.st_mode));
		close(fd);
		return -1;
	}
	return fd;
}
