/* SPDX-License-Identifier: MIT */
/*
 * textbuf.c - gap buffer + line index + grouped undo.
 *
 * The gap buffer keeps the text in one array with a hole [gap_lo, gap_hi)
 * at the last edit point. Typing is then a memcpy into the hole, and only a
 * jump elsewhere costs a memmove of the bytes in between:
 *
 *     buf:  | text before | ...... gap ...... | text after |
 *           0          gap_lo              gap_hi         cap
 *
 * The line index is a sorted array of line-start offsets. An edit shifts
 * the starts after it (a tight loop over size_t, ~50 us for 100,000 lines)
 * and inserts or removes the starts of the lines it added or joined.
 *
 * Undo keeps a list of edits, each with its bytes and a group id. Edits
 * [0, done) are applied, [done, n) can be redone. Typing next to the last
 * insert (or backspacing next to the last delete) grows that edit, which is
 * what makes a typing run one undo step.
 */
#include "text/textbuf.h"

#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "buf.h"
#include "banned.h"

struct edit {
	size_t off;           /* where the bytes were inserted or deleted */
	char *text;           /* the bytes */
	size_t len, cap;
	unsigned long group;  /* edits with one id undo together */
	bool ins;             /* insert (true) or delete (false) */
};

struct textbuf {
	char *buf;
	size_t cap, gap_lo, gap_hi;
	size_t *ls;           /* line starts, ls[0] == 0 */
	size_t nlines, lcap;
	struct edit *ed;      /* undo history */
	size_t ned, edcap, done;
	unsigned long next_group, saved_group;
	bool brk;             /* next edit starts a new group */
	int nest;             /* tb_group_begin depth */
	bool nest_new;        /* first edit in the nest opens a group */
	unsigned long version;
	size_t dirty;
};

#define GAPLEN(tb) ((tb)->gap_hi - (tb)->gap_lo)
#define NONE ((size_t)-1)

/* Returns a new empty buffer or NULL. */
struct textbuf *tb_new(void)
{
	struct textbuf *tb = calloc(1, sizeof *tb);
	if (!tb)
		return NULL;
	tb->cap = 4096;
	tb->buf = malloc(tb->cap);
	tb->lcap = 64;
	tb->ls = malloc(tb->lcap * sizeof *tb->ls);
	if (!tb->buf || !tb->ls) {
		free(tb->buf);
		free(tb->ls);
		free(tb);
		return NULL;
	}
	tb->gap_hi = tb->cap;
	tb->nlines = 1;
	tb->ls[0] = 0;
	tb->next_group = 1;
	tb->dirty = 0;
	return tb;
}

/* Frees the history entries from index from on. */
static void drop_edits(struct textbuf *tb, size_t from)
{
	for (size_t i = from; i < tb->ned; i++)
		free(tb->ed[i].text);
	tb->ned = from;
}

/* Frees everything tb owns and tb itself. */
void tb_free(struct textbuf *tb)
{
	if (!tb)
		return;
	drop_edits(tb, 0);
	free(tb->ed);
	free(tb->buf);
	free(tb->ls);
	free(tb);
}

/* Length of the text in bytes. */
size_t tb_len(const struct textbuf *tb)
{
	return tb->cap - GAPLEN(tb);
}

/* Number of lines, at least 1. */
size_t tb_lines(const struct textbuf *tb)
{
	return tb->nlines;
}

/* Start offset of line. */
size_t tb_line_start(const struct textbuf *tb, size_t line)
{
	return tb->ls[line];
}

/* End offset of line, before its '\n'. */
size_t tb_line_end(const struct textbuf *tb, size_t line)
{
	return line + 1 < tb->nlines ? tb->ls[line + 1] - 1 : tb_len(tb);
}

