/* SPDX-License-Identifier: MIT */
/*
 * editor_prompt.c - the find and go-to-line prompts: the keys while a
 * prompt is open, and the API to open them (the search itself is
 * editor_search.c).
 *
 * The prompt's text is a lineedit (lineedit.h): the editing keys and
 * Up/Down through earlier searches (or line numbers) work as in every
 * prompt. In Find, Enter / Ctrl-N go to the next match and Ctrl-P to the
 * previous one, Tab switches between exact and ignore-case matching, and
 * Ctrl-F again goes on to replace (editor_replace.c).
 */
#include "editor/editor_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/textbuf.h"

#include "banned.h"

/* ---- find and go-to ------------------------------------------------ */

/* Puts the cursor on a match (no selection, so typing does not replace). */
static void show_match(struct editor *ed, long at)
{
	ed->sel = false;
	ed->cur = (size_t)at;
	ed->want_col = -1;
	ed->follow = true;
	tb_break_group(ed->tb);
}

bool editor_find_next(struct editor *ed, bool backward)
{
	size_t m;
	long at = ed_search(ed, backward ? ed->cur : ed->cur + 1, backward, true, &m);
	if (at < 0)
		return false;
	show_match(ed, at);
	return true;
}

void editor_begin_find(struct editor *ed)
{
	size_t len;
	char *s = editor_selection(ed, &len);
	if (s && !memchr(s, '\n', len) && len < LE_MAX)
		editor_set_search(ed, s, len);
	free(s);
	ed->prompt = P_FIND;
	ed->find_origin = ed->cur;
	/* the last search is a suggestion: typing replaces it */
	le_set(&ed->field, ed->needle && ed->needle_len < LE_MAX ? ed->needle : "", true);
	ed->note[0] = '\0';
}

void editor_begin_goto(struct editor *ed)
{
	ed->prompt = P_GOTO;
	le_set(&ed->field, NULL, false);
	snprintf(ed->note, sizeof ed->note, "1-%zu", tb_lines(ed->tb));
}

bool editor_prompt_active(const struct editor *ed)
{
	return ed->prompt != P_NONE;
}

/* Searches for the prompt's text from where the prompt opened. */
static void find_incremental(struct editor *ed)
{
	editor_set_search(ed, ed->field.buf, ed->field.len);
	ed->note[0] = '\0';
	if (ed->field.len == 0) {
		show_match(ed, (long)ed->find_origin);
		return;
	}
	size_t m;
	long at = ed_search(ed, ed->find_origin, false, true, &m);
	if (at < 0)
		snprintf(ed->note, sizeof ed->note, "not found");
	else
		show_match(ed, at);
}

/* Closes the prompt, keeping a search or line for Up to bring back. */
static void close_prompt(struct editor *ed)
{
	if (ed->prompt == P_FIND)
		le_history_add(&ed->find_hist, ed->field.buf);
	else if (ed->prompt == P_GOTO)
		le_history_add(&ed->goto_hist, ed->field.buf);
	ed->prompt = P_NONE;
}

/* A key while the find prompt is open. */
static bool find_key(struct editor *ed, bool is_key, wint_t ch)
{
	bool enter = (!is_key && (ch == '\r' || ch == '\n')) || (is_key && ch == KEY_ENTER);
	if (enter || (!is_key && (ch == 14 || ch == 16))) {   /* Ctrl-N, Ctrl-P */
		if (!editor_find_next(ed, !is_key && ch == 16))
			snprintf(ed->note, sizeof ed->note, "not found");
		return true;
	}
	if (!is_key && ch == '\t') {
		ed->find_icase = !ed->find_icase;
		find_incremental(ed);
		return true;
	}
	if (!is_key && ch == 6) {                            /* Ctrl-F: replace */
		le_history_add(&ed->find_hist, ed->field.buf);
		editor_set_search(ed, ed->field.buf, ed->field.len);
		ed_begin_replace(ed);
		return true;
	}
	enum le_result r = le_key(&ed->field, is_key, ch, &ed->find_hist, false);
	if (r == LE_CHANGED)
		find_incremental(ed);
	return r != LE_UNUSED;
}

/* A key while the go-to prompt is open: digits only. */
static bool goto_key(struct editor *ed, bool is_key, wint_t ch)
{
	if ((!is_key && (ch == '\r' || ch == '\n')) || (is_key && ch == KEY_ENTER)) {
		if (ed->field.len)
			editor_goto_line(ed, strtol(ed->field.buf, NULL, 10));
		close_prompt(ed);
		return true;
	}
	if (!is_key && ch >= 32 && ch != 127 && (ch < '0' || ch > '9'))
		return true;                                    /* digits only */
	return le_key(&ed->field, is_key, ch, &ed->goto_hist, false) != LE_UNUSED;
}

/* A key while a prompt is open. */
bool ed_prompt_key(struct editor *ed, bool is_key, wint_t ch)
{
	if (!is_key && (ch == 27 || ch == 7)) {                /* Esc, Ctrl-G */
		if (ed->prompt == P_REPLACE || ed->prompt == P_REPLACE_ASK)
			ed_end_replace(ed);
		close_prompt(ed);
		return true;
	}
	switch (ed->prompt) {
	case P_FIND: return find_key(ed, is_key, ch);
	case P_GOTO: return goto_key(ed, is_key, ch);
	case P_REPLACE: case P_REPLACE_ASK: return ed_replace_key(ed, is_key, ch);
	default: return false;
	}
}
