/* SPDX-License-Identifier: MIT */
/*
 * open_beneath.c - a path opened under a directory's descriptor, never
 * through a link (open_beneath.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "text/open_beneath.h"
#include "banned.h"

/* The next component of *p (skipping '/', "." and empty ones): its start
 * and length, *p moved past it; 0 at the end. */
static size_t next_component(const char **p, const char **start)
{
	for (;;) {
		const char *s = *p, *e;
		while (*s == '/')
			s++;
		e = s;
		while (*e && *e != '/')
			e++;
		*p = e;
		if (e == s)
			return 0;
		if (e - s == 1 && s[0] == '.')
			continue;
		*start = s;
		return (size_t)(e - s);
	}
}

const char *path_below(const char *path, const char *dir)
{
	const char *p = path, *d = dir, *ps, *ds;
	size_t pn, dn;

	if (path[0] != '/' || dir[0] != '/')
		return NULL;
	while ((dn = next_component(&d, &ds)) > 0) {
		pn = next_component(&p, &ps);
		if (pn != dn || memcmp(ps, ds, dn))
			return NULL;
	}
	while (*p == '/')
		p++;
	return p;
}

/* rel's components are plain names: no "..", something to open. */
static int check_rel(const char *rel)
{
	const char *p = rel, *s;
	size_t n, count = 0;

	if (!rel || rel[0] == '/') {
		errno = EINVAL;
		return -1;
	}
	while ((n = next_component(&p, &s)) > 0) {
		if (n == 2 && s[0] == '.' && s[1] == '.') {
			errno = EXDEV;
			return -1;
		}
		count++;
	}
	if (!count) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* After a failed O_NOFOLLOW open of name under dirfd: ELOOP when name is
 * a symlink (only the message depends on it: the open already failed). */
static int why_not(int dirfd, const char *name, int err)
{
	struct stat st;

	if ((err == ENOTDIR || err == ELOOP) &&
	    fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		err = ELOOP;
	errno = err;
	return -1;
}

int open_beneath_walk(int dirfd, const char *rel, int flags)
{
	char name[NAME_MAX + 1];
	const char *p = rel, *s;
	size_t n;
	int cur = dirfd, fd;

	if (check_rel(rel) < 0)
		return -1;
	n = next_component(&p, &s);
	for (;;) {
		const char *rest = p, *s2;
		size_t n2 = next_component(&rest, &s2);
		bool last = n2 == 0;

		if (n > NAME_MAX) {
			fd = -1;
			errno = ENAMETOOLONG;
		} else {
			memcpy(name, s, n);
			name[n] = '\0';
			fd = openat(cur, name, last ? flags | O_NOFOLLOW | O_CLOEXEC
				    : O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				why_not(cur, name, errno);
		}
		if (cur != dirfd) {
			int e = errno;
			close(cur);
			errno = e;
		}
		if (fd < 0 || last)
			return fd;
		cur = fd;
		p = rest;
		s = s2;
		n = n2;
	}
}

int open_beneath(int dirfd, const char *rel, int flags)
{
#ifdef SYS_openat2
	struct open_how how = {
		.flags = (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd;

	if (check_rel(rel) < 0)
		return -1;
	/* EAGAIN: a rename raced the lookup, which the kernel will not vouch
	 * for; asking again is what it advises (bounded here) */
	for (int tries = 0; tries < 8; tries++) {
		fd = (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof how);
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
		return fd;
	/* ENOSYS: before 5.6; EPERM: a container's filter refusing it */
#endif
	return open_beneath_walk(dirfd, rel, flags);
}
