/* SPDX-License-Identifier: MIT */
/*
 * mcp_history.c - the MCP runs' directory (mcp_history.h).
 *
 * Run dirs are named so that their names sort by time; pruning removes
 * whole dirs, by fds and never through a link (nftw with FTW_PHYS): the
 * dir is sandpit's own, but it lives in the user's home.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "text/fileio.h"
#include "service/mcp_history.h"
#include "banned.h"

#define MAX_DIRS 4096

static char root[1024];
static bool temp_root;

int mcp_history_open(char *err, size_t errlen)
{
	if (config_state_path("mcp-runs", root, sizeof root, true) == 0 &&
	    (mkdir(root, 0700) == 0 || errno == EEXIST))
		return 0;
	snprintf(root, sizeof root, "/tmp/sandpit-mcp-XXXXXX");
	if (!mkdtemp(root)) {
		snprintf(err, errlen, "no state dir and no temp dir for the runs' files: %s",
			 strerror(errno));
		root[0] = '\0';
		return -1;
	}
	temp_root = true;
	return 0;
}

const char *mcp_history_root(void)
{
	return root;
}

int mcp_history_new(unsigned n, char *dir, size_t len)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	int w;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	w = snprintf(dir, len, "%s/%s-%d-%05u", root, stamp, (int)getpid(), n);
	if (w < 0 || (size_t)w >= len || mkdir(dir, 0700) < 0)
		return -1;
	return 0;
}

static void save(const char *dir, const char *name, const char *data, size_t n)
{
	char path[1200], err[300];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	fio_replace(path, data, n, 0600, err, sizeof err);
}

void mcp_history_save(const char *dir, const char *code, size_t code_len, const char *json)
{
	save(dir, "code.py", code ? code : "", code ? code_len : 0);
	if (json)
		save(dir, "result.json", json, strlen(json));
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

static void rm_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void mcp_history_prune(void)
{
	char *names[MAX_DIRS];
	size_t n = 0;
	DIR *d = root[0] ? opendir(root) : NULL;
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) && n < MAX_DIRS)
		if (de->d_name[0] != '.' && (names[n] = strdup(de->d_name)))
			n++;
	closedir(d);
	qsort(names, n, sizeof *names, cmp_name);
	for (size_t i = 0; i < n; i++) {
		if (n - i > MCP_HISTORY_RUNS) {
			char path[1400];
			snprintf(path, sizeof path, "%s/%s", root, names[i]);
			rm_tree(path);
		}
		free(names[i]);
	}
}

void mcp_history_close(void)
{
	if (temp_root)
		rm_tree(root);
	temp_root = false;
}
