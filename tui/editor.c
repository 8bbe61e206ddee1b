/*
 * editor.c - the editor component: editing commands, prompts, files and
 * the drawing of one frame.
 *
 * The text lives in a textbuf (bytes, lines, undo); this file adds the
 * cursor, which is a byte offset kept on a grapheme-cluster boundary, and
 * everything a person expects around it. Vertical moves aim for a display
 * column (want_col) so that moving through a short line and back returns
 * to the same column, as in every editor.
 *
 * Highlighting keeps one hl_state per line start (hls[]); hls[i] is valid
 * for i < hls_valid. An edit lowers hls_valid to the first changed line,
 * and drawing recomputes only from there down to the last visible line:
 * since the cursor is always in view, an edit costs a screenful at most.
 *
 * Sections: state; small helpers; moves; edits; find and go-to; keys;
 * files; drawing.
 */
#include "editor.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utf8proc.h>

#include "highlight.h"
#include "textbuf.h"
#include "theme.h"
#include "utf8text.h"

#include "banned.h"

#define TABW EDITOR_TAB_WIDTH
#define MAX_FILE (256u << 20)      /* larger files are refused, not mangled */
#define BRACKET_SCAN_LINES 2000    /* how far bracket matching looks */

enum prompt { P_NONE, P_FIND, P_GOTO };

struct editor {
	struct textbuf *tb;
	size_t cur;            /* cursor: byte offset on a cluster boundary */
	size_t anchor;         /* the selection's other end, when sel */
	bool sel;
	long want_col;         /* column for vertical moves; -1: take the cursor's */
	size_t top;            /* first line shown */
	long left;             /* first column shown */
	bool follow;           /* scroll so the cursor shows (off after a wheel scroll) */
	int view_h, view_w;    /* text rows and columns of the last draw */
	int view_y, view_x, gutter;
	int scr_y, scr_x;
	char *path, *name;
	char *clip;            /* internal clipboard */
	size_t cliplen;
	enum prompt prompt;
	char input[256];
	size_t ilen;
	char note[80];         /* shown in the prompt row: "not found" */
	size_t find_origin;
	char *needle;          /* last search */
	size_t needle_len;
	long error_line;       /* 1-based, 0 none */
	hl_state *hls;
	size_t hls_cap, hls_valid;
	unsigned char *cls;    /* per-byte classes of one line (scratch) */
	size_t cls_cap;
};

/* ---- small helpers ------------------------------------------------ */

/* Line of the cursor (0-based). */
static size_t cur_line(const struct editor *ed)
{
	return tb_line_of(ed->tb, ed->cur);
}

/* Bytes of a line (no '\n'); the pointer lasts until the next tb call
 * that may move the gap. */
static const char *line_bytes(struct editor *ed, size_t line, size_t *len)
{
	return tb_line_view(ed->tb, line, len);
}

/* Display column of the cursor (0-based). */
static long cur_col(struct editor *ed)
{
	size_t line = cur_line(ed), len;
	const char *s = line_bytes(ed, line, &len);
	return u8_col_of(s, len, ed->cur - tb_line_start(ed->tb, line), TABW);
}

/* Ordered selection bounds; false when there is no (non-empty) selection. */
static bool sel_range(const struct editor *ed, size_t *a, size_t *b)
{
	if (!ed->sel || ed->anchor == ed->cur)
		return false;
	*a = ed->anchor < ed->cur ? ed->anchor : ed->cur;
	*b = ed->anchor < ed->cur ? ed->cur : ed->anchor;
	return true;
}

/* Makes room for n bytes of classes. */
static bool cls_reserve(struct editor *ed, size_t n)
{
	if (n <= ed->cls_cap)
		return true;
	size_t cap = n * 2 + 256;
	unsigned char *c = realloc(ed->cls, cap);
	if (!c)
		return false;
	ed->cls = c;
	ed->cls_cap = cap;
	return true;
}

/* Makes hls[0..line] valid, after noting what the buffer changed.
 * Returns false when out of memory (then no state past hls_valid). */
static bool ensure_states(struct editor *ed, size_t line)
{
	size_t dirty = tb_dirty_line(ed->tb);
	if (dirty != (size_t)-1) {
		if (dirty + 1 < ed->hls_valid)
			ed->hls_valid = dirty + 1;
		tb_clear_dirty(ed->tb);
	}
	size_t n = tb_lines(ed->tb);
	if (line >= n)
		line = n - 1;
	if (ed->hls_cap < n + 1) {
		size_t cap = n + n / 2 + 64;
		hl_state *h = realloc(ed->hls, cap * sizeof *h);
		if (!h)
			return false;
		ed->hls = h;
		ed->hls_cap = cap;
	}
	if (ed->hls_valid == 0) {
		ed->hls[0] = HL_START;
		ed->hls_valid = 1;
	}
	while (ed->hls_valid <= line) {
		size_t i = ed->hls_valid, len;
		const char *s = line_bytes(ed, i - 1, &len);
		ed->hls[i] = hl_line(s, len, ed->hls[i - 1], NULL);
		ed->hls_valid++;
	}
	return true;
}

/* Classes of line into ed->cls; returns its bytes (valid until the next
 * buffer call) or NULL when out of memory. */
static const char *classify(struct editor *ed, size_t line, size_t *len)
{
	if (!ensure_states(ed, line))
		return NULL;
	const char *s = line_bytes(ed, line, len);
	if (!cls_reserve(ed, *len + 1))
		return NULL;
	hl_line(s, *len, ed->hls[line], ed->cls);
	return s;
}

/* Resets view and history-independent state after new text arrives. */
static void reset_view(struct editor *ed)
{
	ed->cur = ed->anchor = 0;
	ed->sel = false;
	ed->want_col = -1;
	ed->top = 0;
	ed->left = 0;
	ed->follow = true;
	ed->prompt = P_NONE;
	ed->hls_valid = 0;
	ed->error_line = 0;
	tb_clear_dirty(ed->tb);
}

