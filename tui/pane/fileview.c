/* SPDX-License-Identifier: MIT */
/*
 * fileview.c - the F8 overlay: the last run's kept files, one viewed.
 *
 * What a file is, is judged from its bytes, not its name: a PNG or JPEG
 * signature is a picture (named with its size; drawing it is the image
 * module's job), a NUL in the first 8 KiB is binary (never drawn), the
 * rest is text; text whose name ends in .csv or .tsv is laid out in
 * columns. Every line is sanitized first (tui/text/sanitize.c), so a file
 * cannot drive the terminal.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pane/fileview.h"
#include "screen/layout.h"
#include "text/sanitize.h"
#include "screen/theme.h"
#include "buf.h"
#include "text/fileio.h"
#include "banned.h"


static void free_lines(struct file_view *v)
{
	table_free(&v->table);
	v->is_table = false;
	for (size_t i = 0; i < v->n_lines; i++)
		free(v->lines[i]);
	free(v->lines);
	v->lines = NULL;
	v->n_lines = v->lines_cap = 0;
}

void fileview_open(struct file_view *v, const struct run_files *rf)
{
	free_lines(v);
	v->active = true;
	v->viewing = false;
	v->top = 0;
	if (v->sel >= rf->n)
		v->sel = 0;
	v->note[0] = '\0';
}

void fileview_close(struct file_view *v)
{
	free_lines(v);
	v->active = false;
	v->viewing = false;
}

static void add_line(struct file_view *v, const char *s, size_t len)
{
	char *raw, *clean;
	char **bigger;

	if (v->n_lines >= FILEVIEW_MAX_LINES)
		return;
	/* tabs to spaces: a stored line holds none (they would jump columns) */
	raw = malloc(len * 4 + 1);
	if (!raw)
		return;
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\t') {
			do
				raw[o++] = ' ';
			while (o % 4);
		} else if (s[i] != '\r' || i + 1 != len) {
			raw[o++] = s[i];
		}
	}
	raw[o] = '\0';
	clean = sanitize_dup(raw, false);
	free(raw);
	if (!clean)
		return;
	bigger = sp_grow(v->lines, &v->lines_cap, v->n_lines + 1, sizeof *v->lines);
	if (!bigger) {
		free(clean);
		return;
	}
	v->lines = bigger;
	v->lines[v->n_lines++] = clean;
}

