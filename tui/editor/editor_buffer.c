/* SPDX-License-Identifier: MIT */
/*
 * editor_buffer.c - the editor's state over its text buffer: making and
 * freeing one, setting and taking its text, what it tells the app (name,
 * path, modified, the cursor's line and column, the error line), and the
 * small helpers every file of the editor shares (a line's bytes, the
 * cursor's column, the selection around a move, going to a line, undo).
 * It calls no other file of the editor, so they may all build on it.
 */
#include "editor/editor_impl.h"

#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "text/textbuf.h"
#include "text/utf8text.h"

#include "banned.h"

/* Line of the cursor (0-based). */
size_t ed_cur_line(const struct editor *ed)
{
	return tb_line_of(ed->tb, ed->cur);
}

/* Bytes of a line (no '\n'); the pointer lasts until the next tb call
 * that may move the gap. */
const char *ed_line_bytes(struct editor *ed, size_t line, size_t *len)
{
	return tb_line_view(ed->tb, line, len);
}

/* Display column of the cursor (0-based). */
long ed_cur_col(struct editor *ed)
{
	size_t line = ed_cur_line(ed), len;
	const char *s = ed_line_bytes(ed, line, &len);
	return u8_col_of(s, len, ed->cur - tb_line_start(ed->tb, line), TABW);
}

/* Resets view and history-independent state after new text arrives. */
void ed_reset_view(struct editor *ed)
{
	ed->cur = ed->anchor = 0;
	ed->sel = false;
	ed->want_col = -1;
	ed->top = 0;
	ed->left = 0;
	ed->follow = true;
	ed->prompt = P_NONE;
	ed->hls_valid = 0;
	ed->error_line = 0;
	ed->n_marks = 0;
	tb_clear_dirty(ed->tb);
}

/* Replaces *dst with a copy of src (NULL allowed). */
void ed_set_str(char **dst, const char *src)
{
	char *c = src ? strdup(src) : NULL;
	free(*dst);
	*dst = c;
}

/* UTF-8 of a typed character into mb (>= 4 bytes); 0 if it is not a
 * Unicode scalar value. */
size_t ed_encode(wint_t ch, char *mb)
{
	if (ch > 0x10ffff || (ch >= 0xd800 && ch <= 0xdfff))
		return 0;
	return (size_t)utf8proc_encode_char((utf8proc_int32_t)ch, (utf8proc_uint8_t *)mb);
}

struct editor *editor_new(void)
{
	struct editor *ed = calloc(1, sizeof *ed);
	if (!ed)
		return NULL;
	ed->tb = tb_new();
	ed->name = strdup("untitled");
	if (!ed->tb || !ed->name) {
		editor_free(ed);
		return NULL;
	}
	ed_reset_view(ed);
	return ed;
}

void editor_free(struct editor *ed)
{
	if (!ed)
		return;
	tb_free(ed->tb);
	free(ed->path);
	free(ed->name);
	free(ed->clip);
	free(ed->needle);
	free(ed->replacement);
	free(ed->hls);
	free(ed->cls);
	free(ed);
}

void editor_set_text(struct editor *ed, const char *text, size_t len, const char *name)
{
	if (tb_set(ed->tb, text, len) < 0)
		return;
	ed_set_str(&ed->path, NULL);
	ed_set_str(&ed->name, name ? name : "untitled");
	ed_reset_view(ed);
}

char *editor_text(const struct editor *ed, size_t *len)
{
	size_t n = tb_len(ed->tb);
	char *s = malloc(n + 1);
	if (!s)
		return NULL;
	tb_copy(ed->tb, 0, n, s);
	s[n] = '\0';
	if (len)
		*len = n;
	return s;
}

const char *editor_path(const struct editor *ed)
{
	return ed->path;
}

const char *editor_name(const struct editor *ed)
{
	return ed->name ? ed->name : "untitled";
}

bool editor_modified(const struct editor *ed)
{
	return tb_modified(ed->tb);
}

size_t editor_cursor_offset(const struct editor *ed)
{
	return ed->cur;
}

void editor_cursor_pos(const struct editor *ed, long *line, long *col)
{
	struct editor *m = (struct editor *)ed;   /* views may move the gap only */
	*line = (long)ed_cur_line(ed) + 1;
	*col = ed_cur_col(m) + 1;
}

int editor_error_line(struct editor *ed, long line)
{
	if (line < 0 || (size_t)line > tb_lines(ed->tb)) {
		ed->error_line = 0;
		return -1;
	}
	ed->error_line = line;
	return 0;
}

/* Starts or ends the selection around a move (shift held or not). */
void ed_pre_move(struct editor *ed, bool shift)
{
	if (shift && !ed->sel) {
		ed->sel = true;
		ed->anchor = ed->cur;
	} else if (!shift) {
		ed->sel = false;
	}
	tb_break_group(ed->tb);
	ed->follow = true;
}

void editor_goto_line(struct editor *ed, long line)
{
	long n = (long)tb_lines(ed->tb);
	if (line < 1)
		line = 1;
	if (line > n)
		line = n;
	ed_pre_move(ed, false);
	ed->cur = tb_line_start(ed->tb, (size_t)line - 1);
	ed->want_col = -1;
}

/* Undo or redo, putting the cursor where the change was. */
void ed_undo_redo(struct editor *ed, bool redo)
{
	size_t c = ed->cur;
	if (redo ? tb_redo(ed->tb, &c) : tb_undo(ed->tb, &c)) {
		ed->cur = c > tb_len(ed->tb) ? tb_len(ed->tb) : c;
		ed->sel = false;
		ed->want_col = -1;
		ed->follow = true;
	}
}
