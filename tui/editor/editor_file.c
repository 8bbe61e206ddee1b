/* SPDX-License-Identifier: MIT */
/*
 * editor_file.c - the editor's files: open, save (an atomic write that
 * keeps the file's mode) and the recovery file.
 */
#include "editor/editor_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text/fileio.h"
#include "text/textbuf.h"

#include "banned.h"

#define MAX_FILE (256u << 20)      /* larger files are refused, not mangled */

/* ---- files --------------------------------------------------------- */

/* Atomically replaces path with data: a temp file in the same directory,
 * fsync, rename over, fsync the directory. mode < 0 keeps the existing
 * file's mode (or 0666 & ~umask for a new file). Symlinks are followed,
 * so the link stays and its target gets the new text. 0 or -1 + err. */
static int atomic_write(const char *path, const char *data, size_t n, int mode,
			char *err, size_t errlen)
{
	char target[PATH_MAX];
	struct stat st;
	bool exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return -1;
	}
	if (exists && realpath(path, target))
		path = target;
	if (exists && mode < 0 && access(path, W_OK) != 0) {
		snprintf(err, errlen, "%s: cannot save: %s", path, strerror(errno));
		return -1;
	}
	struct fio_tmp t;
	if (fio_tmp_open(&t, path) < 0) {
		snprintf(err, errlen, "%s: cannot save (temporary file): %s", path, strerror(errno));
		return -1;
	}
	mode_t m = mode >= 0 ? (mode_t)mode : exists ? st.st_mode & 07777 : 0666 & ~fio_umask();
	if (exists && mode < 0 && (st.st_uid != geteuid() || st.st_gid != getegid()))
		(void)!fchown(t.fd, st.st_uid, st.st_gid);   /* best effort: keep the owner */
	if (fchmod(t.fd, m) < 0) {
		fio_tmp_abort(&t);
		snprintf(err, errlen, "%s: cannot save: %s", path, strerror(errno));
		return -1;
	}
	/* written, synced, renamed over, and the directory synced */
	if (fio_tmp_commit(&t, data, n, path) < 0) {
		snprintf(err, errlen, "%s: cannot save: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Reads a regular file into a malloc'd buffer. NULL with err filled, or
 * NULL with *missing set when it does not exist. */
static char *read_file(const char *path, size_t *len, bool *missing, char *err, size_t errlen)
{
	struct fio_error e;
	char *buf = fio_read(path, MAX_FILE, 0, len, &e);

	*missing = !buf && e.kind == FIO_OPEN && e.err == ENOENT;
	if (buf || *missing)
		return buf;
	if (e.kind == FIO_TOO_BIG)
		snprintf(err, errlen, "%s: too large to edit (the limit is %u MiB)", path,
			 MAX_FILE >> 20);
	else
		snprintf(err, errlen, "%s", e.msg);
	return NULL;
}

/* The last path component. */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

int editor_open(struct editor *ed, const char *path, char *err, size_t errlen)
{
	size_t len = 0;
	bool missing;
	char *data = read_file(path, &len, &missing, err, errlen);
	if (!data && !missing)
		return -1;
	if (tb_set(ed->tb, data ? data : "", len) < 0) {
		snprintf(err, errlen, "%s: out of memory", path);
		free(data);
		return -1;
	}
	free(data);
	ed_set_str(&ed->path, path);
	ed_set_str(&ed->name, base_name(path));
	ed_reset_view(ed);
	return 0;
}

int editor_save(struct editor *ed, const char *path, char *err, size_t errlen)
{
	if (!path)
		path = ed->path;
	if (!path) {
		snprintf(err, errlen, "%s: no file name to save to", editor_name(ed));
		return -1;
	}
	/* A text file ends with a newline (POSIX's definition of a line; git,
	 * diff and cat all expect it), so one is added to the buffer first,
	 * as its own undo step. The rest is saved byte for byte. */
	size_t len = tb_len(ed->tb);
	bool added = false;
	if (len > 0 && tb_byte(ed->tb, len - 1) != '\n') {
		tb_break_group(ed->tb);
		if (tb_insert(ed->tb, len, "\n", 1) < 0) {
			snprintf(err, errlen, "%s: out of memory", path);
			return -1;
		}
		tb_break_group(ed->tb);
		added = true;
		len++;
	}
	const char *data = tb_view(ed->tb, 0, len);
	if (atomic_write(path, data, len, -1, err, errlen) < 0) {
		if (added) {                   /* nothing changed, as promised */
			size_t c;
			tb_undo(ed->tb, &c);
		}
		return -1;
	}
	if (path != ed->path) {
		ed_set_str(&ed->path, path);
		ed_set_str(&ed->name, base_name(path));
	}
	tb_mark_saved(ed->tb);
	return 0;
}

int editor_recovery_write(struct editor *ed, const char *recovery_path, char *err, size_t errlen)
{
	size_t len = tb_len(ed->tb);
	const char *data = tb_view(ed->tb, 0, len);
	return atomic_write(recovery_path, data, len, 0600, err, errlen);
}

void editor_adopt_path(struct editor *ed, const char *path)
{
	ed_set_str(&ed->path, path);
	ed_set_str(&ed->name, base_name(path));
}
