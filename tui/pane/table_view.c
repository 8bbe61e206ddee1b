/* SPDX-License-Identifier: MIT */
/*
 * table_view.c - the table component (see table_view.h): filled from a
 * prelude's preview or from CSV text, drawn as a spreadsheet.
 *
 * CSV here is RFC 4180's common part: fields split at the separator,
 * double quotes around a field keep separators in it and "" is one
 * quote; a record does not span lines (a kept file's newline inside
 * quotes starts a new row, as a line viewer would show it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "pane/table_view.h"
#include "text/sanitize.h"
#include "screen/theme.h"
#include "buf.h"
#include "banned.h"

#define CSV_MAX_COLS 64
#define FIELD_MAX (TABLE_COL_MAX * 4 + 8)  /* bytes kept of a CSV field */

void table_free(struct table *t)
{
	for (size_t c = 0; t->header && c < t->cols; c++)
		free(t->header[c]);
	for (size_t r = 0; t->index && r < t->rows; r++)
		free(t->index[r]);
	for (size_t i = 0; t->cells && i < t->rows * t->cols; i++)
		free(t->cells[i]);
	free(t->header);
	free(t->index);
	free(t->cells);
	free(t->numeric);
	free(t->width);
	memset(t, 0, sizeof *t);
}

static int alloc_table(struct table *t, size_t rows, size_t cols, bool with_index)
{
	memset(t, 0, sizeof *t);
	t->rows = rows;
	t->cols = cols;
	t->header = calloc(cols ? cols : 1, sizeof *t->header);
	t->cells = calloc(rows && cols ? rows * cols : 1, sizeof *t->cells);
	t->numeric = calloc(cols ? cols : 1, sizeof *t->numeric);
	t->width = calloc(cols ? cols : 1, sizeof *t->width);
	t->index = with_index ? calloc(rows ? rows : 1, sizeof *t->index) : NULL;
	if (!t->header || !t->cells || !t->numeric || !t->width || (with_index && !t->index)) {
		table_free(t);
		return -1;
	}
	return 0;
}

/* A cell as it is shown: the program's text, sanitized on one line. */
static char *clean_cell(const char *s)
{
	return sanitize_dup(s ? s : "", true);
}

static void measure(struct table *t)
{
	for (size_t c = 0; c < t->cols; c++) {
		int w = text_width(t->header[c], strlen(t->header[c]));
		for (size_t r = 0; r < t->rows; r++) {
			const char *s = t->cells[r * t->cols + c];
			int cw = text_width(s, strlen(s));
			if (cw > w)
				w = cw;
		}
		t->width[c] = w < 1 ? 1 : w > TABLE_COL_MAX ? TABLE_COL_MAX : w;
	}
	t->index_width = 0;
	for (size_t r = 0; t->index && r < t->rows; r++) {
		int w = text_width(t->index[r], strlen(t->index[r]));
		if (w > t->index_width)
			t->index_width = w > TABLE_COL_MAX ? TABLE_COL_MAX : w;
	}
}

/* Every string of a JSON array of n (n == 0: any length) strings. */
static bool strings(json_t *a, size_t n)
{
	size_t i;
	json_t *v;

	if (!json_is_array(a) || (n && json_array_size(a) != n))
		return false;
	json_array_foreach(a, i, v)
		if (!json_is_string(v))
			return false;
	return true;
}