/* Replaces *dst with a copy of src (NULL allowed). */
static void set_str(char **dst, const char *src)
{
	char *c = src ? strdup(src) : NULL;
	free(*dst);
	*dst = c;
}

/* UTF-8 of a typed character into mb (>= 4 bytes); 0 if it is not a
 * Unicode scalar value. */
static size_t encode(wint_t ch, char *mb)
{
	if (ch > 0x10ffff || (ch >= 0xd800 && ch <= 0xdfff))
		return 0;
	return (size_t)utf8proc_encode_char((utf8proc_int32_t)ch, (utf8proc_uint8_t *)mb);
}

/* ---- lifecycle ----------------------------------------------------- */

struct editor *editor_new(void)
{
	struct editor *ed = calloc(1, sizeof *ed);
	if (!ed)
		return NULL;
	ed->tb = tb_new();
	ed->name = strdup("untitled");
	if (!ed->tb || !ed->name) {
		editor_free(ed);
		return NULL;
	}
	reset_view(ed);
	return ed;
}

void editor_free(struct editor *ed)
{
	if (!ed)
		return;
	tb_free(ed->tb);
	free(ed->path);
	free(ed->name);
	free(ed->clip);
	free(ed->needle);
	free(ed->hls);
	free(ed->cls);
	free(ed);
}

void editor_set_text(struct editor *ed, const char *text, size_t len, const char *name)
{
	if (tb_set(ed->tb, text, len) < 0)
		return;
	set_str(&ed->path, NULL);
	set_str(&ed->name, name ? name : "untitled");
	reset_view(ed);
}

char *editor_text(const struct editor *ed, size_t *len)
{
	size_t n = tb_len(ed->tb);
	char *s = malloc(n + 1);
	if (!s)
		return NULL;
	tb_copy(ed->tb, 0, n, s);
	s[n] = '\0';
	if (len)
		*len = n;
	return s;
}

const char *editor_path(const struct editor *ed)
{
	return ed->path;
}

const char *editor_name(const struct editor *ed)
{
	return ed->name ? ed->name : "untitled";
}

bool editor_modified(const struct editor *ed)
{
	return tb_modified(ed->tb);
}

size_t editor_cursor_offset(const struct editor *ed)
{
	return ed->cur;
}

void editor_cursor_pos(const struct editor *ed, long *line, long *col)
{
	struct editor *m = (struct editor *)ed;   /* views may move the gap only */
	*line = (long)cur_line(ed) + 1;
	*col = cur_col(m) + 1;
}

void editor_screen_cursor(const struct editor *ed, int *y, int *x)
{
	*y = ed->scr_y;
	*x = ed->scr_x;
}

int editor_error_line(struct editor *ed, long line)
{
	if (line < 0 || (size_t)line > tb_lines(ed->tb)) {
		ed->error_line = 0;
		return -1;
	}
	ed->error_line = line;
	return 0;
}

/* ---- moves --------------------------------------------------------- */

/* Starts or ends the selection around a move (shift held or not). */
static void pre_move(struct editor *ed, bool shift)
{
	if (shift && !ed->sel) {
		ed->sel = true;
		ed->anchor = ed->cur;
	} else if (!shift) {
		ed->sel = false;
	}
	tb_break_group(ed->tb);
	ed->follow = true;
}

/* Offset of the cluster boundary after (dir > 0) or before the cursor. */
static size_t step_cluster(struct editor *ed, size_t off, int dir)
{
	size_t line = tb_line_of(ed->tb, off), ls = tb_line_start(ed->tb, line), len;
	const char *s = line_bytes(ed, line, &len);
	size_t rel = off - ls;
	if (dir > 0) {
		if (rel >= len)     /* at the end: over the '\n' */
			return off < tb_len(ed->tb) ? off + 1 : off;
		return ls + u8_next(s, len, rel);
	}
	if (rel == 0)
		return off > 0 ? off - 1 : 0;
	return ls + u8_prev(s, len, rel);
}

/* Moves to the start of the next or previous word. */
static size_t step_word(struct editor *ed, size_t off, int dir)
{
	size_t end = tb_len(ed->tb);
	/* Skip non-word clusters, then word clusters (or the reverse going left). */
	for (int phase = 0; phase < 2; phase++) {
		for (;;) {
			size_t o = dir > 0 ? off : step_cluster(ed, off, -1);
			if ((dir > 0 && off >= end) || (dir < 0 && off == 0))
				return off;
			char b[4];
			uint32_t cp;
			size_t n = tb_copy(ed->tb, o, 4, b);
			if (!u8_decode(b, n, &cp))
				cp = 0xfffd;
			if (u8_is_word(cp) != (phase == 1))
				break;
			off = dir > 0 ? step_cluster(ed, off, 1) : o;
		}
	}
	return off;
}

/* Offset in line at display column col (clamped to the line). */
static size_t off_at_col(struct editor *ed, size_t line, long col)
{
	size_t len;
	const char *s = line_bytes(ed, line, &len);
	return tb_line_start(ed->tb, line) + u8_off_of_col(s, len, col, TABW);
}

/* Moves the cursor dl lines keeping the wanted column. */
static void move_lines(struct editor *ed, long dl)
{
	if (ed->want_col < 0)
		ed->want_col = cur_col(ed);
	long line = (long)cur_line(ed) + dl, n = (long)tb_lines(ed->tb);
	if (line < 0) {
		ed->cur = 0;
		return;
	}
	if (line >= n) {
		ed->cur = tb_len(ed->tb);
		return;
	}
	ed->cur = off_at_col(ed, (size_t)line, ed->want_col);
}

/* Home: first non-blank, or the line start when already there. */
static size_t smart_home(struct editor *ed)
{
	size_t line = cur_line(ed), ls = tb_line_start(ed->tb, line), le = tb_line_end(ed->tb, line);
	size_t p = ls;
	while (p < le && (tb_byte(ed->tb, p) == ' ' || tb_byte(ed->tb, p) == '\t'))
		p++;
	return ed->cur == p ? ls : p;
}

