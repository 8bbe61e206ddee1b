/*
 * editor_select.c - the selection and the internal clipboard: the
 * selection's bounds, deleting it, copy, cut and paste.
 */
#include "editor_impl.h"

#include <stdlib.h>

#include "textbuf.h"

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
	return true;
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
