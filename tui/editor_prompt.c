/*
 * editor_prompt.c - the find and go-to-line prompts: the search itself,
 * the keys while a prompt is open, and the API to open them.
 */
#include "editor_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textbuf.h"

#include "banned.h"

/* ---- find and go-to ------------------------------------------------ */

void editor_set_search(struct editor *ed, const char *needle, size_t len)
{
	char *n = malloc(len + 1);
	if (!n)
		return;
	memcpy(n, needle, len);
	n[len] = '\0';
	free(ed->needle);
	ed->needle = n;
	ed->needle_len = len;
}

/* Offset of the first match at or after from (wrapping); -1 if none. */
static long search_from(struct editor *ed, size_t from, bool backward)
{
	size_t len = tb_len(ed->tb), nl = ed->needle_len;
	if (!ed->needle || nl == 0 || nl > len)
		return -1;
	const char *all = tb_view(ed->tb, 0, len);
	if (!backward) {
		if (from > len)
			from = len;
		const char *p = memmem(all + from, len - from, ed->needle, nl);
		if (!p)
			p = memmem(all, len, ed->needle, nl);
		return p ? (long)(p - all) : -1;
	}
	/* Backward: the last match starting before from, else the last one. */
	long best = -1, last = -1;
	for (const char *p = all; (p = memmem(p, len - (size_t)(p - all), ed->needle, nl)) != NULL; p++) {
		if ((size_t)(p - all) < from)
			best = (long)(p - all);
		last = (long)(p - all);
	}
	return best >= 0 ? best : last;
}

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
	long at = search_from(ed, backward ? ed->cur : ed->cur + 1, backward);
	if (at < 0)
		return false;
	show_match(ed, at);
	return true;
}

void editor_begin_find(struct editor *ed)
{
	size_t len;
	char *s = editor_selection(ed, &len);
	if (s && !memchr(s, '\n', len) && len < sizeof ed->input)
		editor_set_search(ed, s, len);
	free(s);
	ed->prompt = P_FIND;
	ed->find_origin = ed->cur;
	ed->ilen = ed->needle && ed->needle_len < sizeof ed->input ? ed->needle_len : 0;
	memcpy(ed->input, ed->needle ? ed->needle : "", ed->ilen);
	ed->note[0] = '\0';
}

void editor_begin_goto(struct editor *ed)
{
	ed->prompt = P_GOTO;
	ed->ilen = 0;
	snprintf(ed->note, sizeof ed->note, "1-%zu", tb_lines(ed->tb));
}

bool editor_prompt_active(const struct editor *ed)
{
	return ed->prompt != P_NONE;
}

/* Searches for the prompt's text from where the prompt opened. */
static void find_incremental(struct editor *ed)
{
	editor_set_search(ed, ed->input, ed->ilen);
	ed->note[0] = '\0';
	if (ed->ilen == 0) {
		show_match(ed, (long)ed->find_origin);
		return;
	}
	long at = search_from(ed, ed->find_origin, false);
	if (at < 0)
		snprintf(ed->note, sizeof ed->note, "not found");
	else
		show_match(ed, at);
}

/* A key while a prompt is open. */
bool ed_prompt_key(struct editor *ed, bool is_key, wint_t ch)
{
	bool find = ed->prompt == P_FIND;
	if (!is_key && (ch == 27 || ch == 7)) {                /* Esc, Ctrl-G */
		ed->prompt = P_NONE;
		return true;
	}
	if ((!is_key && (ch == '\r' || ch == '\n')) || (is_key && ch == KEY_ENTER)) {
		if (find) {
			if (!editor_find_next(ed, false))
				snprintf(ed->note, sizeof ed->note, "not found");
		} else {
			ed->input[ed->ilen] = '\0';
			if (ed->ilen)
				editor_goto_line(ed, strtol(ed->input, NULL, 10));
			ed->prompt = P_NONE;
		}
		return true;
	}
	if (find && ((is_key && ch == KEY_DOWN) || (!is_key && ch == 14))) {
		if (!editor_find_next(ed, false))
			snprintf(ed->note, sizeof ed->note, "not found");
		return true;
	}
	if (find && ((is_key && ch == KEY_UP) || (!is_key && ch == 16))) {
		if (!editor_find_next(ed, true))
			snprintf(ed->note, sizeof ed->note, "not found");
		return true;
	}
	if ((is_key && ch == KEY_BACKSPACE) || (!is_key && (ch == 127 || ch == 8))) {
		while (ed->ilen > 0 && ((unsigned char)ed->input[--ed->ilen] & 0xc0) == 0x80)
			;
		if (find)
			find_incremental(ed);
		return true;
	}
	if (is_key || ch < 32 || ch == 127)
		return false;                                   /* app keys pass */
	if (!find && (ch < '0' || ch > '9'))
		return true;                                    /* digits only */
	char mb[8];
	size_t n = ed_encode(ch, mb);
	if (n == 0)
		return true;
	if (ed->ilen + n < sizeof ed->input) {
		memcpy(ed->input + ed->ilen, mb, n);
		ed->ilen += n;
		if (find)
			find_incremental(ed);
	}
	return true;
}
