/* SPDX-License-Identifier: MIT */
/*
 * editor_impl.h - the editor component's internals. PRIVATE to the
 * editor_*.c files (editor.c, editor_select.c, editor_prompt.c,
 * editor_syntax.c, editor_file.c, editor_draw.c); everything else uses
 * editor.h.
 *
 * Invariants of struct editor:
 *  - tb owns the text. cur is a byte offset in [0, tb_len] on a
 *    grapheme-cluster boundary; so is anchor, which means something only
 *    while sel is set. The selection is the range between the two and is
 *    empty when they are equal (ed_sel_range()).
 *  - want_col is the display column vertical moves aim for, or -1 to take
 *    the cursor's.
 *  - Highlighting keeps one hl_state per line start (hls[]); hls[i] is valid
 *    for i < hls_valid. An edit lowers hls_valid to the first changed line,
 *    and drawing recomputes only from there down to the last visible line:
 *    since the cursor is always in view, an edit costs a screenful at most.
 *    hls has room for hls_cap states and cls (one line's classes, scratch)
 *    for cls_cap bytes.
 *  - path, clip (cliplen bytes), replacement and needle (needle_len bytes
 *    and a NUL) are malloc'd or NULL; name is malloc'd, NULL only after running out of
 *    memory (editor_name() covers that).
 *  - field is the open prompt's text; field, note, find_origin and
 *    rep_count mean something only while prompt != P_NONE.
 *  - view_*, gutter and scr_* are what the last editor_draw() left (scr_y
 *    is -1 when the cursor's line was out of view).
 */
#ifndef SP_EDITOR_IMPL_H
#define SP_EDITOR_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#include "editor/editor.h"
#include "text/highlight.h"
#include "editor/lineedit.h"

#define TABW EDITOR_TAB_WIDTH

enum prompt { P_NONE, P_FIND, P_GOTO, P_REPLACE, P_REPLACE_ASK };

struct ed_mark {
	long line;             /* 1-based */
	char glyph[8];         /* one cell of UTF-8 */
};

struct editor {
	struct textbuf *tb;
	size_t cur;            /* cursor: byte offset on a cluster boundary */
	size_t anchor;         /* the selection's other end, when sel */
	bool sel;
	long want_col;         /* column for vertical moves; -1: take the cursor's */
	size_t top;            /* first line shown */
	long left;             /* first column shown */
	bool follow;           /* scroll so the cursor shows (off after a wheel scroll) */
	long centre;           /* line to centre at the next draw (0: none) */
	int view_h, view_w;    /* text rows and columns of the last draw */
	int view_y, view_x, gutter;
	int scr_y, scr_x;
	char *path, *name;
	char *clip;            /* internal clipboard */
	size_t cliplen;
	unsigned long clip_version; /* changes whenever clip does */
	bool cutting_lines;    /* the last key was Ctrl-K (the next one appends) */
	enum prompt prompt;
	struct lineedit field; /* the open prompt's text */
	char note[80];         /* shown in the prompt row: "not found" */
	size_t find_origin;
	char *needle;          /* last search */
	size_t needle_len;
	bool find_icase;       /* matching ignores case (Tab in Find) */
	char *replacement;     /* last replacement text */
	size_t rep_count;      /* replaced since the replace prompt opened */
	struct le_history find_hist, goto_hist, rep_hist;
	long error_line;       /* 1-based, 0 none */
	struct ed_mark marks[EDITOR_MAX_MARKS]; /* gutter marks (editor_marks.c) */
	size_t n_marks;
	hl_state *hls;
	size_t hls_cap, hls_valid;
	unsigned char *cls;    /* per-byte classes of one line (scratch) */
	size_t cls_cap;
};

/* ---- editor_marks.c ------------------------------------------------ */

/* The gutter mark of line (1-based), or NULL. */
const char *ed_mark_at(const struct editor *ed, long line);

/* ---- editor_buffer.c ------------------------------------------------ */

/* Line of the cursor (0-based). */
size_t ed_cur_line(const struct editor *ed);

