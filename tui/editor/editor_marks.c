/* SPDX-License-Identifier: MIT */
/*
 * editor_marks.c - marks in the Editor's gutter: the lines a run's
 * violations came from, each with a one-cell glyph the app chooses (by
 * kind, with an ASCII twin in monochrome), so the source shows what the
 * Violations pane lists. The marks are the app's to replace after each
 * run; edits do not move them (the next run marks again).
 */
#include <stdio.h>
#include <string.h>

#include "editor/editor.h"
#include "editor/editor_impl.h"
#include "text/textbuf.h"
#include "banned.h"

void editor_set_marks(struct editor *ed, const long *lines,
		      const char *const *glyphs, size_t n)
{
	ed->n_marks = 0;
	for (size_t i = 0; i < n && ed->n_marks < EDITOR_MAX_MARKS; i++) {
		struct ed_mark *m = &ed->marks[ed->n_marks];
		if (lines[i] < 1 || !glyphs[i])
			continue;
		snprintf(m->glyph, sizeof m->glyph, "%s", glyphs[i]);
		m->line = lines[i];
		ed->n_marks++;
	}
}

const char *ed_mark_at(const struct editor *ed, long line)
{
	/* the first mark wins: the list is in the order the run met them */
	for (size_t i = 0; i < ed->n_marks; i++)
		if (ed->marks[i].line == line)
			return ed->marks[i].glyph;
	return NULL;
}

void editor_show_line(struct editor *ed, long line)
{
	if (line >= 1 && (size_t)line <= (size_t)tb_lines(ed->tb))
		ed->centre = line;
}
