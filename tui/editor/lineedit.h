/* SPDX-License-Identifier: MIT */
/*
 * lineedit.h - the one-line text field of every prompt (save as, open,
 * find, go to line, carry save/load), with the keys hands know from a
 * shell: Left, Right, Home/Ctrl-A, End/Ctrl-E, Backspace, Delete, Ctrl-U
 * (clear), Ctrl-K (to the end), Up/Down (earlier entries), and Tab
 * (complete a path, in the prompts that take one: pathcomplete.h).
 *
 * A suggested value (the file's name in Save as, the last search in Find)
 * starts *selected*: the first character typed replaces it whole, while
 * an edit key (Left, End, Backspace...) keeps it to be edited.
 *
 * Invariants: buf[0..len) is valid UTF-8 and buf[len] is NUL; cur is a
 * code-point boundary in [0, len]; len < LE_MAX. A history holds at most
 * LE_HISTORY entries, newest last, none empty, no two in a row the same.
 */
#ifndef LINEEDIT_H
#define LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#define LE_MAX 1024
#define LE_HISTORY 20

struct le_history {
	char item[LE_HISTORY][LE_MAX];
	size_t n;
};

struct lineedit {
	char buf[LE_MAX];
	size_t len, cur;
	bool suggested;          /* the whole text is a selected suggestion */
	int hist_at;             /* the history entry shown; -1: the typed text */
	char typed[LE_MAX];      /* what was typed before Up went back */
	char note[160];          /* what Tab found ("3 matches: ..."), or "" */
};

/* Starts the field with text (NULL: empty); suggested selects it. */
void le_set(struct lineedit *le, const char *text, bool suggested);

/* The field's text as the user will get it (always NUL-terminated). */
static inline const char *le_text(const struct lineedit *le)
{
	return le->buf;
}

enum le_result {
	LE_UNUSED,   /* not a field key: the caller's (Enter, Esc, F-keys...) */
	LE_MOVED,    /* the cursor moved; the text is the same */
	LE_CHANGED,  /* the text changed */
};

/* One key from wget_wch (is_key = KEY_CODE_YES). hist (may be NULL) is
 * what Up/Down walk; paths turns Tab into path completion. */
enum le_result le_key(struct lineedit *le, bool is_key, wint_t ch,
		      const struct le_history *hist, bool paths);

/* Inserts UTF-8 text at the cursor (a paste): control characters are
 * dropped, and a character cut at the end of the room is dropped whole. */
void le_insert(struct lineedit *le, const char *s, size_t n);

/* Cells from the start of the text to the cursor, and in all. */
int le_cursor_cells(const struct lineedit *le);

/* Remembers text (not empty, not the same as the newest entry). */
void le_history_add(struct le_history *h, const char *text);

#endif
