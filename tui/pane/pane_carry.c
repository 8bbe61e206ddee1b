/* SPDX-License-Identifier: MIT */
/*
 * pane_carry.c - the carry buffer: edit, validate, merge, persist.
 *
 * The buffer reuses the editor component for editing, so undo, paste and
 * cursor movement work as in the Editor. Unfocused, the pane draws the
 * text itself so that the lines of names the last F2 changed can be
 * highlighted (sp_carry_merge emits one top-level name per line).
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
#include "editor/editor.h"
#include "pane/pane_carry.h"
#include "screen/theme.h"
#include "banned.h"

#define CARRY_NAME "carry.json"

/* A NULL-ended list of names, as sp_carry_merge gives it (NULL: none). */
static void free_names(char **names)
{
	for (char **p = names; p && *p; p++)
		free(*p);
	free(names);
}

static void free_changed(struct carry_pane *cp)
{
	free_names(cp->changed);
	cp->changed = NULL;
}

/* Read a whole regular file (at most max bytes; fileio.c refuses a FIFO
 * or a device). NULL with err set on failure. */
static char *read_file(const char *path, size_t max, size_t *len, char *err,
		       size_t errlen)
{
	struct fio_error e;
	char *buf = fio_read(path, max, 0, len, &e);

	if (!buf && e.kind == FIO_TOO_BIG)
		snprintf(err, errlen, "%s: larger than the carry limit", path);
	else if (!buf)
		snprintf(err, errlen, "%s", e.msg);
	return buf;
}

/* Replace path atomically and durably (fileio.c), readable by us only. */
static int write_atomic(const char *path, const char *data, size_t len,
			char *err, size_t errlen)
{
	return fio_replace(path, data, len, 0600, err, errlen);
}

int carry_init(struct carry_pane *cp, uint64_t max_bytes)
{
	char err[256];
	size_t len;

	memset(cp, 0, sizeof *cp);
	cp->max_bytes = max_bytes;
	cp->ed = editor_new();
	if (!cp->ed)
		return -1;
	cp->stale = true;
	if (config_state_path(CARRY_NAME, cp->state_path, sizeof cp->state_path,
			      false) < 0)
		cp->state_path[0] = '\0';
	if (cp->state_path[0]) {
		char *text = read_file(cp->state_path, (size_t)max_bytes * 2 + 4096,
				       &len, err, sizeof err);
		if (text) {
			editor_set_text(cp->ed, text, len, CARRY_NAME);
			free(text);
			return 0;
		}
	}
	editor_set_text(cp->ed, "{}\n", 3, CARRY_NAME);
	return 0;
}

void carry_free(struct carry_pane *cp)
{
	free_changed(cp);
	if (cp->ed)
		editor_free(cp->ed);
	cp->ed = NULL;
}

/* The user changed the text: revalidate, and the highlight is history. */
static void touched(struct carry_pane *cp)
{
	cp->stale = true;
	cp->unsaved = true;
	free_changed(cp);
}

bool carry_key(struct carry_pane *cp, bool is_key, wint_t ch)
{
	char *before, *after;
	size_t lb, la;
	bool used;

	/* editor_modified() is no use here: it stays true after the first
	 * edit, and cursor keys change nothing; compare the text instead. */
	before = editor_text(cp->ed, &lb);
	used = editor_key(cp->ed, is_key, ch);
	after = editor_text(cp->ed, &la);
	if (!before || !after || lb != la || memcmp(before, after, la))
		touched(cp);
	free(before);
	free(after);
	return used;
}

void carry_paste(struct carry_pane *cp, const char *text, size_t len)
{
	editor_paste(cp->ed, text, len);
	touched(cp);
}

void carry_replace(struct carry_pane *cp, const char *text, size_t len)
{
	editor_replace_all(cp->ed, text, len);
	touched(cp);
}

/* True when text is only white space, or an empty object "{}": both
 * mean "no carry-in", so no carry.json is made for the run. */
static bool blank(const char *s, size_t len)
{
	int braces = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r')
			continue;
		if ((s[i] == '{' && braces == 0) || (s[i] == '}' && braces == 1)) {
			braces++;
			continue;
		}
		return false;
	}
	return braces == 0 || braces == 2;
}

