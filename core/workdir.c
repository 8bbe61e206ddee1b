/* SPDX-License-Identifier: MIT */
/*
 * workdir.c - what the program left in its work dir, read after the
 * sandbox is gone through an fd the supervisor kept.
 *
 * Nothing here follows a link the program made: every directory is
 * opened with O_NOFOLLOW relative to its parent, every entry is looked at
 * with AT_SYMLINK_NOFOLLOW, and everything but directories is listed with
 * its own size (a symlink as a link, a FIFO or socket as what it is).
 * Depth (16), directories (4,096) and count (the caller's max) are
 * bounded, so a program cannot make the listing long; what lies deeper is
 * not listed. What sandpit put there itself (the files in, carry.json, the
 * program's own file) is left out while unchanged. With a keep dir, each listed regular file is
 * copied out as it is met (keep.c), under the same directory fds.
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

#include "base.h"
#include "workfiles.h"
#include "buf.h"
#include "banned.h"

#define MAX_DEPTH 16
/* 17 names of at most 255 bytes and their slashes: a path the walk can
 * reach always fits, so no listed name is ever cut short */
#define REL_MAX ((MAX_DEPTH + 1) * 256)
/* directories walked, in all: a tree of empty directories costs as much
 * to walk (and to make again on the host) as one of files */
#define MAX_DIRS 4096

struct walk {
	struct sp_file *files;
	size_t n, cap, max, dirs;
	const struct sp_placed *placed;
	size_t n_placed;
	struct sp_keep *keep;
};

/* Left by sandpit and unchanged since: not the program's output. */
static bool is_placed(const struct walk *w, const char *name, const struct stat *st)
{
	for (size_t i = 0; i < w->n_placed; i++) {
		const struct sp_placed *p = &w->placed[i];
		if (strcmp(p->name, name) == 0 && S_ISREG(st->st_mode) &&
		    p->ino == st->st_ino && p->size == st->st_size &&
		    p->mtime.tv_sec == st->st_mtim.tv_sec &&
		    p->mtime.tv_nsec == st->st_mtim.tv_nsec &&
		    p->ctime.tv_sec == st->st_ctim.tv_sec &&
		    p->ctime.tv_nsec == st->st_ctim.tv_nsec)
			return true;
	}
	return false;
}

static int walk(struct walk *w, int dirfd, const char *prefix, int depth, int host_dir)
{
	DIR *d = sp_opendir_at(dirfd, ".");
	struct dirent *de;

	if (!d)
		return -1;
	while ((de = readdir(d)) && w->n < w->max) {
		struct stat st;
		char rel[REL_MAX + 16];

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (depth == 0 && is_placed(w, de->d_name, &st))
			continue;
		if (snprintf(rel, sizeof rel, "%s%s%s", prefix, *prefix ? "/" : "",
			     de->d_name) >= (int)sizeof rel)
			continue; /* cannot happen (REL_MAX); never list a cut name */
		if (S_ISDIR(st.st_mode)) {
			int sub, host_sub;
			if (depth >= MAX_DEPTH || w->dirs >= MAX_DIRS)
				continue;
			w->dirs++;
			sub = openat(dirfd, de->d_name,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0)
				continue;
			host_sub = w->keep ? sp_keep_subdir(host_dir, de->d_name) : -1;
			walk(w, sub, rel, depth + 1, host_sub);
			if (host_sub >= 0) {
				close(host_sub);
				/* nothing kept inside: no empty directory on the host */
				unlinkat(host_dir, de->d_name, AT_REMOVEDIR);
			}
			close(sub);
			continue;
		}
		if (w->n == w->cap) {
			struct sp_file *bigger = sp_grow(w->files, &w->cap, w->n + 1, sizeof *w->files);
			if (!bigger)
				break;
			w->files = bigger;
		}
		memset(&w->files[w->n], 0, sizeof w->files[w->n]);
		w->files[w->n].path = strdup(rel);
		w->files[w->n].bytes = (uint64_t)st.st_size;
		if (!w->files[w->n].path)
			continue;
		sp_keep_entry(w->keep, dirfd, de->d_name, &st, host_dir, rel, &w->files[w->n]);
		w->n++;
	}
	closedir(d);
	return 0;
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(((const struct sp_file *)a)->path,
		      ((const struct sp_file *)b)->path);
}

int sp_workdir_list(int dirfd, struct sp_file **files, size_t *n, size_t max,
		    const struct sp_placed *placed, size_t n_placed,
		    struct sp_keep *keep)
{
	struct walk w = { .max = max, .placed = placed, .n_placed = n_placed,
			  .keep = keep && keep->root_fd >= 0 ? keep : NULL };
	int top;

	*files = NULL;
	*n = 0;
	top = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (top < 0)
		return -1;
	walk(&w, top, "", 0, w.keep ? w.keep->root_fd : -1);
	close(top);
	if (w.n > 1)
		qsort(w.files, w.n, sizeof *w.files, cmp_path);
	*files = w.files;
	*n = w.n;
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
