/*
 * workdir.c - what the program left in its work dir, read after the
 * sandbox is gone through an fd the supervisor kept.
 *
 * Nothing here follows a link the program made: every directory is
 * opened with O_NOFOLLOW relative to its parent, every entry is looked at
 * with AT_SYMLINK_NOFOLLOW, and everything but directories is listed with
 * its own size (a symlink as a link, a FIFO or socket as what it is).
 * Depth (16) and count (the caller's max) are bounded, so a program cannot
 * make the listing long; what lies deeper is not listed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "internal.h"
#include "banned.h"

#define MAX_DEPTH 16

static int walk(int dirfd, const char *prefix, int depth, struct sp_file **files,
		size_t *n, size_t *cap, size_t max)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;
	struct dirent *de;

	if (fd < 0)
		return -1;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	while ((de = readdir(d)) && *n < max) {
		struct stat st;
		char rel[4096];

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		snprintf(rel, sizeof rel, "%s%s%s", prefix, *prefix ? "/" : "",
			 de->d_name);
		if (S_ISDIR(st.st_mode)) {
			int sub;
			if (depth >= MAX_DEPTH)
				continue;
			sub = openat(dirfd, de->d_name,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0)
				continue;
			walk(sub, rel, depth + 1, files, n, cap, max);
			close(sub);
			continue;
		}
		if (*n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 16;
			struct sp_file *bigger = realloc(*files, ncap * sizeof **files);
			if (!bigger)
				break;
			*files = bigger;
			*cap = ncap;
		}
		(*files)[*n].path = strdup(rel);
		(*files)[*n].bytes = (uint64_t)st.st_size;
		if ((*files)[*n].path)
			(*n)++;
	}
	closedir(d);
	return 0;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct sp_file *)a)->path,
		      ((const struct sp_file *)b)->path);
}

int sp_workdir_list(int dirfd, struct sp_file **files, size_t *n, size_t max)
{
	size_t cap = 0;
	int top;

	*files = NULL;
	*n = 0;
	top = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (top < 0)
		return -1;
	walk(top, "", 0, files, n, &cap, max);
	close(top);
	if (*n > 1)
		qsort(*files, *n, sizeof **files, cmp_path);
	return 0;
}

uint64_t sp_workdir_bytes(int dirfd)
{
	struct statfs sf;

	if (fstatfs(dirfd, &sf) < 0)
		return 0;
	return (uint64_t)(sf.f_blocks - sf.f_bfree) * (uint64_t)sf.f_bsize;
}

uint64_t sp_workdir_files_left(int dirfd)
{
	struct statfs sf;

	if (fstatfs(dirfd, &sf) < 0 || sf.f_files == 0)
		return UINT64_MAX; /* no inode limit to say */
	return (uint64_t)sf.f_ffree;
}