bool carry_check(struct carry_pane *cp)
{
	struct sp_error err = { { 0 } };
	size_t len;
	char *text;

	if (!cp->stale)
		return cp->valid;
	text = editor_text(cp->ed, &len);
	cp->stale = false;
	cp->error[0] = '\0';
	if (!text) {
		cp->valid = false;
		snprintf(cp->error, sizeof cp->error, "out of memory");
		return false;
	}
	cp->empty = blank(text, len);
	cp->valid = cp->empty ||
		    sp_carry_validate(text, len, cp->max_bytes, &err) == 0;
	if (!cp->valid)
		snprintf(cp->error, sizeof cp->error, "%s",
			 err.msg[0] ? err.msg : "not a valid carry object");
	free(text);
	return cp->valid;
}

char *carry_text(struct carry_pane *cp, size_t *len)
{
	char *text;

	*len = 0;
	carry_check(cp);
	if (cp->empty || !cp->valid)
		return NULL;
	text = editor_text(cp->ed, len);
	return text;
}

int carry_merge(struct carry_pane *cp, const char *carry_out, char *msg,
		size_t msglen)
{
	struct sp_error err = { { 0 } };
	char **changed = NULL;
	char *cur, *merged;
	size_t len, off = 0;

	if (!carry_out) {
		snprintf(msg, msglen, "the last run carried nothing out "
			 "(call carry(name=value) in the program)");
		return -1;
	}
	if (!carry_check(cp)) {
		snprintf(msg, msglen, "fix the carry buffer first: %s", cp->error);
		return -1;
	}
	cur = cp->empty ? NULL : editor_text(cp->ed, &len);
	merged = sp_carry_merge(cur ? cur : "{}", carry_out, &changed, &err);
	free(cur);
	if (!merged) {
		snprintf(msg, msglen, "cannot merge: %s", err.msg);
		return -1;
	}
	len = strlen(merged);
	/* F5 would refuse what F2 made: say so now and change nothing */
	if (sp_carry_validate(merged, len, cp->max_bytes, &err) < 0) {
		snprintf(msg, msglen, "not merged: %s", err.msg);
		free(merged);
		free_names(changed);
		return -1;
	}
	editor_set_text(cp->ed, merged, len, CARRY_NAME);
	free(merged);
	touched(cp);
	cp->changed = changed;
	off = (size_t)snprintf(msg, msglen, "carried forward:");
	for (char **p = changed; p && *p && off < msglen; p++)
		off += (size_t)snprintf(msg + off, msglen - off, " %s", *p);
	if (!changed || !changed[0])
		snprintf(msg, msglen, "carried forward: nothing new");
	return 0;
}

int carry_save_state(struct carry_pane *cp, char *err, size_t errlen)
{
	char path[1024];
	size_t len;
	char *text;
	int rc;

	if (!cp->unsaved || !cp->state_path[0])
		return 0;
	if (!cp->own_state && config_state_path(CARRY_NAME, path, sizeof path, true) < 0) {
		snprintf(err, errlen, "no state directory (HOME is not set)");
		return -1;
	}
	text = editor_text(cp->ed, &len);
	if (!text) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = write_atomic(cp->state_path, text, len, err, errlen);
	free(text);
	if (rc == 0)
		cp->unsaved = false;
	return rc;
}

int carry_use_state(struct carry_pane *cp, const char *path, char *err, size_t errlen)
{
	char def[sizeof cp->state_path], lerr[256];
	size_t len;
	char *text = NULL;

	if (!path) {
		if (config_state_path(CARRY_NAME, def, sizeof def, false) < 0)
			def[0] = '\0';
		path = def;
	}
	if (!strcmp(path, cp->state_path))
		return 0;
	if (carry_save_state(cp, err, errlen) < 0)
		return -1;               /* the buffer stays, with its own file */
	snprintf(cp->state_path, sizeof cp->state_path, "%s", path);
	cp->own_state = path != def;
	if (path[0] && access(path, F_OK) == 0)
		text = read_file(path, (size_t)cp->max_bytes * 2 + 4096, &len, lerr, sizeof lerr);
	/* a buffer of its own: not an edit of the last one (no undo across) */
	if (text)
		editor_set_text(cp->ed, text, len, CARRY_NAME);
	else
		editor_set_text(cp->ed, "{}\n", 3, CARRY_NAME);
	free(text);
	free_changed(cp);
	cp->unsaved = false;
	cp->stale = true;
	return 0;
}

