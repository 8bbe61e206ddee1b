/* SPDX-License-Identifier: MIT */
/*
 * editor_select.c - the selection and the internal clipboard: the
 * selection's bounds, deleting it, copy, cut and paste.
 */
#include "editor/editor_impl.h"

#include <stdlib.h>
#include <string.h>

#include "text/textbuf.h"

#include "banned.h"

/* Ordered selection bounds; false when there is no (non-empty) selection. */
bool ed_sel_range(const struct editor *ed, size_t *a, size_t *b)
{
	if (!ed->sel || ed->anchor == ed->cur)
		return false;
	*a = ed->anchor < ed->cur ? ed->anchor : ed->cur;
	*b = ed->anchor < ed->cur ? ed->cur : ed->anchor;
	return true;
}

bool ed_sel_lines(const struct editor *ed, size_t *l0, size_t *l1)
{
	size_t a, b;
	bool had = ed_sel_range(ed, &a, &b);

	if (!had)
		a = b = ed->cur;
	*l0 = tb_line_of(ed->tb, a);
	*l1 = tb_line_of(ed->tb, b);
	if (*l1 > *l0 && b == tb_line_start(ed->tb, *l1))
		(*l1)--;                   /* a selection ending at column 0 */
	return had;
}

/* Deletes the selection, if any; true when it did. */
bool ed_delete_selection(struct editor *ed)
{
	size_t a, b;
	bool had = ed_sel_range(ed, &a, &b);
	ed->sel = false;
	if (!had)
		return false;
	tb_delete(ed->tb, a, b - a);
	ed->cur = a;
	return true;
}

/* Inserts bytes at the cursor, replacing the selection (one undo step). */
void ed_insert_bytes(struct editor *ed, const char *s, size_t n)
{
	tb_group_begin(ed->tb);
	ed_delete_selection(ed);
	if (tb_insert(ed->tb, ed->cur, s, n) == 0)
		ed->cur += n;
	tb_group_end(ed->tb);
	ed->want_col = -1;
	ed->follow = true;
}

/* Copies the selection to the clipboard; true if there was one. */
bool ed_copy(struct editor *ed)
{
	size_t len;
	char *s = editor_selection(ed, &len);
	if (!s)
		return false;
	free(ed->clip);
	ed->clip = s;
	ed->cliplen = len;
	ed->clip_version++;
	return true;
}

const char *editor_clipboard(const struct editor *ed, size_t *len,
			     unsigned long *version)
{
	*len = ed->clip ? ed->cliplen : 0;
	if (version)
		*version = ed->clip_version;
	return ed->clip;
}

char *editor_selection(const struct editor *ed, size_t *len)
{
	size_t a, b;
	if (!ed_sel_range(ed, &a, &b))
		return NULL;
	char *s = malloc(b - a + 1);
	if (!s)
		return NULL;
	tb_copy(ed->tb, a, b - a, s);
	s[b - a] = '\0';
	*len = b - a;
	return s;
}

void editor_paste(struct editor *ed, const char *text, size_t len)
{
	char *t = malloc(len + 1);
	if (!t)
		return;
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\r') {
			t[n++] = '\n';
			if (i + 1 < len && text[i + 1] == '\n')
				i++;
		} else {
			t[n++] = text[i];
		}
	}
	tb_break_group(ed->tb);
	ed_insert_bytes(ed, t, n);
	tb_break_group(ed->tb);
	free(t);
}

/* Cut: the selection, or the whole line when there is none. */
void ed_cut(struct editor *ed)
{
	if (!ed_sel_range(ed, &(size_t){0}, &(size_t){0})) {
		size_t line = ed_cur_line(ed);
		ed->anchor = tb_line_start(ed->tb, line);
		ed->cur = line + 1 < tb_lines(ed->tb) ? tb_line_start(ed->tb, line + 1) : tb_line_end(ed->tb, line);
		ed->sel = true;
		if (ed->anchor == ed->cur) {
			ed->sel = false;
			return;
		}
	}
	ed_copy(ed);
	tb_break_group(ed->tb);
	ed_delete_selection(ed);
	tb_break_group(ed->tb);
	ed->follow = true;
}

/* Ctrl-K: cuts the whole lines of the cursor or the selection. Ctrl-Ks in
 * a row gather their lines in the clipboard, as in nano, so a block cut
 * line by line pastes back whole. */
void ed_cut_lines(struct editor *ed, bool append)
{
	size_t l0, l1;
	ed_sel_lines(ed, &l0, &l1);
	size_t from = tb_line_start(ed->tb, l0);
	size_t to = l1 + 1 < tb_lines(ed->tb) ? tb_line_start(ed->tb, l1 + 1)
					       : tb_len(ed->tb);
	if (to == from)
		return;
	char *old = append && ed->clip ? ed->clip : NULL;
	size_t oldlen = old ? ed->cliplen : 0;
	char *s = malloc(oldlen + (to - from) + 1);
	if (!s)
		return;
	if (old)
		memcpy(s, old, oldlen);
	tb_copy(ed->tb, from, to - from, s + oldlen);
	s[oldlen + (to - from)] = '\0';
	free(ed->clip);
	ed->clip = s;
	ed->cliplen = oldlen + (to - from);
	ed->clip_version++;
	tb_break_group(ed->tb);
	tb_delete(ed->tb, from, to - from);
	tb_break_group(ed->tb);
	ed->sel = false;
	ed->cur = from > tb_len(ed->tb) ? tb_len(ed->tb) : from;
	ed->want_col = -1;
	ed->follow = true;
}
