/* SPDX-License-Identifier: MIT */
/*
 * runfiles.c - the runs/ directory: a fresh dir for each run's kept
 * files, the last run's list, and pruning to the configured bounds.
 *
 * Everything under runs/ was made by sandpit (keep.c writes only regular
 * files and directories), but it lives in the user's home: runs/ itself
 * is used only when it is a directory of the user's, never through a
 * link, and removal goes by keptdirs.h's rules.
 */
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
#include "config/keptdirs.h"
#include "config/runfiles.h"
#include "banned.h"

static int runs_root(char *buf, size_t len)
{
	if (config_state_path("runs", buf, len, true) < 0)
		return -1;
	if (mkdir(buf, 0700) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

int runfiles_new_dir(int run_no, char *dir, size_t len, char *err, size_t errlen)
{
	char root[CONFIG_PATH_MAX], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int n, fd;

	err[0] = '\0';
	if (runs_root(root, sizeof root) < 0)
		return -1;
	/* not a link, and the user's: the engine writes the run's files there */
	if ((fd = keptdirs_open(root, err, errlen)) < 0)
		return -1;
	close(fd);
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

void runfiles_prune(unsigned max_runs, uint64_t max_bytes, const char *keep)
{
	char root[CONFIG_PATH_MAX], err[CONFIG_PATH_MAX + 200];
	const char *keep_base = keep ? strrchr(keep, '/') : NULL;
	char **names;
	uint64_t *sizes, total = 0;
	size_t n, live;
	int rootfd;

	if (runs_root(root, sizeof root) < 0 || (rootfd = keptdirs_open(root, err, sizeof err)) < 0)
		return;
	/* names start with the time they were made: sorted, oldest first */
	n = keptdirs_list(rootfd, &names);
	if (n && !(sizes = calloc(n, sizeof *sizes))) {
		keptdirs_names_free(names, n);
		close(rootfd);
		return;
	}
	for (size_t i = 0; i < n; i++)
		total += sizes[i] = keptdirs_bytes(rootfd, names[i]);
	live = n;
	for (size_t i = 0; i < n && (live > max_runs || total > max_bytes); i++) {
		if (keep_base && strcmp(names[i], keep_base + 1) == 0)
			continue;
		keptdirs_remove(rootfd, names[i]);
		total -= sizes[i];
		live--;
	}
	if (n)
		free(sizes);
	keptdirs_names_free(names, n);
	close(rootfd);
}

void runfiles_drop_if_empty(const char *dir)
{
	if (dir && dir[0])
		rmdir(dir); /* ENOTEMPTY when it kept something: fine */
}
