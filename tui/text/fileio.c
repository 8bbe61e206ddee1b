/* SPDX-License-Identifier: MIT */
/*
 * fileio.c - the one reader and the one atomic writer (fileio.h).
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

#include "buf.h"
#include "text/fileio.h"
#include "banned.h"

const char *fio_type_name(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO (named pipe)"
	     : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
	     : S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link"
	     : "not a regular file";
}

/* Fill e, set errno, return NULL: the one failure exit of the reader. */
static char *fail(struct fio_error *e, enum fio_fail kind, int err, const char *name,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static char *fail(struct fio_error *e, enum fio_fail kind, int err, const char *name,
		  const char *fmt, ...)
{
	char what[300];
	va_list ap;

	e->kind = kind;
	e->err = err;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(e->msg, sizeof e->msg, "%s: %s", name, what);
	errno = err;
	return NULL;
}

char *fio_read_fd(int fd, const char *name, size_t max, unsigned flags,
		  size_t *len, struct fio_error *e)
{
	struct sp_buf b = SP_BUF_INIT;
	struct stat st;
	char size[32];

	memset(e, 0, sizeof *e);
	if (fstat(fd, &st) < 0)
		return fail(e, FIO_READ, errno, name, "cannot read: %s", strerror(errno));
	e->mode = st.st_mode;
	e->size = S_ISREG(st.st_mode) ? (unsigned long long)st.st_size : 0;
	if (S_ISDIR(st.st_mode) || (!(flags & FIO_ANY_TYPE) && !S_ISREG(st.st_mode)))
		return fail(e, FIO_NOT_REGULAR, EINVAL, name, "is %s, not a regular file",
			    fio_type_name(st.st_mode));
	snprintf(size, sizeof size, "%zu bytes", max);
	if (!(flags & FIO_PREFIX) && S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max)
		return fail(e, FIO_TOO_BIG, EFBIG, name, "is over %s", size);
	if (S_ISREG(st.st_mode)) {
		int fl = fcntl(fd, F_GETFL);
		if (fl >= 0 && (fl & O_NONBLOCK))
			fcntl(fd, F_SETFL, fl & ~O_NONBLOCK); /* a file: blocking is fine */
	}
	for (;;) {
		size_t room;
		ssize_t n;

		if (b.len > max) {
			sp_buf_free(&b);
			return fail(e, FIO_TOO_BIG, EFBIG, name, "is over %s", size);
		}
		if (b.len == max && (flags & FIO_PREFIX))
			break;
		/* read one byte past max, to tell "exactly max" from "more";
		 * with FIO_PREFIX never past max */
		room = max - b.len + !(flags & FIO_PREFIX);
		room = room < 65536 ? room : 65536;
		/* a file: what its size says is left and a byte more, to see
		 * its end (a short program costs no 64 KiB buffer); past
		 * that, it grew */
		if (S_ISREG(st.st_mode) && e->size >= b.len && e->size - b.len < room)
			room = (size_t)(e->size - b.len) + 1;
		if (sp_buf_reserve(&b, room) < 0) {
			sp_buf_free(&b);
			return fail(e, FIO_NOMEM, ENOMEM, name, "%s", "out of memory");
		}
		n = read(fd, b.data + b.len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			sp_buf_free(&b);
			return fail(e, FIO_READ, err, name, "cannot read: %s", strerror(err));
		}
		if (n == 0)
			break;
		b.len += (size_t)n;
		b.data[b.len] = '\0';
	}
	return sp_buf_detach(&b, len);
}

char *fio_read(const char *path, size_t max, unsigned flags, size_t *len,
	       struct fio_error *e)
{
	int fd = fio_open_regular(path, flags, e);
	char *text;
	int saved;

	if (fd < 0)
		return NULL;
	text = fio_read_fd(fd, path, max, flags & ~FIO_ANY_TYPE, len, e);
	saved = errno;
	close(fd);
	errno = saved;
	return text;
}

mode_t fio_umask(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	unsigned m = 022;

	if (f) {
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "Umask: %o", &m) == 1)
				break;
		fclose(f);
	}
	return (mode_t)m;
}

int fio_open_regular(const char *path, unsigned flags, struct fio_error *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY |
			    (flags & FIO_NOFOLLOW ? O_NOFOLLOW : 0));
	struct stat st;

	memset(e, 0, sizeof *e);
	if (fd < 0) {
		fail(e, FIO_OPEN, errno, path, "cannot open: %s", strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		int err = errno;
		close(fd);
		fail(e, FIO_READ, err, path, "cannot read: %s", strerror(err));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		e->mode = st.st_mode;
		fail(e, FIO_NOT_REGULAR, EINVAL, path, "is %s, not a regular file",
		     fio_type_name(st.st_mode));
		return -1;
	}
	e->mode = st.st_mode;
	e->size = (unsigned long long)st.st_size;
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

int fio_sync_dir_of(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd, rc, saved;

	if (!slash)
		snprintf(dir, sizeof dir, ".");
	else if (slash == path)
		snprintf(dir, sizeof dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = fsync(fd);
	saved = errno;
	close(fd);
	errno = saved;
	return rc;
}

int fio_tmp_open(struct fio_tmp *t, const char *path)
{
	const char *slash = strrchr(path, '/');
	int n;

	/* hidden, beside the target: the same file system, so rename works */
	if (slash)
		n = snprintf(t->path, sizeof t->path, "%.*s/.%s.sandpit-XXXXXX",
			     (int)(slash - path), path, slash + 1);
	else
		n = snprintf(t->path, sizeof t->path, ".%s.sandpit-XXXXXX", path);
	if (n < 0 || (size_t)n >= sizeof t->path) {
		t->fd = -1;
		errno = ENAMETOOLONG;
		return -1;
	}
	t->fd = mkostemp(t->path, O_CLOEXEC);
	return t->fd < 0 ? -1 : 0;
}

void fio_tmp_abort(struct fio_tmp *t)
{
	int saved = errno;

	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	unlink(t->path);
	errno = saved;
}

int fio_tmp_commit(struct fio_tmp *t, const void *data, size_t n, const char *path)
{
	const char *p = data;

	while (n > 0) {
		ssize_t w = write(t->fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			fio_tmp_abort(t);
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	if (fsync(t->fd) < 0) {
		fio_tmp_abort(t);
		return -1;
	}
	if (close(t->fd) < 0) {
		t->fd = -1;
		fio_tmp_abort(t);
		return -1;
	}
	t->fd = -1;
	if (rename(t->path, path) < 0) {
		fio_tmp_abort(t);
		return -1;
	}
	return fio_sync_dir_of(path);
}

int fio_replace(const char *path, const void *data, size_t n, mode_t mode,
		char *err, size_t errlen)
{
	struct fio_tmp t;

	if (fio_tmp_open(&t, path) < 0 || fchmod(t.fd, mode) < 0 ||
	    fio_tmp_commit(&t, data, n, path) < 0) {
		int saved = errno;
		if (t.fd >= 0)
			fio_tmp_abort(&t);
		snprintf(err, errlen, "%s: %s", path, strerror(saved));
		errno = saved;
		return -1;
	}
	return 0;
}
