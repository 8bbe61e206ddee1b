/* SPDX-License-Identifier: MIT */
/*
 * pathcomplete.c - Tab completion of paths in the prompts.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "text/pathcomplete.h"
#include "banned.h"

/* At most this many names are looked at (a huge directory stays quick). */
#define SCAN_MAX 20000

/* Is dir/name a directory (following a symlink)? */
static bool is_dir(const char *dir, const char *name)
{
	char p[4096];
	struct stat st;

	if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, name) >= sizeof p)
		return false;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

void path_expand_home(const char *path, size_t len, char *out, size_t outlen)
{
	const char *home = getenv("HOME");

	if (len >= 1 && path[0] == '~' && (len == 1 || path[1] == '/') && home && home[0])
		snprintf(out, outlen, "%s%.*s", home, (int)(len - 1), path + 1);
	else
		snprintf(out, outlen, "%.*s", (int)len, path);
}

int path_complete(char *buf, size_t cap, size_t *len, char *note, size_t notelen)
{
	char dir[4096], common[1024] = "", first[256] = "";
	const char *slash = strrchr(buf, '/');
	const char *part = slash ? slash + 1 : buf;
	size_t plen = strlen(part), clen = 0, matches = 0, shown = 0, off = 0;
	struct dirent *e;
	DIR *d;

	note[0] = '\0';
	if (slash == buf)
		snprintf(dir, sizeof dir, "/");
	else if (slash)
		path_expand_home(buf, (size_t)(slash - buf), dir, sizeof dir);
	else
		snprintf(dir, sizeof dir, ".");
	d = opendir(dir);
	if (!d) {
		snprintf(note, notelen, "cannot list %s: %s", dir, strerror(errno));
		return -1;
	}
	char list[160] = "";
	for (size_t seen = 0; (e = readdir(d)) != NULL && seen < SCAN_MAX; seen++) {
		const char *n = e->d_name;
		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (n[0] == '.' && part[0] != '.')
			continue;
		if (strncmp(n, part, plen) != 0)
			continue;
		if (matches++ == 0) {
			snprintf(common, sizeof common, "%s", n);
			clen = strlen(common);
			snprintf(first, sizeof first, "%s", n);
		} else {
			size_t k = 0;
			while (k < clen && common[k] == n[k])
				k++;
			clen = k;
			common[clen] = '\0';
		}
		if (shown < 8 && off + strlen(n) + 2 < sizeof list) {
			off += (size_t)snprintf(list + off, sizeof list - off, "%s%s",
						shown ? " " : "", n);
			shown++;
		}
	}
	closedir(d);
	if (matches == 0) {
		snprintf(note, notelen, "no match");
		return 0;
	}
	/* a name of several matches may be cut inside a UTF-8 character */
	while (clen > plen && ((unsigned char)first[clen] & 0xc0) == 0x80)
		clen--;
	bool dir_done = matches == 1 && is_dir(dir, first);
	size_t add = clen - plen + (dir_done ? 1 : 0);
	if (matches > 1)
		snprintf(note, notelen, "%zu matches: %s%s", matches, list,
			 matches > shown ? " ..." : "");
	if (add == 0 || *len + add >= cap)
		return 0;
	memcpy(buf + *len, common + plen, clen - plen);
	*len += clen - plen;
	if (dir_done)
		buf[(*len)++] = '/';
	buf[*len] = '\0';
	return 1;
}