void editor_goto_line(struct editor *ed, long line)
{
	long n = (long)tb_lines(ed->tb);
	if (line < 1)
		line = 1;
	if (line > n)
		line = n;
	pre_move(ed, false);
	ed->cur = tb_line_start(ed->tb, (size_t)line - 1);
	ed->want_col = -1;
}

/* ---- edits --------------------------------------------------------- */

/* Deletes the selection, if any; true when it did. */
static bool delete_selection(struct editor *ed)
{
	size_t a, b;
	bool had = sel_range(ed, &a, &b);
	ed->sel = false;
	if (!had)
		return false;
	tb_delete(ed->tb, a, b - a);
	ed->cur = a;
	return true;
}

/* Inserts bytes at the cursor, replacing the selection (one undo step). */
static void insert_bytes(struct editor *ed, const char *s, size_t n)
{
	tb_group_begin(ed->tb);
	delete_selection(ed);
	if (tb_insert(ed->tb, ed->cur, s, n) == 0)
		ed->cur += n;
	tb_group_end(ed->tb);
	ed->want_col = -1;
	ed->follow = true;
}

/* Types text as from the keyboard: joins the current typing run. */
static void type_bytes(struct editor *ed, const char *s, size_t n)
{
	size_t a, b;
	if (sel_range(ed, &a, &b)) {
		insert_bytes(ed, s, n);
		tb_break_group(ed->tb);
		return;
	}
	ed->sel = false;
	if (tb_insert(ed->tb, ed->cur, s, n) == 0)
		ed->cur += n;
	ed->want_col = -1;
	ed->follow = true;
}

/* True when the last code byte before the cursor on its line is ':'
 * (strings and comments do not count). */
static bool opens_block(struct editor *ed, size_t line, size_t upto)
{
	size_t len;
	const char *s = classify(ed, line, &len);
	if (!s)
		return false;
	for (size_t i = upto < len ? upto : len; i > 0; i--) {
		unsigned char c = (unsigned char)s[i - 1];
		if (ed->cls[i - 1] == HL_COMMENT || c == ' ' || c == '\t')
			continue;
		return c == ':' && ed->cls[i - 1] == HL_TEXT;
	}
	return false;
}

/* True when the line's code is a statement after which the block ends. */
static bool closes_block(const char *s, size_t len)
{
	static const char *const words[] = { "return", "pass", "break", "continue", "raise" };
	while (len && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t n = strlen(words[i]);
		if (len >= n && !memcmp(s, words[i], n) &&
		    (len == n || s[n] == ' ' || s[n] == '(' || s[n] == '#'))
			return true;
	}
	return false;
}

/* Enter: newline, keeping the indent; one step more after ':', one less
 * after return/pass/break/continue/raise. */
static void newline(struct editor *ed)
{
	size_t line = cur_line(ed), ls = tb_line_start(ed->tb, line);
	size_t rel = ed->cur - ls;
	bool more = opens_block(ed, line, rel);
	size_t len;
	const char *s = line_bytes(ed, line, &len);
	size_t ind = 0;
	while (ind < len && ind < rel && (s[ind] == ' ' || s[ind] == '\t'))
		ind++;
	bool less = !more && closes_block(s, rel);
	char buf[512];
	size_t n = 0;
	buf[n++] = '\n';
	if (ind > sizeof buf - 8)
		ind = sizeof buf - 8;
	memcpy(buf + n, s, ind);
	n += ind;
	if (more) {
		memcpy(buf + n, "    ", TABW);
		n += TABW;
	} else if (less) {
		long col = u8_col_of(s, len, ind, TABW);
		long target = col >= TABW ? (col - 1) / TABW * TABW : 0;
		n = 1 + (size_t)u8_off_of_col(s, ind, target, TABW);
	}
	tb_break_group(ed->tb);
	insert_bytes(ed, buf, n);
}

/* Backspace: the selection, an indent step in leading spaces, the newline
 * at a line start, or one cluster. */
static void backspace(struct editor *ed)
{
	if (delete_selection(ed)) {
		tb_break_group(ed->tb);
		return;
	}
	size_t line = cur_line(ed), ls = tb_line_start(ed->tb, line);
	size_t rel = ed->cur - ls;
	if (rel == 0) {
		if (ed->cur > 0) {
			tb_delete(ed->tb, ed->cur - 1, 1);
			ed->cur--;
		}
		return;
	}
	size_t len;
	const char *s = line_bytes(ed, line, &len);
	size_t k = 0;
	while (k < rel && s[k] == ' ')
		k++;
	size_t n;
	if (k == rel) {                       /* only spaces before the cursor */
		n = rel % TABW ? rel % TABW : TABW;
	} else {
		n = rel - u8_prev(s, len, rel);
	}
	tb_delete(ed->tb, ed->cur - n, n);
	ed->cur -= n;
}

/* Delete: the selection or the cluster (or newline) after the cursor. */
static void delete_forward(struct editor *ed)
{
	if (delete_selection(ed)) {
		tb_break_group(ed->tb);
		return;
	}
	size_t next = step_cluster(ed, ed->cur, 1);
	tb_delete(ed->tb, ed->cur, next - ed->cur);
}

/* Indents (dir > 0) or dedents every line of the selection by one step. */
static void indent_lines(struct editor *ed, int dir)
{
	size_t a, b;
	if (!sel_range(ed, &a, &b))
		a = b = ed->cur;
	size_t l0 = tb_line_of(ed->tb, a), l1 = tb_line_of(ed->tb, b);
	if (l1 > l0 && b == tb_line_start(ed->tb, l1))
		l1--;                      /* a selection ending at column 0 */
	tb_group_begin(ed->tb);
	long shift_cur = 0, shift_anchor = 0;
	for (size_t l = l0; l <= l1; l++) {
		size_t ls = tb_line_start(ed->tb, l);
		size_t n = 0;
		if (dir > 0) {
			tb_insert(ed->tb, ls, "    ", TABW);
			n = TABW;
		} else {
			while (n < TABW && ls + n < tb_line_end(ed->tb, l) && tb_byte(ed->tb, ls + n) == ' ')
				n++;
			tb_delete(ed->tb, ls, n);
		}
		if (ed->cur >= ls)
			shift_cur += dir > 0 ? (long)n : -(long)(ed->cur - ls < n ? ed->cur - ls : n);
		if (ed->anchor >= ls)
			shift_anchor += dir > 0 ? (long)n : -(long)(ed->anchor - ls < n ? ed->anchor - ls : n);
	}
	tb_group_end(ed->tb);
	ed->cur = (size_t)((long)ed->cur + shift_cur);
	ed->anchor = (size_t)((long)ed->anchor + shift_anchor);
	ed->follow = true;
}