int table_from_preview(struct table *t, const char *json, char *why, size_t whylen)
{
	json_t *o = json ? json_loads(json, 0, NULL) : NULL;
	json_t *shape = json_object_get(o, "shape"), *cols = json_object_get(o, "columns");
	json_t *index = json_object_get(o, "index"), *rows = json_object_get(o, "rows");
	json_t *numeric = json_object_get(o, "numeric");
	size_t nc = json_array_size(cols), nr = json_array_size(rows), i;
	json_t *row;
	bool ok = json_is_object(o) && json_array_size(shape) == 2 &&
		  json_is_integer(json_array_get(shape, 0)) &&
		  json_is_integer(json_array_get(shape, 1)) &&
		  json_integer_value(json_array_get(shape, 0)) >= 0 &&
		  json_integer_value(json_array_get(shape, 1)) >= 0 &&
		  strings(cols, 0) && strings(index, nr) && json_is_array(rows) &&
		  json_array_size(numeric) == nc;

	json_array_foreach(rows, i, row)
		ok = ok && strings(row, nc);
	for (i = 0; ok && i < nc; i++)
		ok = json_is_boolean(json_array_get(numeric, i));
	if (!ok || alloc_table(t, nr, nc, true) < 0) {
		snprintf(why, whylen, ok ? "out of memory" : "its preview is not a table");
		json_decref(o);
		return -1;
	}
	t->all_rows = (uint64_t)json_integer_value(json_array_get(shape, 0));
	t->all_cols = (uint64_t)json_integer_value(json_array_get(shape, 1));
	for (size_t c = 0; c < nc; c++) {
		t->header[c] = clean_cell(json_string_value(json_array_get(cols, c)));
		t->numeric[c] = json_is_true(json_array_get(numeric, c));
	}
	json_array_foreach(rows, i, row) {
		t->index[i] = clean_cell(json_string_value(json_array_get(index, i)));
		for (size_t c = 0; c < nc; c++)
			t->cells[i * nc + c] = clean_cell(json_string_value(json_array_get(row, c)));
	}
	json_decref(o);
	for (size_t k = 0; k < nr * nc; k++)
		ok = ok && t->cells[k];
	for (size_t k = 0; k < nr; k++)
		ok = ok && t->index[k];
	for (size_t k = 0; k < nc; k++)
		ok = ok && t->header[k];
	if (!ok) {
		table_free(t);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	measure(t);
	return 0;
}

/* One CSV record's fields (quotes honoured), each cut to FIELD_MAX
 * bytes, into store (max * (FIELD_MAX + 1)). */
static size_t csv_fields(const char *s, size_t len, char sep, char *store,
			 char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i <= len && n < max;) {
		char *f = store + n * (FIELD_MAX + 1);
		size_t fl = 0;
		bool quoted = i < len && s[i] == '"';
		if (quoted)
			i++;
		while (i < len) {
			char c;
			if (quoted && s[i] == '"' && i + 1 < len && s[i + 1] == '"') {
				c = '"';
				i += 2;
			} else if (quoted && s[i] == '"') {
				quoted = false;
				i++;
				continue;
			} else if (!quoted && s[i] == sep) {
				break;
			} else {
				c = s[i++];
			}
			if (fl < FIELD_MAX)
				f[fl++] = c;
		}
		f[fl] = '\0';
		out[n++] = f;
		i++; /* the separator, or past the end */
	}
	return n;
}

/* A whole number or a decimal one, as a spreadsheet would right-align. */
static bool is_number(const char *s)
{
	char *end;

	while (*s == ' ')
		s++;
	if (!*s)
		return false;
	strtod(s, &end);
	while (*end == ' ')
		end++;
	return end != s && *end == '\0';
}

int table_from_csv(struct table *t, const char *buf, size_t len, char sep, size_t max_rows)
{
	char *store = malloc(CSV_MAX_COLS * (FIELD_MAX + 1));
	char *fields[CSV_MAX_COLS];
	size_t records = 0, cols = 0, shown;

	if (!store)
		return -1;
	/* pass 1: the records and the widest one's fields */
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (buf + i)) : len - i;
		size_t nf = csv_fields(buf + i, l && buf[i + l - 1] == '\r' ? l - 1 : l, sep,
				       store, fields, CSV_MAX_COLS);
		if (nf > cols)
			cols = nf;
		records++;
		i += l + 1;
	}
	shown = records > 1 ? records - 1 : 0;
	if (shown > max_rows)
		shown = max_rows;
	if (alloc_table(t, shown, cols, false) < 0) {
		free(store);
		return -1;
	}
	t->all_rows = records > 1 ? records - 1 : 0;
	t->all_cols = cols;
	for (size_t c = 0; c < cols; c++)
		t->numeric[c] = true;
	/* pass 2: the header, then the rows shown */
	records = 0;
	for (size_t i = 0; i < len && records <= shown;) {
		const char *nl = memchr(buf + i, '\n', len - i);
		size_t l = nl ? (size_t)(nl - (buf + i)) : len - i;
		size_t nf = csv_fields(buf + i, l && buf[i + l - 1] == '\r' ? l - 1 : l, sep,
				       store, fields, CSV_MAX_COLS);
		for (size_t c = 0; c < cols; c++) {
			const char *f = c < nf ? fields[c] : "";
			char *clean = clean_cell(f);
			if (!clean)
				goto oom;
			if (records == 0) {
				t->header[c] = clean;
				continue;
			}
			t->cells[(records - 1) * cols + c] = clean;
			if (clean[0] && !is_number(clean))
				t->numeric[c] = false;
		}
		records++;
		i += l + 1;
	}
	for (size_t c = 0; c < cols; c++)
		if (!t->header[c] && !(t->header[c] = clean_cell("")))
			goto oom;
	for (size_t k = 0; k < shown * cols; k++)
		if (!t->cells[k] && !(t->cells[k] = clean_cell("")))
			goto oom;
	free(store);
	measure(t);
	return 0;
oom:
	free(store);
	table_free(t);
	return -1;
}

