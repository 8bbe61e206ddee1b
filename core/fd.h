/* SPDX-License-Identifier: MIT */
/*
 * fd.h - who closes a file descriptor.
 *
 * The rule in core/: every descriptor has exactly one owner at a time, a
 * variable or a struct field, and -1 there means "owns nothing". The owner
 * closes it once, through sp_fd_close (which leaves -1 behind, so a second
 * close is a no-op, and keeps errno, so a failure path can close on its
 * way out). Handing a descriptor on is sp_fd_take: the new owner gets it,
 * the old one holds -1, and nobody is left holding a copy to close twice.
 *
 * A sequence that holds several descriptors until it hands each on
 * closes what it still holds with one sp_fds_close call (an owned set).
 * A function with more than two exits may mark a local SP_FD_AUTO instead,
 * so every exit closes it; with one or two, closing by hand reads better.
 */
#ifndef SP_FD_H
#define SP_FD_H

#include <stddef.h>

/* Close *fd if it is one (errno kept), and leave -1 there. */
void sp_fd_close(int *fd);

/* Take ownership: returns *fd and leaves -1 behind. */
static inline int sp_fd_take(int *fd)
{
	int taken = *fd;

	*fd = -1;
	return taken;
}

/* Close every descriptor of an owned set, each left -1. */
void sp_fds_close(int *const *fds, size_t n);
#define SP_FDS_CLOSE(...) \
	sp_fds_close((int *const[]){ __VA_ARGS__ }, \
		     sizeof((int *const[]){ __VA_ARGS__ }) / sizeof(int *))

/* A local closed on every exit of its function. */
#define SP_FD_AUTO __attribute__((cleanup(sp_fd_close)))

#endif