/* Tab: indent the selected lines, or spaces to the next tab stop. */
static void tab(struct editor *ed)
{
	size_t a, b;
	if (sel_range(ed, &a, &b) && tb_line_of(ed->tb, a) != tb_line_of(ed->tb, b)) {
		indent_lines(ed, 1);
		return;
	}
	long col = cur_col(ed);
	size_t n = (size_t)(TABW - col % TABW);
	type_bytes(ed, "    ", n);
}

/* Copies the selection to the clipboard; true if there was one. */
static bool copy(struct editor *ed)
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
	if (!sel_range(ed, &a, &b))
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
	insert_bytes(ed, t, n);
	tb_break_group(ed->tb);
	free(t);
}

/* Undo or redo, putting the cursor where the change was. */
static void undo_redo(struct editor *ed, bool redo)
{
	size_t c = ed->cur;
	if (redo ? tb_redo(ed->tb, &c) : tb_undo(ed->tb, &c)) {
		ed->cur = c > tb_len(ed->tb) ? tb_len(ed->tb) : c;
		ed->sel = false;
		ed->want_col = -1;
		ed->follow = true;
	}
}

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
static bool prompt_key(struct editor *ed, bool is_key, wint_t ch)
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
	size_t n = encode(ch, mb);
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

/* ---- keys ---------------------------------------------------------- */

/* Key codes of Ctrl+arrows and Ctrl+Home/End, which terminfo names as
 * extended capabilities (kLFT5...) and ncurses numbers at run time. */
enum { XK_WLEFT, XK_WRIGHT, XK_SWLEFT, XK_SWRIGHT, XK_TOP, XK_BOTTOM, XK_N };
static int xkeys[XK_N];
static bool xkeys_done;

/* Looks the extended keys up once a terminal exists. */
static void lookup_xkeys(void)
{
	static const char *const caps[XK_N] = { "kLFT5", "kRIT5", "kLFT6", "kRIT6", "kHOM5", "kEND5" };
	if (xkeys_done || !stdscr)
		return;
	for (int i = 0; i < XK_N; i++) {
		char *s = tigetstr(caps[i]);
		int k = (s && s != (char *)-1) ? key_defined(s) : -1;
		xkeys[i] = k > 0 ? k : -1;
	}
	xkeys_done = true;
}

/* Types a character, keeping the cursor on a cluster boundary (a typed
 * combining mark or ZWJ joins the cluster before it). */
static void type_char(struct editor *ed, wint_t ch)
{
	char mb[8];
	size_t n = encode(ch, mb);
	if (n == 0)
		return;
	type_bytes(ed, mb, n);
	if (n > 1) {
		size_t line = cur_line(ed), ls = tb_line_start(ed->tb, line), len;
		const char *s = line_bytes(ed, line, &len);
		size_t rel = ed->cur - ls, fl = u8_floor(s, len, rel);
		if (fl != rel)
			ed->cur = ls + u8_next(s, len, fl);
	}
}

/* Cut: the selection, or the whole line when there is none. */
static void cut(struct editor *ed)
{
	if (!sel_range(ed, &(size_t){0}, &(size_t){0})) {
		size_t line = cur_line(ed);
		ed->anchor = tb_line_start(ed->tb, line);
		ed->cur = line + 1 < tb_lines(ed->tb) ? tb_line_start(ed->tb, line + 1) : tb_line_end(ed->tb, line);
		ed->sel = true;
		if (ed->anchor == ed->cur) {
			ed->sel = false;
			return;
		}
	}
	copy(ed);
	tb_break_group(ed->tb);
	delete_selection(ed);
	tb_break_group(ed->tb);
	ed->follow = true;
}

/* A KEY_* code outside prompts. */
static bool special_key(struct editor *ed, wint_t k)
{
	lookup_xkeys();
	int page = ed->view_h > 2 ? ed->view_h - 1 : 1;
	bool shift = k == KEY_SLEFT || k == KEY_SRIGHT || k == KEY_SR || k == KEY_SF ||
		     k == KEY_SHOME || k == KEY_SEND || k == KEY_SPREVIOUS || k == KEY_SNEXT ||
		     (int)k == xkeys[XK_SWLEFT] || (int)k == xkeys[XK_SWRIGHT];
	size_t a, b;
	bool had = sel_range(ed, &a, &b);
	switch (k) {
	case KEY_LEFT: case KEY_SLEFT:
		pre_move(ed, shift);
		ed->cur = had && !shift ? a : step_cluster(ed, ed->cur, -1);
		ed->want_col = -1;
		return true;
	case KEY_RIGHT: case KEY_SRIGHT:
		pre_move(ed, shift);
		ed->cur = had && !shift ? b : step_cluster(ed, ed->cur, 1);
		ed->want_col = -1;
		return true;
	case KEY_UP: case KEY_SR:
		pre_move(ed, shift);
		move_lines(ed, -1);
		return true;
	case KEY_DOWN: case KEY_SF:
		pre_move(ed, shift);
		move_lines(ed, 1);
		return true;
	case KEY_HOME: case KEY_SHOME:
		pre_move(ed, shift);
		ed->cur = smart_home(ed);
		ed->want_col = -1;
		return true;
	case KEY_END: case KEY_SEND:
		pre_move(ed, shift);
		ed->cur = tb_line_end(ed->tb, cur_line(ed));
		ed->want_col = -1;
		return true;
	case KEY_PPAGE: case KEY_SPREVIOUS:
		pre_move(ed, shift);
		move_lines(ed, -page);
		ed->top = ed->top > (size_t)page ? ed->top - (size_t)page : 0;
		return true;
	case KEY_NPAGE: case KEY_SNEXT:
		pre_move(ed, shift);
		move_lines(ed, page);
		if (ed->top + (size_t)page < tb_lines(ed->tb))
			ed->top += (size_t)page;
		return true;
	case KEY_BACKSPACE:
		backspace(ed);
		ed->want_col = -1;
		ed->follow = true;
		return true;
	case KEY_DC:
		delete_forward(ed);
		ed->want_col = -1;
		ed->follow = true;
		return true;
	case KEY_ENTER:
		newline(ed);
		return true;
	default:
		break;
	}
	if ((int)k == xkeys[XK_WLEFT] || (int)k == xkeys[XK_SWLEFT] ||
	    (int)k == xkeys[XK_WRIGHT] || (int)k == xkeys[XK_SWRIGHT]) {
		int dir = ((int)k == xkeys[XK_WLEFT] || (int)k == xkeys[XK_SWLEFT]) ? -1 : 1;
		pre_move(ed, shift);
		ed->cur = step_word(ed, ed->cur, dir);
		ed->want_col = -1;
		return true;
	}
	if ((int)k == xkeys[XK_TOP] || (int)k == xkeys[XK_BOTTOM]) {
		pre_move(ed, false);
		ed->cur = (int)k == xkeys[XK_TOP] ? 0 : tb_len(ed->tb);
		ed->want_col = -1;
		return true;
	}
	return false;
}