/* 5000 as "5,000": a shape read at a glance. */
static void grouped(uint64_t n, char *buf, size_t len)
{
	char digits[32];
	int nd = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
	size_t o = 0;

	for (int i = 0; i < nd && o + 2 < len; i++) {
		if (i && (nd - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

void table_shape_text(const struct table *t, char *buf, size_t len)
{
	char r[32], c[32], shown[32];

	grouped(t->all_rows, r, sizeof r);
	grouped(t->all_cols, c, sizeof c);
	grouped(t->rows, shown, sizeof shown);
	snprintf(buf, len, "%s row%s x %s column%s", r, t->all_rows == 1 ? "" : "s", c,
		 t->all_cols == 1 ? "" : "s");
	if (t->rows < t->all_rows || t->cols < t->all_cols)
		snprintf(buf + strlen(buf), len - strlen(buf), ", the first %s row%s%s shown",
			 shown, t->rows == 1 ? "" : "s",
			 t->cols < t->all_cols ? " and columns" : "");
}

bool table_key(struct table *t, int key, int rows)
{
	size_t page = rows > 2 ? (size_t)rows - 2 : 1;
	size_t last_row = t->rows ? t->rows - 1 : 0, last_col = t->cols ? t->cols - 1 : 0;

	switch (key) {
	case KEY_UP: case 'k': if (t->top) t->top--; return true;
	case KEY_DOWN: case 'j': if (t->top < last_row) t->top++; return true;
	case KEY_LEFT: case 'h': if (t->left) t->left--; return true;
	case KEY_RIGHT: case 'l': if (t->left < last_col) t->left++; return true;
	case KEY_PPAGE: t->top = t->top > page ? t->top - page : 0; return true;
	case KEY_NPAGE: case ' ': t->top = t->top + page < last_row ? t->top + page : last_row;
		return true;
	case KEY_HOME: t->top = 0; t->left = 0; return true;
	case KEY_END: t->top = last_row; return true;
	default: return false;
	}
}

/* One cell's text in w cells: right-aligned when numeric, cut to fit. */
static void draw_cell(WINDOW *win, int y, int x, int w, const char *s, bool right, attr_t a)
{
	size_t len = strlen(s);
	int sw;

	while (len && text_width(s, len) > w)
		len--;
	while (len && ((unsigned char)s[len] & 0xc0) == 0x80)
		len--;
	sw = text_width(s, len);
	text_draw(win, y, right ? x + w - sw : x, w, s, len, a);
}

void table_draw(struct table *t, WINDOW *win, struct rect r, const struct theme *th,
		attr_t base)
{
	attr_t head = base | A_BOLD;
	int iw = t->index ? t->index_width : 0, x0 = r.x + (iw ? iw + 2 : 0);

	layout_clear(win, r, base);
	if (r.h < 2 || r.w < 4 || !t->cols)
		return;
	if (t->top >= t->rows && t->rows)
		t->top = t->rows - 1;
	if (t->left >= t->cols)
		t->left = t->cols - 1;
	/* the header row, then the body: the index fixed at the left */
	for (size_t c = t->left, x = (size_t)x0; c < t->cols && (int)x < r.x + r.w; c++) {
		int w = t->width[c];
		int room = r.x + r.w - (int)x;
		draw_cell(win, r.y, (int)x, w < room ? w : room, t->header[c], t->numeric[c], head);
		x += (size_t)w + 2;
	}
	for (int y = 1; y < r.h && t->top + (size_t)(y - 1) < t->rows; y++) {
		size_t row = t->top + (size_t)(y - 1);
		int x = x0;
		if (iw)
			draw_cell(win, r.y + y, r.x, iw, t->index[row], false,
				  theme_attr(th, TR_COMMENT) | A_BOLD);
		for (size_t c = t->left; c < t->cols && x < r.x + r.w; c++) {
			int w = t->width[c], room = r.x + r.w - x;
			draw_cell(win, r.y + y, x, w < room ? w : room,
				  t->cells[row * t->cols + c], t->numeric[c], base);
			x += w + 2;
		}
	}
}

void table_overlay_draw(struct table *t, const char *title, WINDOW *win, int rows, int cols,
			const struct theme *th)
{
	int w = cols - 4;
	struct rect r = { 1, 2, rows - 2, w };
	struct rect in = rect_inner(r);
	attr_t a = theme_attr(th, TR_DIALOG);
	char shape[160];

	if (w < 20 || r.h < 6)
		return;
	layout_clear(win, r, a);
	layout_frame(win, r, title, "arrows scroll · Esc closes", true, th);
	table_shape_text(t, shape, sizeof shape);
	text_draw(win, in.y, in.x + 1, in.w - 2, shape, strlen(shape), a | A_BOLD);
	table_draw(t, win, (struct rect){ in.y + 2, in.x + 1, in.h - 2, in.w - 2 }, th, a);
}
