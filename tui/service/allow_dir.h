/* SPDX-License-Identifier: MIT */
/*
 * allow_dir.h - the host directories a service lets requests read from
 * (`sandpit mcp --allow-dir DIR`), and a requested host path opened in
 * one of them.
 *
 * Each directory is opened once, at start, and held: a request's path is
 * matched to a directory by name (the path as the operator wrote it, or
 * as it resolved at start), and the rest of it is opened from that
 * descriptor by open_beneath(): no symlink followed, no "..", so what is
 * opened is what lies in that directory at the moment of the open, and a
 * directory swapped for a link between a check and a read cannot hand
 * over a file outside (there is no check by name to race).
 *
 * Invariant: a descriptor allow_dir_open_file() returns is of a regular
 * file under one of the directories, opened O_RDONLY | O_NONBLOCK (not
 * blocking on a FIFO: a FIFO, device or socket is refused after fstat on
 * the open descriptor).
 */
#ifndef ALLOW_DIR_H
#define ALLOW_DIR_H

#include <stddef.h>

struct allow_dir {
	char *given;  /* as the operator wrote it, when absolute; else NULL */
	char *real;   /* realpath at start */
	int fd;       /* the directory, held open (O_PATH) */
};

/* Open arg as an allowed directory into d. 0, or -1 with err saying why
 * ("'x': not a directory"). */
int allow_dir_open(struct allow_dir *d, const char *arg, char *err, size_t errlen);
void allow_dir_close(struct allow_dir *d);

/*
 * Open path (absolute) for reading if it lies under one of the n dirs:
 * the fd of a regular file (the caller reads and closes it), or -1 with
 * why saying what is wrong in words a request's author can act on
 * ("is reached through a symbolic link ...").
 */
int allow_dir_open_file(const struct allow_dir *dirs, size_t n, const char *path,
			char *why, size_t whylen);

#endif