bool editor_key(struct editor *ed, bool is_key, wint_t ch)
{
	if (ed->prompt != P_NONE)
		return prompt_key(ed, is_key, ch);
	if (is_key)
		return special_key(ed, ch);
	switch (ch) {
	case '\r': case '\n':
		newline(ed);
		return true;
	case '\t':
		tab(ed);
		return true;
	case 127: case 8:                       /* Backspace as DEL or ^H */
		backspace(ed);
		ed->want_col = -1;
		ed->follow = true;
		return true;
	case 26:                                /* Ctrl-Z */
		undo_redo(ed, false);
		return true;
	case 25:                                /* Ctrl-Y */
		undo_redo(ed, true);
		return true;
	case 24:                                /* Ctrl-X */
		cut(ed);
		return true;
	case 3:                                 /* Ctrl-C: copy, else the app's cancel */
		return copy(ed);
	case 22:                                /* Ctrl-V */
		if (ed->clip) {
			tb_break_group(ed->tb);
			insert_bytes(ed, ed->clip, ed->cliplen);
			tb_break_group(ed->tb);
		}
		return true;
	case 6:                                 /* Ctrl-F */
		editor_begin_find(ed);
		return true;
	case 27:                                /* Esc clears a selection */
		if (!ed->sel)
			return false;
		ed->sel = false;
		return true;
	default:
		break;
	}
	if (ch < 32 || ch == 127 || (ch >= 0x80 && ch < 0xa0))
		return false;
	type_char(ed, ch);
	return true;
}

void editor_mouse_click(struct editor *ed, int row, int col)
{
	if (row < 0 || col < 0)
		return;
	size_t line = ed->top + (size_t)row;
	if (line >= tb_lines(ed->tb))
		line = tb_lines(ed->tb) - 1;
	long c = col < ed->gutter ? 0 : (long)(col - ed->gutter) + ed->left;
	pre_move(ed, false);
	ed->cur = off_at_col(ed, line, c);
	ed->want_col = -1;
	ed->follow = false;      /* the click is already in view */
}

void editor_scroll(struct editor *ed, int lines)
{
	size_t n = tb_lines(ed->tb);
	long top = (long)ed->top + lines;
	long max = (long)n - (ed->view_h > 1 ? ed->view_h / 2 : 1);
	if (top > max)
		top = max;
	if (top < 0)
		top = 0;
	ed->top = (size_t)top;
	ed->follow = false;
}

/* ---- files --------------------------------------------------------- */

/* The process's umask, read without changing it (threads may be running). */
static mode_t current_umask(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	unsigned m = 022;
	if (f) {
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "Umask: %o", &m) == 1)
				break;
		fclose(f);
	}
	return (mode_t)m;
}

/* Writes all of buf to fd, retrying short writes. 0 or -1 (errno). */
static int write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Atomically replaces path with data: a temp file in the same directory,
 * fsync, rename over, fsync the directory. mode < 0 keeps the existing
 * file's mode (or 0666 & ~umask for a new file). Symlinks are followed,
 * so the link stays and its target gets the new text. 0 or -1 + err. */