int carry_save_file(struct carry_pane *cp, const char *path, char *err,
		    size_t errlen)
{
	size_t len;
	char *text = editor_text(cp->ed, &len);
	int rc;

	if (!text) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = write_atomic(path, text, len, err, errlen);
	free(text);
	return rc;
}

int carry_load_file(struct carry_pane *cp, const char *path, char *err,
		    size_t errlen)
{
	size_t len;
	char *text = read_file(path, (size_t)cp->max_bytes, &len, err, errlen);

	if (!text)
		return -1;
	/* one edit, so Ctrl-Z in the pane brings the old buffer back */
	editor_replace_all(cp->ed, text, len);
	free(text);
	touched(cp);
	return 0;
}

void carry_clear(struct carry_pane *cp)
{
	editor_replace_all(cp->ed, "{}\n", 3);
	touched(cp);
}

bool carry_is_empty(struct carry_pane *cp)
{
	carry_check(cp);
	return cp->empty;
}

/* Is this line the start of a name the last merge changed? */
static bool line_changed(const struct carry_pane *cp, const char *s, size_t len)
{
	if (!cp->changed)
		return false;
	while (len && (*s == ' ' || *s == '{')) {
		s++;
		len--;
	}
	if (!len || *s != '"')
		return false;
	for (char **p = cp->changed; *p; p++) {
		size_t n = strlen(*p);
		if (len > n + 1 && !memcmp(s + 1, *p, n) && s[n + 1] == '"')
			return true;
	}
	return false;
}

/* Unfocused view: the text, changed names highlighted. */
static void draw_plain(struct carry_pane *cp, WINDOW *win, struct rect r,
		       const struct theme *th)
{
	size_t len, off = 0;
	char *text = editor_text(cp->ed, &len);

	if (!text)
		return;
	for (int y = 0; y < r.h && off < len; y++) {
		size_t e = off;
		while (e < len && text[e] != '\n')
			e++;
		bool ch = line_changed(cp, text + off, e - off);
		attr_t a = theme_attr(th, ch ? TR_CHANGED : TR_NORMAL);
		text_draw(win, r.y + y, r.x, r.w, text + off, e - off,
			  ch ? a | A_BOLD : a);
		off = e < len ? e + 1 : e;
	}
	free(text);
}

void carry_draw(struct carry_pane *cp, WINDOW *win, struct rect in,
		const struct theme *th, bool focused)
{
	struct rect body = in;
	char line[600];
	int rows;

	layout_clear(win, in, theme_attr(th, TR_NORMAL));
	if (in.h < 1 || in.w < 2)
		return;
	carry_check(cp);
	if (!cp->valid)
		snprintf(line, sizeof line, "invalid: %s - Run is refused until fixed",
			 cp->error);
	else if (cp->empty)
		snprintf(line, sizeof line, "empty: the next run gets nothing");
	else
		snprintf(line, sizeof line, "%s", cp->changed ?
			 "valid; F2's changes in colour" : "valid: goes with the next run");
	/* the whole message, wrapped at words, leaving the buffer a row */
	rows = text_wrap_rows(line, strlen(line), in.w, true);
	if (rows > in.h - 1)
		rows = in.h > 1 ? in.h - 1 : 1;
	body.h = in.h > rows ? in.h - rows : 1;
	if (focused || editor_prompt_active(cp->ed))
		editor_draw(cp->ed, win, body.y, body.x, body.h, body.w, th, focused);
	else
		draw_plain(cp, win, body, th);
	if (in.h < 2)
		return;
	attr_t a = theme_attr(th, cp->valid ? TR_STATUS : TR_ERROR);
	layout_clear(win, (struct rect){ in.y + body.h, in.x, rows, in.w }, a);
	for (int r = 0, off = 0, n = (int)strlen(line); r < rows && off < n; r++) {
		int k = (int)text_wrap_row(line + off, (size_t)(n - off), in.w, true);
		text_draw(win, in.y + body.h + r, in.x, in.w, line + off, (size_t)k, a);
		off += k;
	}
}

bool carry_goto_error(struct carry_pane *cp, int *line, int *col)
{
	size_t len;
	char *text = editor_text(cp->ed, &len);
	bool found = text && sp_carry_error_at(text, len, line, col) == 0;

	free(text);
	if (!found)
		return false;
	editor_goto_line(cp->ed, *line);
	/* jansson counts characters; the editor's Right moves by one */
	for (int c = 1; c < *col; c++)
		editor_key(cp->ed, true, KEY_RIGHT);
	return true;
}
