/* SPDX-License-Identifier: MIT */
/*
 * textbuf.h - the editor's text: a gap buffer of bytes, a line index and an
 * undo history grouped by typing run.
 *
 * Invariants (checked by tb_check() and the fuzz target):
 *  - The bytes are exactly what was loaded plus the edits; no byte is ever
 *    changed on its own (invalid UTF-8, NULs and CRs are kept as they are).
 *  - There is always at least one line; line i starts right after the i-th
 *    '\n' (line 0 at offset 0), so tb_lines() == number of '\n' + 1.
 *  - Offsets are byte offsets into the logical text, 0 <= off <= tb_len().
 *  - Undo restores the exact bytes of the state before a group; redo the
 *    state after it. Any new edit discards the redo tail.
 *
 * The buffer is byte-oriented on purpose: grapheme rules live in utf8text.h
 * and the editor only edits at cluster boundaries.
 * No terminal code here, so the tests and the fuzz target use it directly.
 */
#ifndef SP_TEXTBUF_H
#define SP_TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>

struct textbuf;

/* A new empty buffer (one empty line); NULL only when out of memory. */
struct textbuf *tb_new(void);

/* Frees the buffer and its history; NULL is fine. */
void tb_free(struct textbuf *tb);

/* Replaces all text with s[0..n), clears the history, marks it unmodified.
 * Returns 0, or -1 when out of memory (buffer unchanged). */
int tb_set(struct textbuf *tb, const char *s, size_t n);

/* Number of bytes of text. */
size_t tb_len(const struct textbuf *tb);

/* Number of lines (>= 1). */
size_t tb_lines(const struct textbuf *tb);

/* Offset of the first byte of line (0-based); line must be < tb_lines(). */
size_t tb_line_start(const struct textbuf *tb, size_t line);

/* Offset just past the line's last byte, excluding its '\n'. */
size_t tb_line_end(const struct textbuf *tb, size_t line);

/* The line (0-based) that holds offset off (off == tb_len() is the last). */
size_t tb_line_of(const struct textbuf *tb, size_t off);

/* The byte at off (< tb_len()). */
unsigned char tb_byte(const struct textbuf *tb, size_t off);

/* Copies up to n bytes from off into dst; returns how many were copied. */
size_t tb_copy(const struct textbuf *tb, size_t off, size_t n, char *dst);

/* A contiguous view of [off, off+n): may move the gap, so the text stays
 * the same but earlier pointers from this call become invalid. */
const char *tb_view(struct textbuf *tb, size_t off, size_t n);

/* A contiguous view of line's bytes without its '\n'; *len gets the size. */
const char *tb_line_view(struct textbuf *tb, size_t line, size_t *len);

/* Inserts s[0..n) at off and records it for undo. 0, or -1 out of memory. */
int tb_insert(struct textbuf *tb, size_t off, const char *s, size_t n);

/* Deletes [off, off+n) (clamped to the text) and records it for undo.
 * 0, or -1 out of memory. */
int tb_delete(struct textbuf *tb, size_t off, size_t n);

/* Ends the current undo group: the next edit starts a new one (cursor
 * moves, saves and pastes call this). */
void tb_break_group(struct textbuf *tb);

/* Between begin and end every edit joins one undo group (nestable). */
void tb_group_begin(struct textbuf *tb);
void tb_group_end(struct textbuf *tb);

/* Undoes the last group; *cursor gets where the cursor belongs.
 * Returns false when there is nothing to undo. */
bool tb_undo(struct textbuf *tb, size_t *cursor);

/* Redoes the next group; *cursor as for tb_undo. False when none. */
bool tb_redo(struct textbuf *tb, size_t *cursor);

/* True when the text differs (by history position) from the last
 * tb_mark_saved() or tb_set(). */
bool tb_modified(const struct textbuf *tb);

/* Records the current state as the saved one. */
void tb_mark_saved(struct textbuf *tb);

/* A counter that changes on every change of text (edit, undo, redo, set):
 * lets callers cache per-line data. */
unsigned long tb_version(const struct textbuf *tb);

/* The first line whose bytes changed since the caller last cleared it
 * (tb_clear_dirty); (size_t)-1 when none did. */
size_t tb_dirty_line(const struct textbuf *tb);
void tb_clear_dirty(struct textbuf *tb);

/* Checks every invariant above; returns NULL or a description of the
 * first one broken (for tests and fuzzing, O(n)). */
const char *tb_check(const struct textbuf *tb);

#endif
