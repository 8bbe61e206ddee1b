/* SPDX-License-Identifier: MIT */
/*
 * fileio.h - the playground's one whole-file reader and one atomic
 * writer, used by every file it reads or replaces: programs, the config,
 * carry files, lessons, lesson progress, recovery, saved output.
 *
 * Reading: a path is opened O_NONBLOCK (a FIFO with no writer must not
 * hang us) and O_NOCTTY, then checked with fstat: only a regular file is
 * read, never a FIFO, device, socket or directory (/dev/zero would never
 * end), and at most max bytes of it, however much it grows meanwhile.
 *
 * Replacing: the new bytes go into a temp file beside the target, are
 * fsynced, renamed over it, and then the directory is fsynced, since the
 * rename is only an entry in it: until then a crash can bring back the
 * old file, or none. A failed write leaves the old file and no temp.
 */
#ifndef FILEIO_H
#define FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Why a read failed, for a caller that words its own message. */
enum fio_fail { FIO_OK, FIO_OPEN, FIO_NOT_REGULAR, FIO_TOO_BIG, FIO_READ, FIO_NOMEM };

struct fio_error {
	enum fio_fail kind;
	int err;          /* errno of the failed call */
	mode_t mode;      /* the file's type, for FIO_NOT_REGULAR */
	unsigned long long size; /* a regular file's size when opened (set
				  * on success too) */
	char msg[1200];   /* "PATH: is a FIFO (named pipe), not a regular file" */
};

#define FIO_NOFOLLOW 1u   /* refuse a symlink as the last component */
#define FIO_ANY_TYPE 2u   /* fio_read_fd: read a pipe too (our own stdin) */
#define FIO_PREFIX   4u   /* a longer file is no error: its first max bytes */

/*
 * The whole of the regular file path, at most max bytes, as a malloc'd
 * buffer with a '\0' after the len bytes (the caller frees it). NULL with
 * e filled and errno set: ENOENT and the like from open, EINVAL for a
 * file that is not regular, EFBIG over max. flags: FIO_NOFOLLOW.
 */
char *fio_read(const char *path, size_t max, unsigned flags, size_t *len,
	       struct fio_error *e);

/* The same from an open fd (not closed; name is for the messages).
 * Without FIO_ANY_TYPE only a regular file is read. */
char *fio_read_fd(int fd, const char *name, size_t max, unsigned flags,
		  size_t *len, struct fio_error *e);

/* Open path for reading as fio_read() does (O_NONBLOCK, then only a
 * regular file, then blocking again), for a reader that streams it: the
 * fd, or -1 with e filled and errno set. flags: FIO_NOFOLLOW. */
int fio_open_regular(const char *path, unsigned flags, struct fio_error *e);

/* "a directory", "a FIFO (named pipe)", "a character device", ... */
const char *fio_type_name(mode_t mode);

/*
 * Replace path with the n bytes of data, file mode mode, as the header
 * says. 0, or -1 with errno set and err "PATH: why" (the old file kept).
 */
int fio_replace(const char *path, const void *data, size_t n, mode_t mode,
		char *err, size_t errlen);

/* The steps of fio_replace for a writer that sets the temp file up
 * itself (the editor keeps a file's owner): */
struct fio_tmp {
	int fd;
	char path[4200];
};
/* Create the temp file beside path (mode 0600). 0, or -1 with errno. */
int fio_tmp_open(struct fio_tmp *t, const char *path);
/* Write, fsync and close the temp file, rename it over path, fsync the
 * directory. 0, or -1 with errno (the temp file removed). */
int fio_tmp_commit(struct fio_tmp *t, const void *data, size_t n, const char *path);
/* Close and remove a temp file that will not be committed. */
void fio_tmp_abort(struct fio_tmp *t);

/* The process's umask, read without changing it (threads may be running). */
mode_t fio_umask(void);

/* fsync the directory that holds path ("." when it has no slash). 0, or
 * -1 with errno. */
int fio_sync_dir_of(const char *path);

#endif