/* Bytes of line (no '\n', *len set); valid until the gap next moves. */
const char *ed_line_bytes(struct editor *ed, size_t line, size_t *len);

/* Display column of the cursor (0-based). */
long ed_cur_col(struct editor *ed);

/* Resets cursor, selection, scroll, prompt and highlight states (new text). */
void ed_reset_view(struct editor *ed);

/* Frees *dst and sets it to a copy of src (NULL for NULL or no memory). */
void ed_set_str(char **dst, const char *src);

/* UTF-8 of ch into mb (>= 4 bytes); its length, 0 for a non-scalar value. */
size_t ed_encode(wint_t ch, char *mb);

/* Undo (redo: redo) one step, the cursor where the change was. */
void ed_undo_redo(struct editor *ed, bool redo);

/* Starts the selection around a move (shift held) or ends it. */
void ed_pre_move(struct editor *ed, bool shift);

/* ---- editor_select.c ------------------------------------------------ */

/* Inserts n bytes at the cursor, replacing the selection (one undo step). */
void ed_insert_bytes(struct editor *ed, const char *s, size_t n);

/* Ordered selection bounds; false when there is no (non-empty) selection. */
bool ed_sel_range(const struct editor *ed, size_t *a, size_t *b);

/* The lines a line command works on: the selection's (one ending at
 * column 0 leaves that last line out) or the cursor's. True when there was
 * a selection. */
bool ed_sel_lines(const struct editor *ed, size_t *l0, size_t *l1);

/* Deletes the selection, if any, and ends it; true when it deleted. */
bool ed_delete_selection(struct editor *ed);

/* Copies the selection to the clipboard; true if there was one. */
bool ed_copy(struct editor *ed);

/* Cuts the selection, or the whole line when there is none. */
void ed_cut(struct editor *ed);

/* Cuts the whole lines of the cursor or the selection (Ctrl-K); append
 * adds them to the clipboard instead of replacing it. */
void ed_cut_lines(struct editor *ed, bool append);

/* ---- editor_comment.c ----------------------------------------------- */

/* Ctrl-/: comments the cursor's line or the selected lines out with "# ",
 * or, when every non-blank one is a comment already, back in. One undo
 * step; the selection still covers the same lines afterwards. */
void ed_toggle_comment(struct editor *ed);

/* ---- editor_prompt.c ------------------------------------------------ */

/* A key while a prompt is open; false for keys left to the app. */
bool ed_prompt_key(struct editor *ed, bool is_key, wint_t ch);

/* ---- editor_search.c ------------------------------------------------ */

/* The first match of the search in hay[0..hlen) (exact, or ignoring case
 * when find_icase), its length in bytes in *mlen; NULL when none. */
const char *ed_match(const struct editor *ed, const char *hay, size_t hlen, size_t *mlen);

/* Offset of the first match at or after from (backward: the last before
 * it), wrapping around when wrap, its length in *mlen; -1 when none. */
long ed_search(struct editor *ed, size_t from, bool backward, bool wrap, size_t *mlen);

/* ---- editor_replace.c ----------------------------------------------- */

/* Ctrl-F in the find prompt: asks for the replacement (needs a search). */
void ed_begin_replace(struct editor *ed);

/* A key while the replace prompt or its question is up. */
bool ed_replace_key(struct editor *ed, bool is_key, wint_t ch);

/* Esc while replacing: the match is no longer selected. */
void ed_end_replace(struct editor *ed);

/* ---- editor_syntax.c ------------------------------------------------ */

/* Makes hls[0..line] valid (line clamped); false when out of memory. */
bool ed_ensure_states(struct editor *ed, size_t line);

/* Classes of line into ed->cls; its bytes as ed_line_bytes; NULL: no memory. */
const char *ed_classify(struct editor *ed, size_t line, size_t *len);

/* The code bracket at or before the cursor and its partner; false if none. */
bool ed_find_brackets(struct editor *ed, size_t *at, size_t *match);

#endif
