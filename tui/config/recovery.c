/* SPDX-License-Identifier: MIT */
/*
 * recovery.c - the recovery file's companion (.info), the check against
 * the saved file, and moving it aside or deleting it.
 *
 * The .info file is one or two lines of text: "path PATH" and/or
 * "name NAME". It is written with the text (not in the crash handler,
 * which only rewrites the text: the info from the last pause still says
 * whose it is).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/recovery.h"
#include "text/fileio.h"
#include "banned.h"

#define INFO_EXT ".info"

static int info_path(const char *rec, char *out, size_t len)
{
	return (size_t)snprintf(out, len, "%s" INFO_EXT, rec) < len ? 0 : -1;
}

int recovery_note(const char *rec, const char *path, const char *name)
{
	char ip[4200], text[8500], err[1200];
	int n = 0;

	if (info_path(rec, ip, sizeof ip) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if (path && path[0] && !strchr(path, '\n'))
		n += snprintf(text + n, sizeof text - (size_t)n, "path %s\n", path);
	if (name && name[0] && !strchr(name, '\n'))
		n += snprintf(text + n, sizeof text - (size_t)n, "name %s\n", name);
	if ((size_t)n >= sizeof text) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* atomically and durably, as the text it describes */
	return fio_replace(ip, text, (size_t)n, 0600, err, sizeof err);
}

bool recovery_read(const char *rec, struct recovery_info *ri)
{
	char ip[4200], line[4200], *text;
	struct fio_error e;
	struct stat st;
	size_t len;

	memset(ri, 0, sizeof *ri);
	if (stat(rec, &st) != 0 || st.st_size == 0)
		return false;
	ri->when = st.st_mtime;
	/* fileio.c: a FIFO in its place is refused, not waited on */
	if (info_path(rec, ip, sizeof ip) < 0 ||
	    !(text = fio_read(ip, 2 * sizeof line, 0, &len, &e)))
		return true;
	for (char *s = text, *nl; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		snprintf(line, sizeof line, "%.*s", nl ? (int)(nl - s) : (int)strlen(s), s);
		if (!strncmp(line, "path ", 5))
			snprintf(ri->path, sizeof ri->path, "%s", line + 5);
		else if (!strncmp(line, "name ", 5))
			snprintf(ri->name, sizeof ri->name, "%s", line + 5);
		if (!nl)
			break;
	}
	free(text);
	if (!ri->name[0] && ri->path[0]) {
		const char *s = strrchr(ri->path, '/');
		snprintf(ri->name, sizeof ri->name, "%s", s && s[1] ? s + 1 : ri->path);
	}
	return true;
}

bool recovery_matches_saved(const char *rec, const struct recovery_info *ri)
{
	FILE *a, *b;
	bool same = true;
	char x[8192], y[8192];
	struct fio_error e;
	int fd;

	/* the saved file is any path the user saved to: a FIFO there is
	 * refused, not waited on (fileio.c) */
	if (!ri->path[0] || !(a = fopen(rec, "rb")))
		return false;
	if ((fd = fio_open_regular(ri->path, 0, &e)) < 0 || !(b = fdopen(fd, "rb"))) {
		if (fd >= 0)
			close(fd);
		fclose(a);
		return false;
	}
	for (;;) {
		size_t n = fread(x, 1, sizeof x, a), m = fread(y, 1, sizeof y, b);
		if (n != m || memcmp(x, y, n) != 0) {
			same = false;
			break;
		}
		if (n < sizeof x)
			break;
	}
	if (ferror(a) || ferror(b))
		same = false;
	fclose(a);
	fclose(b);
	return same;
}

int recovery_move_aside(const char *rec, char *kept, size_t keptlen)
{
	char stamp[32], from[4200], to[4200];
	time_t t = time(NULL);
	struct tm tm;
	const char *slash = strrchr(rec, '/');
	int dir = slash ? (int)(slash + 1 - rec) : 0;

	if (!localtime_r(&t, &tm) || strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%lld", (long long)t);
	for (int n = 0; n < 100; n++) {
		if (n == 0)
			snprintf(kept, keptlen, "%.*srecovery-%s.py", dir, rec, stamp);
		else
			snprintf(kept, keptlen, "%.*srecovery-%s-%d.py", dir, rec, stamp, n);
		/* link() never replaces a file, so no rescued text is overwritten */
		if (link(rec, kept) == 0) {
			if (info_path(rec, from, sizeof from) == 0 &&
			    info_path(kept, to, sizeof to) == 0 && link(from, to) == 0)
				unlink(from);
			return unlink(rec) == 0 || errno == ENOENT ? 0 : -1;
		}
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

int recovery_remove(const char *rec)
{
	char ip[4200];

	if (info_path(rec, ip, sizeof ip) == 0)
		unlink(ip);
	return unlink(rec) == 0 || errno == ENOENT ? 0 : -1;
}

void recovery_describe(const struct recovery_info *ri, char *buf, size_t len)
{
	char when[64] = "";
	struct tm tm;

	if (ri->when && localtime_r(&ri->when, &tm))
		strftime(when, sizeof when, "%H:%M on %d %b %Y", &tm);
	const char *w = when;
	const char *name = ri->name[0] ? ri->name : "an untitled buffer";
	if (ri->path[0] && strcmp(ri->path, ri->name))
		snprintf(buf, len, "%s (%s), kept at %s", name, ri->path, w);
	else
		snprintf(buf, len, "%s, kept at %s", name, w);
}

size_t recovery_kept(const char *rec, char *newest, size_t len)
{
	char dir[4200];
	const char *slash = strrchr(rec, '/');
	struct dirent *e;
	time_t best = 0;
	size_t n = 0;
	DIR *d;

	newest[0] = '\0';
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - rec) : 1, slash ? rec : ".");
	if (!(d = opendir(dir)))
		return 0;
	while ((e = readdir(d)) != NULL) {
		size_t nl = strlen(e->d_name);
		char p[4500];
		struct stat st;
		if (strncmp(e->d_name, "recovery-", 9) != 0 || nl < 12 ||
		    strcmp(e->d_name + nl - 3, ".py") != 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (stat(p, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		n++;
		if (st.st_mtime >= best) {
			best = st.st_mtime;
			snprintf(newest, len, "%s", p);
		}
	}
	closedir(d);
	return n;
}
