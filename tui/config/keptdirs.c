/* SPDX-License-Identifier: MIT */
/*
 * keptdirs.c - opening and pruning the directories of kept runs
 * (keptdirs.h). The walk below a run dir goes by directory fds with
 * AT_SYMLINK_NOFOLLOW and O_NOFOLLOW: a link found there is removed
 * itself, never followed; its depth is bounded like the keep that made it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/keptdirs.h"
#include "banned.h"

#define MAX_RUN_DIRS 4096
#define MAX_DEPTH 32

int keptdirs_open(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;
		struct stat lst;
		if ((e == ELOOP || e == ENOTDIR) && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
			snprintf(err, errlen, "'%s' is a symbolic link, not a directory of "
				 "sandpit's: remove the link (sandpit then makes the directory); "
				 "nothing is kept or removed there until then", path);
		else
			snprintf(err, errlen, "'%s' cannot be opened as a directory: %s", path,
				 strerror(e));
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "'%s' cannot be read: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (st.st_uid != geteuid()) {
		snprintf(err, errlen, "'%s' belongs to uid %ld, not to this user (uid %ld): "
			 "sandpit keeps and removes runs only in a directory of its user's; "
			 "remove or rename it, or set XDG_STATE_HOME to a directory of yours",
			 path, (long)st.st_uid, (long)geteuid());
		close(fd);
		return -1;
	}
	return fd;
}

static size_t digits(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

bool keptdirs_name_ours(const char *name)
{
	const char *p = name;
	size_t n;

	if (digits(p) != 8 || p[8] != '-')
		return false;
	p += 9;
	if (digits(p) != 6 || p[6] != '-')
		return false;
	p += 7;
	if ((n = digits(p)) == 0 || n > 10 || p[n] != '-')
		return false;
	p += n + 1;
	return (n = digits(p)) > 0 && n <= 10 && p[n] == '\0';
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t keptdirs_list(int fd, char ***names)
{
	char **v = NULL;
	size_t n = 0, cap = 0;
	int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
	struct dirent *de;

	*names = NULL;
	if (!d) {
		if (dup_fd >= 0)
			close(dup_fd);
		return 0;
	}
	rewinddir(d);
	while ((de = readdir(d)) && n < MAX_RUN_DIRS) {
		if (!keptdirs_name_ours(de->d_name))
			continue;
		if (n == cap) {
			char **g = realloc(v, (cap = cap ? cap * 2 : 64) * sizeof *v);
			if (!g)
				break;
			v = g;
		}
		if ((v[n] = strdup(de->d_name)))
			n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof *v, cmp_name);
	*names = v;
	return n;
}

void keptdirs_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* rm -r (remove) or du (bytes) of name under parent. */
static void walk(int parent, const char *name, int depth, bool remove, uint64_t *bytes)
{
	struct stat st;
	int fd;
	DIR *d;
	struct dirent *de;

	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		if (bytes)
			*bytes += (uint64_t)st.st_blocks * 512u; /* the files' */
		if (remove)
			unlinkat(parent, name, 0);
		return;
	}
	if (depth > MAX_DEPTH)
		return;
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			walk(dirfd(d), de->d_name, depth + 1, remove, bytes);
	closedir(d);
	if (remove)
		unlinkat(parent, name, AT_REMOVEDIR);
}

uint64_t keptdirs_bytes(int fd, const char *name)
{
	uint64_t n = 0;

	walk(fd, name, 0, false, &n);
	return n;
}

void keptdirs_remove(int fd, const char *name)
{
	walk(fd, name, 0, true, NULL);
}
