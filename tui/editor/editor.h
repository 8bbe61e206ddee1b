/* SPDX-License-Identifier: MIT */
/*
 * editor.h - the Editor pane's component: a Python-aware text editor.
 *
 * Invariants:
 *  - The text is bytes (textbuf.h): whatever a file holds, including
 *    invalid UTF-8, CRs and NULs, is saved back byte for byte unless the
 *    user edits it (but for the final newline, see below). Invalid bytes are drawn visibly (\xNN), never dropped.
 *  - The cursor and the selection's anchor always sit on a grapheme
 *    cluster boundary (utf8text.h); every move and delete is by cluster.
 *  - Columns are display cells: CJK and emoji take 2, tabs expand to the
 *    next multiple of EDITOR_TAB_WIDTH, and typing Tab inserts spaces.
 *  - editor_draw() paints only inside the rectangle it is given and never
 *    calls refresh; the app owns the border, the title and the refresh.
 *  - A failed open or save leaves the buffer and its path as they were
 *    and fills err with a message fit to show ("PATH: reason").
 *  - Saves are atomic (temp file in the same directory, fsync, rename,
 *    fsync of the directory) and keep the file's permission bits. A
 *    saved file ends with a newline: one is added to the buffer when the
 *    text lacks it (an undo step of its own).
 */
#ifndef SP_EDITOR_H
#define SP_EDITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <ncurses.h>

#define EDITOR_TAB_WIDTH 4

struct theme;
struct editor;

/* A new empty, unmodified editor without a path; NULL when out of memory. */
struct editor *editor_new(void);

/* Frees the editor and everything it owns; NULL is fine. */
void editor_free(struct editor *ed);

/* Loads path. 0 ok; -1 with err filled and the buffer unchanged. A file
 * that does not exist opens as an empty buffer with that path. */
int editor_open(struct editor *ed, const char *path, char *err, size_t errlen);

/* Saves atomically to path (NULL = the current path), which then becomes
 * the current path. 0 ok, -1 with err filled (nothing changed). */
int editor_save(struct editor *ed, const char *path, char *err, size_t errlen);

/* Replaces the text (e.g. with a demo): no path, unmodified, no history. */
void editor_set_text(struct editor *ed, const char *text, size_t len, const char *name);

/* Gives the buffer a file (a restored recovery's own): the path and name
 * change, the text and the modified flag do not. */
void editor_adopt_path(struct editor *ed, const char *path);

/* Replaces the whole text as one edit: Ctrl-Z brings the old text back
 * (the path stays; unlike editor_set_text, nothing is forgotten). */
void editor_replace_all(struct editor *ed, const char *text, size_t len);

/* A malloc'd copy of the bytes (NUL-terminated for convenience, *len
 * excludes the NUL); NULL when out of memory. The caller frees it. */
char *editor_text(const struct editor *ed, size_t *len);

/* The current file's path, NULL if none. */
const char *editor_path(const struct editor *ed);

/* The basename or demo name (for titles and tracebacks); never NULL. */
const char *editor_name(const struct editor *ed);

/* True when the text differs from the last open/save/set_text. */
bool editor_modified(const struct editor *ed);

/* Handles one key from wget_wch() (is_key: it returned KEY_CODE_YES).
 * Returns true if the editor used it. Keys are listed in docs/editor.md.
 * Ctrl-C is used only when there is a selection (copy); Esc only to clear
 * a selection or close a prompt; everything else the app binds (F-keys,
 * Ctrl-Q, Ctrl-S, Ctrl-R, KEY_RESIZE, KEY_MOUSE) is left to the app. */
bool editor_key(struct editor *ed, bool is_key, wint_t ch);

/* Bracketed paste: inserts text as it is (CR and CRLF become LF, as
 * terminals send Enter as CR), replacing the selection, with no
 * auto-indent, as one undo step. */
void editor_paste(struct editor *ed, const char *text, size_t len);

