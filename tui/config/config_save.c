/* SPDX-License-Identifier: MIT */
/*
 * config_save.c - write the limits into the config file, only when the
 * person asks (Ctrl-S in the F4 dialog). Every other line of the file is
 * kept as it was, comments and [preset NAME] sections too: a limit's line
 * before the first section is replaced where it stands, a missing one is
 * added at the end of that part. The new file is written next to the old
 * one, synced, and renamed over it, so a crash leaves one or the other,
 * never half of each.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "text/fileio.h"
#include "buf.h"
#include "banned.h"

#define CONFIG_MAX (1u << 20)

/* growable output text */
struct out {
	char *s;
	size_t len, cap;
	bool oom;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->oom)
		return;
	if (o->len + n + 1 > o->cap) {
		char *b = sp_grow(o->s, &o->cap, o->len + n + 1, 1);
		if (!b) {
			o->oom = true;
			return;
		}
		o->s = b;
	}
	memcpy(o->s + o->len, s, n);
	o->len += n;
	o->s[o->len] = '\0';
}

/* The limit a line sets ("memory = 64M", "  cpu=2"), or -1. */
static int line_limit(const char *line, size_t n)
{
	char key[16];
	size_t i = 0, k = 0;

	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	while (i < n && k + 1 < sizeof key && line[i] != '=' && line[i] != ' ' &&
	       line[i] != '\t' && line[i] != ':')
		key[k++] = line[i++];
	key[k] = '\0';
	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i >= n || (line[i] != '=' && line[i] != ':'))
		return -1;
	return limit_find(key);
}

static void put_limit(struct out *o, const struct sp_limits *l, int id)
{
	char v[32], line[64];
	int n;

	limit_format((enum limit_id)id, l, v, sizeof v);
	n = snprintf(line, sizeof line, "%s = %s\n", limit_fields[id].key, v);
	put(o, line, (size_t)n);
}

/* mkdir -p of path's directory. */
static void make_parent(const char *path)
{
	char dir[CONFIG_PATH_MAX];
	char *slash;

	snprintf(dir, sizeof dir, "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(dir, 0700);
			*p = '/';
		}
	mkdir(dir, 0700);
}

int config_save_limits(const char *path, const struct sp_limits *l, char *err,
		       size_t errlen)
{
	struct out o = { 0 };
	bool done[LIM_COUNT] = { false };
	char *old = NULL;
	size_t old_len = 0, pos = 0;
	bool in_section = false, added = false;
	struct fio_error fe;
	int rc;

	if (!path || !path[0]) {
		snprintf(err, errlen, "no config file path (HOME is not set)");
		return -1;
	}
	/* fileio.c: a FIFO or a device in its place is refused, not waited on */
	old = fio_read(path, CONFIG_MAX, 0, &old_len, &fe);
	if (!old && fe.kind == FIO_TOO_BIG) {
		snprintf(err, errlen, "%s: over 1 MiB, not rewritten", path);
		return -1;
	}
	if (!old && !(fe.kind == FIO_OPEN && fe.err == ENOENT)) {
		snprintf(err, errlen, "%s", fe.msg);
		return -1;
	}
	while (pos < old_len) {
		const char *line = old + pos;
		const char *nl = memchr(line, '\n', old_len - pos);
		size_t n = nl ? (size_t)(nl - line) + 1 : old_len - pos;
		int id;

		pos += n;
		if (!in_section && n && line[strspn(line, " \t")] == '[') {
			/* the limits of the top part go before the first section */
			for (int i = 0; i < LIM_COUNT; i++)
				if (!done[i])
					put_limit(&o, l, i);
			added = true;
			in_section = true;
		}
		if (!in_section && (id = line_limit(line, n)) >= 0) {
			if (!done[id])
				put_limit(&o, l, id);
			done[id] = true; /* a second line of the same key goes */
			continue;
		}
		put(&o, line, n);
		if (!nl)
			put(&o, "\n", 1);
	}
	if (!added)
		for (int i = 0; i < LIM_COUNT; i++)
			if (!done[i])
				put_limit(&o, l, i);
	free(old);
	if (o.oom) {
		free(o.s);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	make_parent(path);
	/* atomically and durably (fileio.c); the config is the user's own */
	rc = fio_replace(path, o.s ? o.s : "", o.len, 0600, err, errlen);
	free(o.s);
	return rc;
}
