/* SPDX-License-Identifier: MIT */
/*
 * pipemem.c - the memory the kernel holds in the sandbox's pipes.
 *
 * Bytes written to a pipe that nobody reads sit in kernel pages: no
 * process maps them, so neither RLIMIT_DATA nor the RSS samples see them,
 * and without a memory cgroup 13 processes once held 104 MiB that way
 * under a 64 MiB limit. The supervisor walks the fds of every process in
 * the sandbox's /proc, takes each pipe once (by inode), opens it there
 * (O_RDONLY | O_NONBLOCK: a reader for a moment, which changes nothing
 * for the program) and asks how many bytes it holds (FIONREAD) and how
 * big it may grow (F_GETPIPE_SZ).
 *
 * A pipe holds at most one page per buffer slot, and a program that
 * writes one byte per packet (O_DIRECT) fills a page with each: a pipe of
 * n bytes is counted as min(its capacity, n pages), an upper bound. The
 * filter keeps every capacity at 64 KiB or less (seccomp_rules.c).
 * Pipes that no process holds, in flight in a unix socket, are not seen;
 * RLIMIT_NOFILE bounds how many a user may have in flight.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"
#include "observe.h"
#include "buf.h"
#include "banned.h"

#define MAX_PIPES 32768 /* 64 processes of 256 fds each, and room */

struct pipe_ref {
	uint64_t ino;
	char path[40];  /* "PID/fd/N" under the sandbox's /proc */
};

static int by_ino(const void *a, const void *b)
{
	const struct pipe_ref *x = a, *y = b;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

struct pipe_list {
	struct pipe_ref *v;
	size_t n, cap;
};

/* Adds the pipes among pid's fds to the list (grown as needed). */
static void list_pipes(int procfd, const char *pid, struct pipe_list *l)
{
	char path[48];
	DIR *d;
	struct dirent *de;

	snprintf(path, sizeof path, "%s/fd", pid);
	d = sp_opendir_at(procfd, path);
	if (!d)
		return;
	while ((de = readdir(d)) && l->n < MAX_PIPES) {
		char link[64];
		ssize_t len;
		unsigned long long ino;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		len = readlinkat(dirfd(d), de->d_name, link, sizeof link - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (sscanf(link, "pipe:[%llu]", &ino) != 1)
			continue;
		if (l->n == l->cap) {
			struct pipe_ref *bigger = sp_grow(l->v, &l->cap, l->n + 1, sizeof *bigger);
			if (!bigger)
				break;
			l->v = bigger;
		}
		l->v[l->n].ino = ino;
		snprintf(l->v[l->n].path, sizeof l->v[l->n].path, "%s/fd/%s", pid, de->d_name);
		l->n++;
	}
	closedir(d);
}

/* What one pipe may hold now, by the bound above; 0 when it cannot say. */
static uint64_t pipe_held(int procfd, const char *path)
{
	int fd = openat(procfd, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int avail = 0, cap;
	uint64_t held;

	if (fd < 0)
		return 0;
	if (ioctl(fd, FIONREAD, &avail) < 0 || avail <= 0) {
		close(fd);
		return 0;
	}
	cap = fcntl(fd, F_GETPIPE_SZ);
	close(fd);
	held = (uint64_t)avail * 4096u;
	if (cap > 0 && held > (uint64_t)cap)
		held = (uint64_t)cap;
	return held;
}

int sp_pipemem_bytes(int procfd, const uint64_t *skip, size_t nskip, uint64_t *bytes)
{
	struct pipe_list l = { NULL, 0, 0 };
	uint64_t sum = 0;
	DIR *d = sp_opendir_at(procfd, ".");
	struct dirent *de;

	if (!d)
		return -1;
	while ((de = readdir(d)) && l.n < MAX_PIPES)
		if (isdigit((unsigned char)de->d_name[0]))
			list_pipes(procfd, de->d_name, &l);
	closedir(d);
	if (l.n > 1)
		qsort(l.v, l.n, sizeof *l.v, by_ino);
	for (size_t i = 0; i < l.n; i++) {
		bool skipped = false;
		if (i > 0 && l.v[i].ino == l.v[i - 1].ino)
			continue;
		/* the program's stdout, stderr and channel: the supervisor
		 * drains those itself */
		for (size_t k = 0; k < nskip; k++)
			if (skip[k] == l.v[i].ino)
				skipped = true;
		if (!skipped)
			sum += pipe_held(procfd, l.v[i].path);
	}
	free(l.v);
	*bytes = sum;
	return 0;
}
