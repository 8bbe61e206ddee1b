/* SPDX-License-Identifier: MIT */
/*
 * editor_replace.c - find and replace: Ctrl-F, the text to find, Ctrl-F
 * again, the replacement, Enter; then each match is shown selected and
 * asked about, as nano and micro do: y (or Enter) replaces it, n skips
 * it, a replaces every match in the file, Esc stops. Every replacement is
 * one undo step ("a" is one step for all of them).
 *
 * Matching is the find prompt's (exact, or ignoring case: Tab in the find
 * prompt), so what Find highlighted is what gets replaced.
 */
#include "editor/editor_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/textbuf.h"

#include "banned.h"

void ed_begin_replace(struct editor *ed)
{
	if (!ed->needle || ed->needle_len == 0) {
		snprintf(ed->note, sizeof ed->note, "type what to find first");
		return;
	}
	ed->prompt = P_REPLACE;
	le_set(&ed->field, ed->replacement ? ed->replacement : "", true);
	ed->rep_count = 0;
	ed->note[0] = '\0';
}

void ed_end_replace(struct editor *ed)
{
	ed->sel = false;
	tb_break_group(ed->tb);
}

/* Selects the next match at or after from (no wrapping); false if none
 * (the note then says how many were replaced). */
static bool select_next(struct editor *ed, size_t from)
{
	size_t m;
	long at = ed_search(ed, from, false, false, &m);
	if (at < 0) {
		snprintf(ed->note, sizeof ed->note, "replaced %zu; no more matches below "
			 "(Esc closes)", ed->rep_count);
		ed->sel = false;
		return false;
	}
	ed->anchor = (size_t)at;
	ed->cur = (size_t)at + m;
	ed->sel = true;
	ed->want_col = -1;
	ed->follow = true;
	snprintf(ed->note, sizeof ed->note, "%zu replaced", ed->rep_count);
	return true;
}

/* Replaces the selected match with the replacement (one undo step). */
static void replace_this(struct editor *ed)
{
	size_t rl = ed->replacement ? strlen(ed->replacement) : 0;
	tb_break_group(ed->tb);
	ed_insert_bytes(ed, ed->replacement ? ed->replacement : "", rl);
	tb_break_group(ed->tb);
	ed->rep_count++;
}

/* Every match in the file, from the top, as one undo step. */
static void replace_all(struct editor *ed)
{
	size_t rl = ed->replacement ? strlen(ed->replacement) : 0;
	size_t from = 0, m;
	long at;
	tb_break_group(ed->tb);
	tb_group_begin(ed->tb);
	while ((at = ed_search(ed, from, false, false, &m)) >= 0) {
		tb_delete(ed->tb, (size_t)at, m);
		tb_insert(ed->tb, (size_t)at, ed->replacement ? ed->replacement : "", rl);
		from = (size_t)at + rl;      /* never inside what was put in */
		ed->cur = from;
		ed->rep_count++;
	}
	tb_group_end(ed->tb);
	tb_break_group(ed->tb);
	ed->sel = false;
	ed->want_col = -1;
	ed->follow = true;
}

bool ed_replace_key(struct editor *ed, bool is_key, wint_t ch)
{
	bool enter = (!is_key && (ch == '\r' || ch == '\n')) || (is_key && ch == KEY_ENTER);
	if (ed->prompt == P_REPLACE) {
		if (!enter)
			return le_key(&ed->field, is_key, ch, &ed->rep_hist, false) != LE_UNUSED;
		le_history_add(&ed->rep_hist, ed->field.buf);
		ed_set_str(&ed->replacement, ed->field.buf);
		ed->prompt = P_REPLACE_ASK;
		select_next(ed, ed->sel && ed->anchor < ed->cur ? ed->anchor : ed->cur);
		return true;
	}
	/* P_REPLACE_ASK */
	if (is_key && !enter)
		return false;
	if (enter || ch == 'y' || ch == 'Y') {
		if (ed->sel) {
			replace_this(ed);
			select_next(ed, ed->cur);
		}
	} else if (ch == 'n' || ch == 'N') {
		if (ed->sel)
			select_next(ed, ed->cur);
	} else if (ch == 'a' || ch == 'A') {
		replace_all(ed);
		snprintf(ed->note, sizeof ed->note, "replaced %zu (Ctrl-Z undoes them "
			 "all; Esc closes)", ed->rep_count);
	} else if (ch == 26 || ch == 25) {    /* Ctrl-Z / Ctrl-Y work here too */
		ed_undo_redo(ed, ch == 25);
		ed->sel = false;
		snprintf(ed->note, sizeof ed->note, "%s (Esc closes)", ch == 25 ? "redone" : "undone");
	} else if (ch < 32 || ch == 127) {
		return false;                 /* Ctrl keys are the app's */
	}
	return true;
}
