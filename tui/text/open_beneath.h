/* SPDX-License-Identifier: MIT */
/*
 * open_beneath.h - a host path someone else named, opened under a
 * directory held open, never through a link.
 *
 * A check by name then an open by name reads whatever the name means at
 * the open: a directory swapped for a symlink in between hands over a
 * file outside. So the directory is a descriptor opened once, and the
 * rest of the path is resolved from it by the kernel: openat2 with
 * RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS, or, where
 * the kernel lacks openat2 (before 5.6, or a filter refusing it), a walk
 * one component at a time, each opened O_NOFOLLOW relative to the last.
 *
 * Invariants: the descriptor returned names a file reached from dirfd
 * by the path's components alone: no symlink on the way (the last one
 * included), no "..", nothing outside. What it is (a regular file, a
 * FIFO) is the caller's to check with fstat on it.
 */
#ifndef OPEN_BENEATH_H
#define OPEN_BENEATH_H

/*
 * Open rel (relative: components split by '/', "." and empty ones
 * skipped, ".." refused) under dirfd with flags (O_RDONLY | O_NONBLOCK
 * and the like; O_NOFOLLOW and O_CLOEXEC are added). The fd, or -1 with
 * errno: ELOOP a symlink on the way, EXDEV a ".." or an escape, EINVAL
 * an absolute or empty rel, and open's own (ENOENT, ENOTDIR, EACCES).
 */
int open_beneath(int dirfd, const char *rel, int flags);

/* The same by the walk alone, never openat2 (the fallback, and its test). */
int open_beneath_walk(int dirfd, const char *rel, int flags);

/*
 * Where path lies under dir, by their names alone (nothing resolved):
 * both absolute, "." and empty components skipped. The rest of path
 * after dir, or NULL when path is not under dir. Any ".." component in
 * path gives NULL: lexically it could point anywhere.
 */
const char *path_below(const char *path, const char *dir);

#endif