/* CSV or TSV in the table view: a header, right-aligned numbers. */
static void load_csv(struct file_view *v, const char *buf, size_t len, char sep)
{
	char shape[160];

	if (table_from_csv(&v->table, buf, len, sep, FILEVIEW_MAX_LINES) < 0) {
		snprintf(v->note, sizeof v->note, "CSV: out of memory");
		return;
	}
	v->is_table = true;
	table_shape_text(&v->table, shape, sizeof shape);
	snprintf(v->note, sizeof v->note, "CSV: %s", shape);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

void fileview_load_bytes(struct file_view *v, const char *name, const char *buf,
			 size_t len, uint64_t size)
{
	free_lines(v);
	v->top = 0;
	v->note[0] = '\0';
	v->is_image = false;
	if (len >= 24 && !memcmp(buf, "\x89PNG\r\n\x1a\n", 8) && !memcmp(buf + 12, "IHDR", 4)) {
		unsigned w = (unsigned)(unsigned char)buf[16] << 24 | (unsigned)(unsigned char)buf[17] << 16 |
			     (unsigned)(unsigned char)buf[18] << 8 | (unsigned char)buf[19];
		unsigned h = (unsigned)(unsigned char)buf[20] << 24 | (unsigned)(unsigned char)buf[21] << 16 |
			     (unsigned)(unsigned char)buf[22] << 8 | (unsigned char)buf[23];
		snprintf(v->note, sizeof v->note, "a PNG image, %u x %u pixels; s saves a copy", w, h);
		v->is_image = true;
	} else if (len >= 3 && !memcmp(buf, "\xff\xd8\xff", 3)) {
		snprintf(v->note, sizeof v->note, "a JPEG image; s saves a copy");
		v->is_image = true;
	} else if (memchr(buf, '\0', len < 8192 ? len : 8192)) {
		snprintf(v->note, sizeof v->note, "binary data, %llu bytes: not shown; "
			 "s saves a copy", (unsigned long long)size);
	} else if (ends_with(name, ".csv") || ends_with(name, ".tsv")) {
		load_csv(v, buf, len, ends_with(name, ".tsv") ? '\t' : ',');
	} else {
		for (size_t i = 0; i < len;) {
			const char *nl = memchr(buf + i, '\n', len - i);
			size_t l = nl ? (size_t)(nl - (buf + i)) : len - i;
			add_line(v, buf + i, l);
			i += l + 1;
		}
		snprintf(v->note, sizeof v->note, "text: %zu lines", v->n_lines);
	}
	if (size > len && (v->n_lines || v->is_table))
		snprintf(v->note + strlen(v->note), sizeof v->note - strlen(v->note),
			 " (the first %u MiB shown)", FILEVIEW_MAX_BYTES >> 20);
}

/* Read the kept file (bounded) and turn it into lines or a note. */
static void load(struct file_view *v, const struct run_file *f)
{
	struct fio_error e;
	size_t len = 0;
	/* never through a link, only a regular file, at most the first
	 * FILEVIEW_MAX_BYTES of it (fileio.c) */
	char *buf = fio_read(f->host_path, FILEVIEW_MAX_BYTES, FIO_NOFOLLOW | FIO_PREFIX,
			     &len, &e);

	free_lines(v);
	v->top = 0;
	v->note[0] = '\0';
	v->is_image = false;
	if (!buf) {
		snprintf(v->note, sizeof v->note, "cannot be read: %s",
			 e.kind == FIO_OPEN || e.kind == FIO_READ ? strerror(e.err) :
			 e.kind == FIO_NOT_REGULAR ? "not a regular file" : "out of memory");
		return;
	}
	fileview_load_bytes(v, f->name, buf, len, e.size);
	free(buf);
}

enum fileview_action fileview_key(struct file_view *v, const struct run_files *rf,
				  int key, int rows)
{
	int page = rows > 8 ? rows - 8 : 1;

	if (key == 's' && rf->n)
		return FV_SAVE;
	if (!v->viewing) {
		switch (key) {
		case KEY_UP: case 'k': if (v->sel) v->sel--; break;
		case KEY_DOWN: case 'j': if (v->sel + 1 < rf->n) v->sel++; break;
		case '\n': case '\r': case KEY_ENTER: case KEY_RIGHT:
			if (rf->n) {
				load(v, &rf->files[v->sel]);
				v->viewing = true;
			}
			break;
		case 27: case 'q': case KEY_F(8): case 14: /* Ctrl-N */
			fileview_close(v);
			break;
		default: break;
		}
		return FV_NONE;
	}
	if (v->is_table && key != KEY_LEFT && table_key(&v->table, key, rows - 6))
		return FV_NONE;
	if (v->is_table && key == KEY_LEFT && v->table.left) {
		table_key(&v->table, key, rows - 6);
		return FV_NONE;
	}
	switch (key) {
	case KEY_UP: case 'k': v->top--; break;
	case KEY_DOWN: case 'j': v->top++; break;
	case KEY_PPAGE: v->top -= page; break;
	case KEY_NPAGE: case ' ': v->top += page; break;
	case KEY_HOME: v->top = 0; break;
	case KEY_END: v->top = (int)v->n_lines; break;
	case 27: case 'q': case KEY_LEFT: case KEY_BACKSPACE:
		free_lines(v);
		v->viewing = false;
		break;
	case KEY_F(8): case 14:
		fileview_close(v);
		break;
	default: break;
	}
	if (v->top > (int)v->n_lines - 1)
		v->top = (int)v->n_lines - 1;
	if (v->top < 0)
		v->top = 0;
	return FV_NONE;
}

void fileview_draw(struct file_view *v, const struct run_files *rf, WINDOW *win,
		   int rows, int cols, const struct theme *th)
{
	int w = cols - 4 < 100 ? cols - 4 : 100;
	struct rect r = { 1, (cols - w) / 2, rows - 2, w };
	struct rect in = rect_inner(r);
	attr_t a = theme_attr(th, TR_DIALOG);
	char title[96], line[1200];
	const char *gone = "The work dir itself was deleted; this is sandpit's copy.";

	if (w < 20 || r.h < 6)
		return;
	layout_clear(win, r, a);
	if (!v->viewing) {
		snprintf(title, sizeof title, "Files of run %d (F8)", rf->run_no);
		layout_frame(win, r, title, "Enter views · s saves a copy · Esc closes", true, th);
		text_draw(win, in.y, in.x + 1, in.w - 2, gone, strlen(gone), a);
		if (!rf->n) {
			const char *none = "The last run kept no files.";
			text_draw(win, in.y + 2, in.x + 1, in.w - 2, none, strlen(none), a);
			return;
		}
		for (size_t i = 0; i < rf->n && (int)i + 2 < in.h; i++) {
			char *name = sanitize_dup(rf->files[i].name, true);
			attr_t la = i == v->sel ? theme_attr(th, TR_SELECTION) : a;
			snprintf(line, sizeof line, "%-40s %10llu B", name ? name : "?",
				 (unsigned long long)rf->files[i].bytes);
			free(name);
			layout_clear(win, (struct rect){ in.y + 2 + (int)i, in.x, 1, in.w }, la);
			text_draw(win, in.y + 2 + (int)i, in.x + 1, in.w - 2, line, strlen(line), la);
		}
		return;
	}
	{
		char *name = sanitize_dup(rf->files[v->sel].name, true);
		snprintf(title, sizeof title, "%s", name ? name : "?");
		free(name);
	}
	layout_frame(win, r, title, "s saves a copy · Esc back", true, th);
	text_draw(win, in.y, in.x + 1, in.w - 2, v->note, strlen(v->note), a | A_BOLD);
	if (v->is_table) {
		table_draw(&v->table, win, (struct rect){ in.y + 2, in.x + 1, in.h - 2, in.w - 2 },
			   th, a);
		return;
	}
	if (v->top > (int)v->n_lines - (in.h - 1) && (int)v->n_lines > in.h - 1)
		v->top = (int)v->n_lines - (in.h - 1);
	for (int y = 1; y < in.h && v->top + y - 1 < (int)v->n_lines; y++) {
		const char *s = v->lines[v->top + y - 1];
		text_draw(win, in.y + y, in.x + 1, in.w - 2, s, strlen(s), a);
	}
}

int fileview_save_copy(const char *src, const char *dst, char *err, size_t errlen)
{
	int in = open(src, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int out;
	struct stat st;
	char buf[65536];
	ssize_t n;

	if (in < 0 || fstat(in, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "the kept file cannot be read: %s",
			 in < 0 ? strerror(errno) : "not a regular file");
		if (in >= 0)
			close(in);
		return -1;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0) {
		snprintf(err, errlen, errno == EEXIST ? "%s exists already: give a new name"
			 : "cannot write %s: %s", dst, strerror(errno));
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof buf)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || write(out, buf, (size_t)n) != n) {
			snprintf(err, errlen, "cannot write %s: %s", dst, strerror(errno));
			close(in);
			close(out);
			unlink(dst);
			return -1;
		}
	}
	close(in);
	/* a new file (never over another: O_EXCL), made durable as fileio.c's
	 * replacements are: its bytes, then its directory entry */
	if (fsync(out) < 0 || close(out) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", dst, strerror(errno));
		unlink(dst);
		return -1;
	}
	if (fio_sync_dir_of(dst) < 0) {
		snprintf(err, errlen, "%s: saved, but not made durable: %s", dst, strerror(errno));
		return -1;
	}
	return 0;
}
