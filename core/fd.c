/* SPDX-License-Identifier: MIT */
/*
 * fd.c - closing descriptors by their one owner (see fd.h for the rule).
 */
#include <errno.h>
#include <unistd.h>

#include "fd.h"
#include "banned.h"

void sp_fd_close(int *fd)
{
	int saved = errno;

	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	errno = saved;
}

void sp_fds_close(int *const *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sp_fd_close(fds[i]);
}