static int atomic_write(const char *path, const char *data, size_t n, int mode,
			char *err, size_t errlen)
{
	char target[PATH_MAX];
	struct stat st;
	bool exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return -1;
	}
	if (exists && realpath(path, target))
		path = target;
	if (exists && mode < 0 && access(path, W_OK) != 0) {
		snprintf(err, errlen, "%s: cannot save: %s", path, strerror(errno));
		return -1;
	}
	char tmp[PATH_MAX + 32];
	const char *slash = strrchr(path, '/');
	if (slash)
		snprintf(tmp, sizeof tmp, "%.*s/.%s.sandpit-XXXXXX", (int)(slash - path), path, slash + 1);
	else
		snprintf(tmp, sizeof tmp, ".%s.sandpit-XXXXXX", path);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot save (temporary file): %s", path, strerror(errno));
		return -1;
	}
	mode_t m = mode >= 0 ? (mode_t)mode : exists ? st.st_mode & 07777 : 0666 & ~current_umask();
	if (exists && mode < 0 && (st.st_uid != geteuid() || st.st_gid != getegid()))
		(void)!fchown(fd, st.st_uid, st.st_gid);   /* best effort: keep the owner */
	if (fchmod(fd, m) < 0 || write_all(fd, data, n) < 0 || fsync(fd) < 0) {
		int e = errno;
		close(fd);
		unlink(tmp);
		snprintf(err, errlen, "%s: cannot save: %s", path, strerror(e));
		return -1;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		int e = errno;
		unlink(tmp);
		snprintf(err, errlen, "%s: cannot save: %s", path, strerror(e));
		return -1;
	}
	/* The rename is durable only once the directory is. */
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
	int dfd = open(dir[0] ? dir : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

/* Reads a regular file into a malloc'd buffer. NULL with err filled, or
 * NULL with *missing set when it does not exist. */
static char *read_file(const char *path, size_t *len, bool *missing, char *err, size_t errlen)
{
	*missing = false;
	/* O_NONBLOCK: opening a FIFO must not hang the playground. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ENOENT) {
			*missing = true;
			return NULL;
		}
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
		close(fd);
		return NULL;
	}
	if ((unsigned long long)st.st_size > MAX_FILE) {
		snprintf(err, errlen, "%s: too large to edit (%lld bytes; the limit is %u MiB)",
			 path, (long long)st.st_size, MAX_FILE >> 20);
		close(fd);
		return NULL;
	}
	size_t cap = (size_t)st.st_size + 1, n = 0;
	char *buf = malloc(cap);
	if (!buf) {
		snprintf(err, errlen, "%s: out of memory", path);
		close(fd);
		return NULL;
	}
	for (;;) {
		if (n == cap) {           /* the file grew while we read it */
			char *nb = cap * 2 <= MAX_FILE ? realloc(buf, cap * 2) : NULL;
			if (!nb) {
				snprintf(err, errlen, "%s: too large to edit", path);
				free(buf);
				close(fd);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return buf;
}

/* The last path component. */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

int editor_open(struct editor *ed, const char *path, char *err, size_t errlen)
{
	size_t len = 0;
	bool missing;
	char *data = read_file(path, &len, &missing, err, errlen);
	if (!data && !missing)
		return -1;
	if (tb_set(ed->tb, data ? data : "", len) < 0) {
		snprintf(err, errlen, "%s: out of memory", path);
		free(data);
		return -1;
	}
	free(data);
	set_str(&ed->path, path);
	set_str(&ed->name, base_name(path));
	reset_view(ed);
	return 0;
}

int editor_save(struct editor *ed, const char *path, char *err, size_t errlen)
{
	if (!path)
		path = ed->path;
	if (!path) {
		snprintf(err, errlen, "%s: no file name to save to", editor_name(ed));
		return -1;
	}
	size_t len = tb_len(ed->tb);
	const char *data = tb_view(ed->tb, 0, len);
	if (atomic_write(path, data, len, -1, err, errlen) < 0)
		return -1;
	if (path != ed->path) {
		set_str(&ed->path, path);
		set_str(&ed->name, base_name(path));
	}
	tb_mark_saved(ed->tb);
	return 0;
}

int editor_recovery_write(struct editor *ed, const char *recovery_path, char *err, size_t errlen)
{
	size_t len = tb_len(ed->tb);
	const char *data = tb_view(ed->tb, 0, len);
	return atomic_write(recovery_path, data, len, 0600, err, errlen);
}

/* ---- bracket matching ---------------------------------------------- */

/* The partner of a bracket byte, and +1 to search forward or -1 back. */
static int bracket_partner(unsigned char c, int *dir)
{
	switch (c) {
	case '(': *dir = 1; return ')';
	case '[': *dir = 1; return ']';
	case '{': *dir = 1; return '}';
	case ')': *dir = -1; return '(';
	case ']': *dir = -1; return '[';
	case '}': *dir = -1; return '{';
	default: return 0;
	}
}

/* True when the byte at off is code (not in a string or comment). */
static bool is_code(struct editor *ed, size_t off)
{
	size_t line = tb_line_of(ed->tb, off), len;
	if (!classify(ed, line, &len))
		return false;
	size_t rel = off - tb_line_start(ed->tb, line);
	return rel < len && ed->cls[rel] == HL_TEXT;
}

/* Scans from the bracket at off for its partner, skipping strings and
 * comments, over at most BRACKET_SCAN_LINES lines. */
static bool scan_partner(struct editor *ed, size_t off, size_t *match)
{
	int dir = 0;
	unsigned char me = tb_byte(ed->tb, off);
	unsigned char want = (unsigned char)bracket_partner(me, &dir);
	size_t line = tb_line_of(ed->tb, off), nlines = tb_lines(ed->tb);
	long rel = (long)(off - tb_line_start(ed->tb, line)) + dir;
	int depth = 0;
	for (int k = 0; k < BRACKET_SCAN_LINES; k++) {
		size_t len;
		const char *s = classify(ed, line, &len);
		if (!s)
			return false;
		if (rel == LONG_MIN)
			rel = dir > 0 ? 0 : (long)len - 1;
		for (; rel >= 0 && rel < (long)len; rel += dir) {
			if (ed->cls[rel] != HL_TEXT)
				continue;
			unsigned char c = (unsigned char)s[rel];
			if (c == me) {
				depth++;
			} else if (c == want && depth-- == 0) {
				*match = tb_line_start(ed->tb, line) + (size_t)rel;
				return true;
			}
		}
		if ((dir > 0 && line + 1 >= nlines) || (dir < 0 && line == 0))
			return false;
		line = dir > 0 ? line + 1 : line - 1;
		rel = LONG_MIN;
	}
	return false;
}

/* The bracket at or just before the cursor and its partner. */
static bool find_brackets(struct editor *ed, size_t *at, size_t *match)
{
	size_t cands[2] = { ed->cur, ed->cur - 1 };
	int dir = 0;
	for (int i = 0; i < 2; i++) {
		size_t o = cands[i];
		if ((i == 1 && ed->cur == 0) || o >= tb_len(ed->tb))
			continue;
		if (!bracket_partner(tb_byte(ed->tb, o), &dir) || !is_code(ed, o))
			continue;
		if (scan_partner(ed, o, match)) {
			*at = o;
			return true;
		}
		return false;
	}
	return false;
}

bool editor_matching_bracket(struct editor *ed, long *line, long *col)
{
	size_t at, m;
	if (!find_brackets(ed, &at, &m))
		return false;
	size_t l = tb_line_of(ed->tb, m), len;
	const char *s = line_bytes(ed, l, &len);
	*line = (long)l + 1;
	*col = u8_col_of(s, len, m - tb_line_start(ed->tb, l), TABW) + 1;
	return true;
}

/* ---- drawing ------------------------------------------------------- */

/* What one frame needs while it draws its lines. */
struct frame {
	WINDOW *win;
	const struct theme *th;
	int y, x, tw;          /* text area origin (after the gutter) and width */
	size_t cl;             /* cursor line */
	size_t sel_a, sel_b;   /* selection, empty when equal */
	size_t br1, br2;       /* matching brackets, (size_t)-1 for none */
	attr_t attr;           /* the window attributes last set */
	short pair;
};

static const enum theme_role class_role[HL_NCLASSES] = {
	[HL_TEXT] = TR_NORMAL, [HL_KEYWORD] = TR_KEYWORD, [HL_BUILTIN] = TR_BUILTIN,
	[HL_STRING] = TR_STRING, [HL_COMMENT] = TR_COMMENT, [HL_NUMBER] = TR_NUMBER,
	[HL_DECORATOR] = TR_DECORATOR,
};

/* Sets the drawing style, skipping the call when it is unchanged. */
static void set_style(struct frame *f, attr_t a, short pair)
{
	if (a == f->attr && pair == f->pair)
		return;
	f->attr = a;
	f->pair = pair;
	wattr_set(f->win, a, pair, NULL);
}

/* Sets the style of role; on the cursor line, over its background. */
static void role_style(struct frame *f, enum theme_role r, bool curline)
{
	set_style(f, theme_attrs_only(f->th, r),
		  curline ? theme_curline_pair(f->th, r) : theme_pair(f->th, r));
}

/* n spaces from screen column sx. */
static void spaces(struct frame *f, int row, int sx, int n)
{
	if (n > 0)
		mvwhline(f->win, row, sx, ' ', n);
}

/* Draws a printable cluster: each spacing codepoint in its own cell(s)
 * with the zero-width ones after it folded into that cell, so ncurses and
 * the terminal agree on where everything is. */
static void put_text(struct frame *f, int row, int sx, const char *s, size_t n, bool mark)
{
	wchar_t wc[CCHARW_MAX + 1];
	int k = 0, gw = 0, at = sx;
	cchar_t cc;
	if (mark) {
		wc[k++] = L' ';
		gw = 1;
	}
	for (size_t p = 0; p <= n; ) {
		uint32_t cp = 0;
		size_t m = 0;
		int w = 0;
		if (p < n) {
			m = u8_decode(s + p, n - p, &cp);
			if (m == 0)
				m = 1;
			w = utf8proc_charwidth((utf8proc_int32_t)cp);
		}
		if (p == n || (w > 0 && k > 0)) {          /* flush the group */
			if (k > 0) {
				wc[k] = L'\0';
				if (setcchar(&cc, wc, f->attr, f->pair, NULL) == OK)
					mvwadd_wch(f->win, row, at, &cc);
				at += gw > 0 ? gw : 1;
			}
			k = 0;
			gw = 0;
			if (p == n)
				break;
		}
		if (k == 0 && w == 0)
			wc[k++] = L' ';                    /* nothing to draw it on */
		if (k < CCHARW_MAX)
			wc[k++] = (wchar_t)cp;
		gw += w > 0 ? w : 0;
		p += m;
	}
}

/* Draws one text line (or the filler below the text). */
static void draw_line(struct editor *ed, struct frame *f, int row, size_t line, long *ranges, int nr)
{
	bool is_cur = line == f->cl;
	size_t len;
	const char *s = classify(ed, line, &len);
	if (!s) {
		role_style(f, TR_NORMAL, false);
		spaces(f, row, f->x, f->tw);
		return;
	}
	size_t ls = tb_line_start(ed->tb, line);
	long left = ed->left, right = ed->left + f->tw, col = 0;
	struct u8_cluster c;
	int ri = 0;
	for (size_t p = 0; p < len && col < right; p += c.len, col = u8_next_col(&c, col, TABW)) {
		u8_cluster_at(s, len, p, &c);
		long next = u8_next_col(&c, col, TABW);
		if (next <= left)
			continue;
		size_t off = ls + p;
		enum theme_role base = class_role[ed->cls[p] < HL_NCLASSES ? ed->cls[p] : 0];
		if (c.kind == U8_INVALID || c.kind == U8_CONTROL)
			base = TR_INVALID;
		while (ri < nr && ranges[2 * ri + 1] <= (long)p)
			ri++;
		if (off >= f->sel_a && off < f->sel_b)
			role_style(f, TR_SELECTION, false);
		else if (ri < nr && ranges[2 * ri] <= (long)p)
			role_style(f, TR_FIND_MATCH, false);
		else if (off == f->br1 || off == f->br2)
			role_style(f, TR_MATCH_BRACKET, false);
		else
			role_style(f, base, is_cur && base != TR_INVALID);
		int sx = f->x + (int)(col - left);
		if (col < left || next > right || c.kind == U8_TAB) {
			long a = col < left ? left : col, b = next > right ? right : next;
			spaces(f, row, f->x + (int)(a - left), (int)(b - a));
		} else if (c.kind == U8_INVALID || c.kind == U8_CONTROL) {
			char esc[U8_ESCAPE_MAX];
			int n = u8_escape(&c, esc);
			mvwaddnstr(f->win, row, sx, esc, n);
		} else if (c.len == 1) {
			mvwaddch(f->win, row, sx, (chtype)(unsigned char)s[p]);
		} else {
			if (c.width > 1)
				spaces(f, row, sx, c.width);
			put_text(f, row, sx, s + p, c.len, c.kind == U8_MARK);
		}
	}
	if (col < left)
		col = left;
	if (col < right) {
		/* A selection over the newline shows as one cell past the end. */
		if (ls + len >= f->sel_a && ls + len < f->sel_b && line + 1 < tb_lines(ed->tb)) {
			role_style(f, TR_SELECTION, false);
			spaces(f, row, f->x + (int)(col - left), 1);
			col++;
		}
		role_style(f, TR_NORMAL, is_cur);
		spaces(f, row, f->x + (int)(col - left), (int)(right - col));
	}
}

/* Byte ranges [start, end) on line s of the search text, at most max. */
static int find_ranges(const struct editor *ed, const char *s, size_t len, long *ranges, int max)
{
	int n = 0;
	if (ed->prompt != P_FIND || !ed->needle || ed->needle_len == 0)
		return 0;
	for (const char *p = s; n < max && (p = memmem(p, len - (size_t)(p - s), ed->needle, ed->needle_len)) != NULL;
	     p += ed->needle_len) {
		ranges[2 * n] = p - s;
		ranges[2 * n + 1] = p - s + (long)ed->needle_len;
		n++;
	}
	return n;
}

/* Cells that UTF-8 text s[0..n) takes. */
static int text_width(const char *s, size_t n)
{
	return (int)u8_col_of(s, n, n, TABW);
}

/* The prompt row: label, input, note. */
static void draw_prompt(struct editor *ed, struct frame *f, int row, int x, int w)
{
	const char *label = ed->prompt == P_FIND ? "Find: " : "Go to line: ";
	const char *hint = ed->prompt == P_FIND ? "Enter/\xe2\x86\x93 next  \xe2\x86\x91 prev  Esc close" : "Enter go  Esc cancel";
	role_style(f, TR_DIALOG, false);
	spaces(f, row, x, w);
	mvwaddnstr(f->win, row, x, label, w);
	int lw = (int)strlen(label), iw = text_width(ed->input, ed->ilen);
	if (lw < w)
		mvwaddnstr(f->win, row, x + lw, ed->input, (int)ed->ilen);
	int at = lw + iw + 2;
	if (ed->note[0] && at < w) {
		role_style(f, ed->prompt == P_FIND && !strcmp(ed->note, "not found") ? TR_ERROR : TR_DIALOG, false);
		mvwaddnstr(f->win, row, x + at, ed->note, w - at);
		at += (int)strlen(ed->note) + 2;
	}
	int hw = text_width(hint, strlen(hint));
	if (at + hw < w) {
		role_style(f, TR_DIALOG, false);
		mvwaddstr(f->win, row, x + w - hw, hint);
	}
	ed->scr_y = row;
	ed->scr_x = x + (lw + iw < w ? lw + iw : w - 1);
}

/* Keeps the cursor inside the view when following it. */
static void scroll_to_cursor(struct editor *ed, int th, int tw, size_t cl, long cc)
{
	size_t n = tb_lines(ed->tb);
	if (ed->top >= n)
		ed->top = n - 1;
	if (!ed->follow || th <= 0)
		return;
	if (cl < ed->top)
		ed->top = cl;
	else if (cl >= ed->top + (size_t)th)
		ed->top = cl - (size_t)th + 1;
	if (cc < ed->left)
		ed->left = cc;
	else if (tw > 0 && cc >= ed->left + tw)
		ed->left = cc - tw + 1;
}

void editor_draw(struct editor *ed, WINDOW *win, int y, int x, int h, int w,
		 const struct theme *th, bool focused)
{
	(void)focused;
	if (h <= 0 || w <= 0)
		return;
	int text_h = ed->prompt != P_NONE ? h - 1 : h;
	size_t n = tb_lines(ed->tb);
	int digits = 1;
	for (size_t k = n; k >= 10; k /= 10)
		digits++;
	int gutter = (digits < 3 ? 3 : digits) + 1;
	if (w < gutter + 8)
		gutter = 0;
	int tw = w - gutter;
	size_t cl = cur_line(ed);
	long cc = cur_col(ed);
	scroll_to_cursor(ed, text_h, tw, cl, cc);
	ed->view_y = y;
	ed->view_x = x;
	ed->view_h = text_h;
	ed->view_w = tw;
	ed->gutter = gutter;

	struct frame f = { .win = win, .th = th, .y = y, .x = x + gutter, .tw = tw, .cl = cl,
			   .br1 = (size_t)-1, .br2 = (size_t)-1, .attr = (attr_t)-1, .pair = -1 };
	if (!sel_range(ed, &f.sel_a, &f.sel_b))
		f.sel_a = f.sel_b = 0;
	if (!find_brackets(ed, &f.br1, &f.br2))
		f.br1 = f.br2 = (size_t)-1;
	if (text_h > 0)
		ensure_states(ed, ed->top + (size_t)text_h - 1);
	long ranges[2 * 64];
	for (int row = 0; row < text_h; row++) {
		size_t line = ed->top + (size_t)row;
		if (gutter) {
			char num[32];
			int gw = gutter - 1 > 24 ? 24 : gutter - 1;
			enum theme_role r = line >= n ? TR_LINENO
				: (long)line + 1 == ed->error_line ? TR_VIOLATION
				: line == cl ? TR_CURLINE : TR_LINENO;
			if (line < n)
				snprintf(num, sizeof num, "%*zu ", gw, line + 1);
			else
				snprintf(num, sizeof num, "%*s ", gw, "~");
			role_style(&f, r, false);
			mvwaddnstr(win, y + row, x, num, gutter);
		}
		if (line >= n) {
			role_style(&f, TR_NORMAL, false);
			spaces(&f, y + row, f.x, tw);
			continue;
		}
		size_t len;
		const char *s = line_bytes(ed, line, &len);
		int nr = find_ranges(ed, s, len, ranges, 64);
		draw_line(ed, &f, y + row, line, ranges, nr);
	}
	if (ed->prompt != P_NONE) {
		draw_prompt(ed, &f, y + h - 1, x, w);
	} else {
		ed->scr_y = y + (int)(cl - ed->top);
		ed->scr_x = x + gutter + (int)(cc - ed->left);
		if (cl < ed->top || cl >= ed->top + (size_t)text_h)
			ed->scr_y = -1;           /* scrolled away: hide the cursor */
	}
	wattr_set(win, A_NORMAL, 0, NULL);
}
