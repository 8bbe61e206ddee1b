/* SPDX-License-Identifier: MIT */
/*
 * runfiles.c - the runs/ directory: a fresh dir for each run's kept
 * files, the last run's list, and pruning to the configured bounds.
 *
 * Everything under runs/ was made by sandpit (keep.c writes only regular
 * files and directories), but it lives in the user's home, so removal
 * still goes by directory fds with AT_SYMLINK_NOFOLLOW and O_NOFOLLOW:
 * a link someone put there is unlinked, never followed.
 */
#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "config/runfiles.h"
#include "banned.h"

#define MAX_RUN_DIRS 4096

static int runs_root(char *buf, size_t len)
{
	if (config_state_path("runs", buf, len, true) < 0)
		return -1;
	if (mkdir(buf, 0700) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

int runfiles_new_dir(int run_no, char *dir, size_t len)
{
	char root[CONFIG_PATH_MAX], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int n;

	if (runs_root(root, sizeof root) < 0)
		return -1;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	n = snprintf(dir, len, "%s/%s-%d-%d", root, stamp, (int)getpid(), run_no);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

void runfiles_free(struct run_files *rf)
{
	for (size_t i = 0; i < rf->n; i++) {
		free(rf->files[i].name);
		free(rf->files[i].host_path);
	}
	free(rf->files);
	rf->files = NULL;
	rf->n = 0;
	rf->dir[0] = '\0';
}

void runfiles_take(struct run_files *rf, const struct sp_result *r, int run_no,
		   const char *dir)
{
	size_t kept = 0;

	runfiles_free(rf);
	rf->run_no = run_no;
	if (!r)
		return;
	for (size_t i = 0; i < r->n_files; i++)
		kept += r->files[i].kept != NULL;
	if (!kept || !(rf->files = calloc(kept, sizeof *rf->files)))
		return;
	snprintf(rf->dir, sizeof rf->dir, "%s", dir ? dir : "");
	for (size_t i = 0; i < r->n_files; i++) {
		struct run_file *f = &rf->files[rf->n];
		if (!r->files[i].kept)
			continue;
		f->name = strdup(r->files[i].path);
		f->host_path = strdup(r->files[i].kept);
		f->bytes = r->files[i].bytes;
		if (!f->name || !f->host_path) {
			free(f->name);
			free(f->host_path);
			continue;
		}
		rf->n++;
	}
}

/* rm -r of name under parent, by fds, never following a link; the bytes
 * of the regular files removed are added to *bytes when counting only
 * (remove false). Depth is bounded like the keep that made it. */
static void tree(int parent, const char *name, int depth, bool remove, uint64_t *bytes)
{
	struct stat st;
	int fd;
	DIR *d;
	struct dirent *de;

	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		if (bytes)
			*bytes += (uint64_t)st.st_blocks * 512u;
		if (remove)
			unlinkat(parent, name, 0);
		return;
	}
	if (depth > 32)
		return;
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			tree(dirfd(d), de->d_name, depth + 1, remove, bytes);
	closedir(d);
	if (remove)
		unlinkat(parent, name, AT_REMOVEDIR);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void runfiles_prune(unsigned max_runs, uint64_t max_bytes, const char *keep)
{
	char root[CONFIG_PATH_MAX];
	const char *keep_base = keep ? strrchr(keep, '/') : NULL;
	char *names[MAX_RUN_DIRS];
	uint64_t sizes[MAX_RUN_DIRS], total = 0;
	size_t n = 0, live;
	int rootfd;
	DIR *d;
	struct dirent *de;

	if (runs_root(root, sizeof root) < 0)
		return;
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (rootfd < 0)
		return;
	d = fdopendir(dup(rootfd));
	if (!d) {
		close(rootfd);
		return;
	}
	while ((de = readdir(d)) && n < MAX_RUN_DIRS)
		if (de->d_name[0] != '.' && (names[n] = strdup(de->d_name)))
			n++;
	closedir(d);
	/* names start with the time they were made: sorted, oldest first */
	qsort(names, n, sizeof names[0], cmp_name);
	for (size_t i = 0; i < n; i++) {
		sizes[i] = 0;
		tree(rootfd, names[i], 0, false, &sizes[i]);
		total += sizes[i];
	}
	live = n;
	for (size_t i = 0; i < n && (live > max_runs || total > max_bytes); i++) {
		if (keep_base && strcmp(names[i], keep_base + 1) == 0)
			continue;
		tree(rootfd, names[i], 0, true, NULL);
		total -= sizes[i];
		live--;
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	close(rootfd);
}

void runfiles_drop_if_empty(const char *dir)
{
	if (dir && dir[0])
		rmdir(dir); /* ENOTEMPTY when it kept something: fine */
}