/* Moves the cursor to a click at (row, col) inside the last drawn
 * rectangle (0-based, gutter included). */
void editor_mouse_click(struct editor *ed, int row, int col);

/* Scrolls the view by lines (negative = up) without moving the cursor. */
void editor_scroll(struct editor *ed, int lines);

/* Opens the find prompt (Ctrl-F), with the selection or the last search
 * suggested (selected: typing replaces it). Inside it: typing searches as
 * you type, Enter/Ctrl-N next, Ctrl-P previous, Up/Down earlier searches,
 * Tab exact / ignore case, Ctrl-F replace, Esc closes. */
void editor_begin_find(struct editor *ed);

/* Opens the go-to-line prompt: digits, Enter goes, Esc cancels. */
void editor_begin_goto(struct editor *ed);

/* True while a find or go-to prompt is open (it wants every key). */
bool editor_prompt_active(const struct editor *ed);

/* Draws the text area with line numbers into the rectangle (y, x, h, w) of
 * win (the prompt, when open, takes its last row). */
void editor_draw(struct editor *ed, WINDOW *win, int y, int x, int h, int w,
		 const struct theme *th, bool focused);

/* The cursor as 1-based line and 1-based display column. */
void editor_cursor_pos(const struct editor *ed, long *line, long *col);

/* Where the terminal cursor belongs after the last editor_draw(); *y is
 * -1 when the cursor's line is scrolled out of view (hide the cursor). */
void editor_screen_cursor(const struct editor *ed, int *y, int *x);

/* Writes the text atomically to recovery_path with mode 0600. 0 or -1
 * with err filled. Does not change the path or the modified flag. */
int editor_recovery_write(struct editor *ed, const char *recovery_path, char *err, size_t errlen);

/* Marks line (1-based) as the error/violation line, drawn in the error
 * style; 0 clears. Returns 0, or -1 if line is past the end (cleared). */
int editor_error_line(struct editor *ed, long line);

/* Gutter marks: glyphs[i] (one cell of UTF-8) beside lines[i] (1-based),
 * replacing the last marks; at most EDITOR_MAX_MARKS are kept. The app
 * marks the lines that had violations, by kind. n 0 clears. */
#define EDITOR_MAX_MARKS 64
void editor_set_marks(struct editor *ed, const long *lines,
		      const char *const *glyphs, size_t n);

/* Scrolls line (1-based) to the middle of the view at the next draw,
 * without moving the cursor (a key that moves it follows it again). */
void editor_show_line(struct editor *ed, long line);

/* --- Extras (not needed by the app, used by tests and bindings) --- */

/* Moves the cursor to line (1-based, clamped) and its first column. */
void editor_goto_line(struct editor *ed, long line);

/* Finds the next (backward: previous) match of the last search, wrapping.
 * Returns false when there is none. */
bool editor_find_next(struct editor *ed, bool backward);

/* Sets the search text without a prompt (tests, "find again"). */
void editor_set_search(struct editor *ed, const char *needle, size_t len);

/* Matching ignores ASCII case (on) or is exact (off, the default). */
void editor_set_ignore_case(struct editor *ed, bool on);

/* The internal clipboard (what Ctrl-C, Ctrl-X or Ctrl-K took last), NULL
 * when empty; *version changes whenever it does, so the app can hand a
 * new copy to the system clipboard (clipboard.h). */
const char *editor_clipboard(const struct editor *ed, size_t *len,
			     unsigned long *version);

/* The selected bytes as a malloc'd copy (*len set); NULL when none. */
char *editor_selection(const struct editor *ed, size_t *len);

/* The cursor as a byte offset into the text. */
size_t editor_cursor_offset(const struct editor *ed);

/* Line and column (1-based) of the bracket matching the one at (or just
 * before) the cursor; false when there is none. */
bool editor_matching_bracket(struct editor *ed, long *line, long *col);

#endif