/* Binary search for the last line start <= off. */
size_t tb_line_of(const struct textbuf *tb, size_t off)
{
	size_t lo = 0, hi = tb->nlines;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (tb->ls[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The byte at logical offset off. */
unsigned char tb_byte(const struct textbuf *tb, size_t off)
{
	return (unsigned char)tb->buf[off < tb->gap_lo ? off : off + GAPLEN(tb)];
}

/* Copies [off, off+n) clamped to the text into dst; returns the count. */
size_t tb_copy(const struct textbuf *tb, size_t off, size_t n, char *dst)
{
	size_t len = tb_len(tb);
	if (off >= len)
		return 0;
	if (n > len - off)
		n = len - off;
	size_t done = 0;
	if (off < tb->gap_lo) {
		size_t a = tb->gap_lo - off < n ? tb->gap_lo - off : n;
		memcpy(dst, tb->buf + off, a);
		done = a;
	}
	if (done < n)
		memcpy(dst + done, tb->buf + off + done + GAPLEN(tb), n - done);
	return n;
}

/* Moves the gap so that it starts at logical offset pos. */
static void move_gap(struct textbuf *tb, size_t pos)
{
	if (pos < tb->gap_lo) {
		size_t n = tb->gap_lo - pos;
		memmove(tb->buf + tb->gap_hi - n, tb->buf + pos, n);
		tb->gap_lo -= n;
		tb->gap_hi -= n;
	} else if (pos > tb->gap_lo) {
		size_t n = pos - tb->gap_lo;
		memmove(tb->buf + tb->gap_lo, tb->buf + tb->gap_hi, n);
		tb->gap_lo += n;
		tb->gap_hi += n;
	}
}

/* Makes the gap hold at least n bytes. 0, or -1 out of memory. */
static int grow_gap(struct textbuf *tb, size_t n)
{
	if (GAPLEN(tb) >= n)
		return 0;
	size_t len = tb_len(tb);
	size_t tail = tb->cap - tb->gap_hi, ncap = tb->cap;
	if (len > SIZE_MAX - 4096 - n)
		return -1;
	char *nb = sp_grow(tb->buf, &ncap, len + n + 4096, 1);
	if (!nb)
		return -1;
	memmove(nb + ncap - tail, nb + tb->gap_hi, tail);
	tb->buf = nb;
	tb->gap_hi = ncap - tail;
	tb->cap = ncap;
	return 0;
}

/* A contiguous pointer to [off, off+n); moves the gap out of the way. */
const char *tb_view(struct textbuf *tb, size_t off, size_t n)
{
	size_t len = tb_len(tb);
	if (off > len)
		off = len;
	if (n > len - off)
		n = len - off;
	if (off < tb->gap_lo && off + n > tb->gap_lo) {
		/* Straddles the gap: move whichever side is shorter. */
		if (tb->gap_lo - off < off + n - tb->gap_lo)
			move_gap(tb, off);
		else
			move_gap(tb, off + n);
	}
	return off + n <= tb->gap_lo ? tb->buf + off : tb->buf + off + GAPLEN(tb);
}

/* The bytes of line without the '\n'. */
const char *tb_line_view(struct textbuf *tb, size_t line, size_t *len)
{
	size_t a = tb_line_start(tb, line), b = tb_line_end(tb, line);
	*len = b - a;
	return tb_view(tb, a, b - a);
}

/* Makes room for extra more line starts. */
static int grow_lines(struct textbuf *tb, size_t extra)
{
	if (tb->nlines + extra <= tb->lcap)
		return 0;
	if (extra > SIZE_MAX - tb->nlines)
		return -1;
	size_t *nl = sp_grow(tb->ls, &tb->lcap, tb->nlines + extra, sizeof *nl);
	if (!nl)
		return -1;
	tb->ls = nl;
	return 0;
}

/* Counts the '\n' in s[0..n). */
static size_t count_nl(const char *s, size_t n)
{
	size_t k = 0;
	const char *end = s + n;
	while ((s = memchr(s, '\n', (size_t)(end - s))) != NULL) {
		k++;
		s++;
	}
	return k;
}

/* Notes that line and everything after it changed. */
static void touch(struct textbuf *tb, size_t line)
{
	tb->version++;
	if (tb->dirty == NONE || line < tb->dirty)
		tb->dirty = line;
}

/* Inserts bytes without touching the history. 0 or -1. */
static int raw_insert(struct textbuf *tb, size_t off, const char *s, size_t n)
{
	if (n == 0)
		return 0;
	size_t k = count_nl(s, n);
	if (grow_gap(tb, n) < 0 || grow_lines(tb, k) < 0)
		return -1;
	size_t line = tb_line_of(tb, off);
	move_gap(tb, off);
	memcpy(tb->buf + tb->gap_lo, s, n);
	tb->gap_lo += n;
	/* Shift the later starts, then open k slots after line for the new ones. */
	for (size_t i = line + 1; i < tb->nlines; i++)
		tb->ls[i] += n;
	if (k) {
		memmove(tb->ls + line + 1 + k, tb->ls + line + 1,
			(tb->nlines - line - 1) * sizeof *tb->ls);
		size_t j = line + 1;
		for (size_t i = 0; i < n; i++)
			if (s[i] == '\n')
				tb->ls[j++] = off + i + 1;
		tb->nlines += k;
	}
	touch(tb, line);
	return 0;
}

/* Deletes [off, off+n) without touching the history. */
static void raw_delete(struct textbuf *tb, size_t off, size_t n)
{
	if (n == 0)
		return;
	size_t line = tb_line_of(tb, off);
	/* Lines whose start lies in (off, off+n] lose their '\n': drop them. */
	size_t last = line + 1;
	while (last < tb->nlines && tb->ls[last] <= off + n)
		last++;
	size_t k = last - (line + 1);
	memmove(tb->ls + line + 1, tb->ls + last, (tb->nlines - last) * sizeof *tb->ls);
	tb->nlines -= k;
	for (size_t i = line + 1; i < tb->nlines; i++)
		tb->ls[i] -= n;
	move_gap(tb, off);
	tb->gap_hi += n;
	touch(tb, line);
}

/* Appends or prepends s to e's bytes. 0 or -1. */
static int edit_grow(struct edit *e, const char *s, size_t n, bool front)
{
	if (e->len + n > e->cap) {
		char *nt = sp_grow(e->text, &e->cap, e->len + n, 1);
		if (!nt)
			return -1;
		e->text = nt;
	}
	if (front) {
		memmove(e->text + n, e->text, e->len);
		memcpy(e->text, s, n);
	} else {
		memcpy(e->text + e->len, s, n);
	}
	e->len += n;
	return 0;
}

/* Records an applied insert or delete in the history, merging a typing
 * run into the previous edit. 0, or -1 out of memory. */
static int record(struct textbuf *tb, bool ins, size_t off, const char *s, size_t n)
{
	drop_edits(tb, tb->done);
	bool has_nl = memchr(s, '\n', n) != NULL;
	struct edit *last = tb->done ? &tb->ed[tb->done - 1] : NULL;
	if (tb->nest == 0 && !tb->brk && last && last->ins == ins && !has_nl) {
		if (ins && last->off + last->len == off)
			return edit_grow(last, s, n, false);
		if (!ins && off + n == last->off) {        /* backspace */
			if (edit_grow(last, s, n, true) < 0)
				return -1;
			last->off = off;
			return 0;
		}
		if (!ins && off == last->off)              /* forward delete */
			return edit_grow(last, s, n, false);
	}
	unsigned long last_group = last ? last->group : 0;
	if (tb->ned == tb->edcap) {      /* invalidates last */
		struct edit *ne = sp_grow(tb->ed, &tb->edcap, tb->ned + 1, sizeof *ne);
		if (!ne)
			return -1;
		tb->ed = ne;
	}
	struct edit e = { .off = off, .len = n, .cap = n, .ins = ins };
	e.text = malloc(n ? n : 1);
	if (!e.text)
		return -1;
	memcpy(e.text, s, n);
	if (tb->nest > 0 && !tb->nest_new && last_group)
		e.group = last_group;
	else
		e.group = tb->next_group++;
	tb->nest_new = false;
	tb->ed[tb->ned++] = e;
	tb->done = tb->ned;
	tb->brk = false;
	return 0;
}

/* Inserts and records. */
int tb_insert(struct textbuf *tb, size_t off, const char *s, size_t n)
{
	if (n == 0)
		return 0;
	if (off > tb_len(tb))
		off = tb_len(tb);
	if (raw_insert(tb, off, s, n) < 0)
		return -1;
	if (record(tb, true, off, s, n) < 0) {
		raw_delete(tb, off, n);
		return -1;
	}
	return 0;
}

/* Deletes and records. */
int tb_delete(struct textbuf *tb, size_t off, size_t n)
{
	size_t len = tb_len(tb);
	if (off >= len || n == 0)
		return 0;
	if (n > len - off)
		n = len - off;
	char *tmp = malloc(n);
	if (!tmp)
		return -1;
	tb_copy(tb, off, n, tmp);
	raw_delete(tb, off, n);
	int rc = record(tb, false, off, tmp, n);
	if (rc < 0)
		raw_insert(tb, off, tmp, n);
	free(tmp);
	return rc;
}

/* Replaces the whole text and forgets the history. */
int tb_set(struct textbuf *tb, const char *s, size_t n)
{
	size_t k = count_nl(s, n);
	char *nb = malloc(n + 4096);
	size_t *nl = malloc((k + 1 + 64) * sizeof *nl);
	if (!nb || !nl) {
		free(nb);
		free(nl);
		return -1;
	}
	memcpy(nb, s, n);
	free(tb->buf);
	free(tb->ls);
	tb->buf = nb;
	tb->cap = n + 4096;
	tb->gap_lo = n;
	tb->gap_hi = tb->cap;
	tb->ls = nl;
	tb->lcap = k + 1 + 64;
	tb->nlines = 1;
	tb->ls[0] = 0;
	for (const char *p = s, *end = s + n; (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
		tb->ls[tb->nlines++] = (size_t)(p - s) + 1;
	drop_edits(tb, 0);
	tb->done = 0;
	tb->saved_group = 0;
	tb->brk = true;
	touch(tb, 0);
	return 0;
}

void tb_break_group(struct textbuf *tb)
{
	tb->brk = true;
}

void tb_group_begin(struct textbuf *tb)
{
	if (tb->nest++ == 0)
		tb->nest_new = true;
}

void tb_group_end(struct textbuf *tb)
{
	if (tb->nest > 0 && --tb->nest == 0)
		tb->brk = true;
}

/* Undoes every edit of the last applied group, newest first. */
bool tb_undo(struct textbuf *tb, size_t *cursor)
{
	if (tb->done == 0)
		return false;
	unsigned long g = tb->ed[tb->done - 1].group;
	while (tb->done > 0 && tb->ed[tb->done - 1].group == g) {
		struct edit *e = &tb->ed[--tb->done];
		if (e->ins) {
			raw_delete(tb, e->off, e->len);
			*cursor = e->off;
		} else if (raw_insert(tb, e->off, e->text, e->len) < 0) {
			tb->done++;         /* out of memory: stop, state stays consistent */
			return false;
		} else {
			*cursor = e->off + e->len;
		}
	}
	tb->brk = true;
	return true;
}

/* Reapplies every edit of the next group, oldest first. */
bool tb_redo(struct textbuf *tb, size_t *cursor)
{
	if (tb->done == tb->ned)
		return false;
	unsigned long g = tb->ed[tb->done].group;
	while (tb->done < tb->ned && tb->ed[tb->done].group == g) {
		struct edit *e = &tb->ed[tb->done];
		if (e->ins) {
			if (raw_insert(tb, e->off, e->text, e->len) < 0)
				return false;
			*cursor = e->off + e->len;
		} else {
			raw_delete(tb, e->off, e->len);
			*cursor = e->off;
		}
		tb->done++;
	}
	tb->brk = true;
	return true;
}

/* The group id of the applied top of the history, 0 for none. */
static unsigned long top_group(const struct textbuf *tb)
{
	return tb->done ? tb->ed[tb->done - 1].group : 0;
}

bool tb_modified(const struct textbuf *tb)
{
	return top_group(tb) != tb->saved_group;
}

void tb_mark_saved(struct textbuf *tb)
{
	tb->saved_group = top_group(tb);
	tb->brk = true;       /* later typing must not grow the saved group */
}

unsigned long tb_version(const struct textbuf *tb)
{
	return tb->version;
}

size_t tb_dirty_line(const struct textbuf *tb)
{
	return tb->dirty;
}

void tb_clear_dirty(struct textbuf *tb)
{
	tb->dirty = NONE;
}

/* Walks the text once and compares it with the line index. */
const char *tb_check(const struct textbuf *tb)
{
	if (tb->gap_lo > tb->gap_hi || tb->gap_hi > tb->cap)
		return "gap out of bounds";
	if (tb->nlines < 1 || tb->nlines > tb->lcap || tb->ls[0] != 0)
		return "line index empty or not starting at 0";
	if (tb->done > tb->ned)
		return "history position past its end";
	size_t len = tb_len(tb), line = 1;
	for (size_t off = 0; off < len; off++) {
		if (tb_byte(tb, off) != '\n')
			continue;
		if (line >= tb->nlines || tb->ls[line] != off + 1)
			return "line start does not follow a newline";
		line++;
	}
	if (line != tb->nlines)
		return "more line starts than newlines";
	return NULL;
}
