/* SPDX-License-Identifier: MIT */
/*
 * leaks.h - what a sandbox can leave on the host, counted, for the tests
 * that check nothing is left: descriptors of this process, cgroups the
 * engine named after it, and temp entries the sandbox's user owns.
 *
 * A leak check takes the counts once the caches that stay are warm (the
 * first run fills libseccomp's), does its runs, and compares. Only the difference means anything: other tests on the
 * machine make cgroups and temp entries of their own meanwhile, so each
 * count looks only for what this process's runs can make.
 *
 * The engine names a run's cgroup sandpit-PID-TOKEN (cgroup v1) or
 * run-PID-TOKEN (v2), PID being the process that started it (as it sees
 * itself) and TOKEN random; a killed tree's cgroup
 * empties a moment after the kill, so a caller waits a little for that
 * count to come back down before it calls it a leak.
 *
 * Plain libc, no cmocka: testlib.h includes it for the cmocka programs,
 * and the soak (tests/soak/soak.c), a program of its own, includes it
 * directly. Each count is -1 when it could not be read.
 */
#ifndef SP_LEAKS_H
#define SP_LEAKS_H

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "sandpit.h"

/* Descriptors this process has open (the count's own one not counted). */
static inline long leak_count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	long n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;
}

/* Each descriptor and what it points at, to stderr: the log of a failed
 * descriptor count says which one stayed. */
static inline void leak_print_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char fp[300], to[300];
		ssize_t n;

		snprintf(fp, sizeof fp, "/proc/self/fd/%s", de->d_name);
		n = readlink(fp, to, sizeof to - 1);
		if (n > 0)
			fprintf(stderr, "fd %s -> %.*s\n", de->d_name, (int)n, to);
	}
	if (d)
		closedir(d);
}

/* nftw() takes no argument for its callback: the walk's patterns and
 * count live here, one walk at a time. */
struct leak_cg_walk {
	char pat[2][64];
	long found;
};

static inline struct leak_cg_walk *leak_cg_walk(void)
{
	static struct leak_cg_walk w;

	return &w;
}

static inline int leak_cg_visit(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	struct leak_cg_walk *w = leak_cg_walk();
	const char *base = p + ftw->base;

	(void)st;
	if (flag == FTW_D && (strncmp(base, w->pat[0], strlen(w->pat[0])) == 0 ||
			      strncmp(base, w->pat[1], strlen(w->pat[1])) == 0))
		w->found++;
	return ftw->level >= 7 ? FTW_SKIP_SUBTREE : FTW_CONTINUE;
}

/* cgroups the engine named after this process, in every hierarchy. */
static inline long leak_count_cgroups(void)
{
	struct leak_cg_walk *w = leak_cg_walk();

	snprintf(w->pat[0], sizeof w->pat[0], "sandpit-%d-", (int)getpid());
	snprintf(w->pat[1], sizeof w->pat[1], "run-%d-", (int)getpid());
	w->found = 0;
	nftw("/sys/fs/cgroup", leak_cg_visit, 32, FTW_PHYS | FTW_ACTIONRETVAL);
	return w->found;
}

/* Whether uid is one a sandbox user can be on the host: this user, or
 * started as root one of the runs' own (SP_ROOT_HOST_ID_FIRST and on). */
static inline bool leak_is_sandbox_uid(uid_t uid)
{
	uid_t me = geteuid();

	if (me != 0)
		return uid == me;
	return uid >= SP_ROOT_HOST_ID_FIRST && uid - SP_ROOT_HOST_ID_FIRST < SP_ROOT_HOST_ID_COUNT;
}

/* Entries of dir a sandbox's host user owns (leak_is_sandbox_uid), and,
 * when named is not NULL, those whose name starts with it. Owner alone
 * is the count to use beside other tests: they make sandpit-* entries of
 * their own meanwhile. */
static inline long leak_count_tmp(const char *dir, const char *named)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	long n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (leak_is_sandbox_uid(st.st_uid) ||
		    (named && strncmp(de->d_name, named, strlen(named)) == 0))
			n++;
	}
	closedir(d);
	return n;
}

#endif
