/* SPDX-License-Identifier: MIT */
/*
 * lineedit.c - the prompts' text field: editing keys, the selected
 * suggestion, history and Tab completion.
 *
 * The cursor moves and deletes by grapheme cluster (utf8text.h), as in
 * the Editor, so an accented letter or an emoji goes in one step.
 */
#include <string.h>
#include <utf8proc.h>

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>

#include "editor/lineedit.h"
#include "text/pathcomplete.h"
#include "text/utf8text.h"
#include "banned.h"

#define CTRL(c) ((c) & 0x1f)

void le_set(struct lineedit *le, const char *text, bool suggested)
{
	size_t n = text ? strlen(text) : 0;

	if (n >= LE_MAX)
		n = u8_floor(text, n, LE_MAX - 1);
	memcpy(le->buf, text ? text : "", n);
	le->buf[n] = '\0';
	le->len = le->cur = n;
	le->suggested = suggested && n > 0;
	le->hist_at = -1;
	le->typed[0] = '\0';
	le->note[0] = '\0';
}

/* Replaces buf[a..b) with s[0..n), if it fits; the cursor goes after it. */
static bool splice(struct lineedit *le, size_t a, size_t b, const char *s, size_t n)
{
	if (le->len - (b - a) + n >= LE_MAX)
		return false;
	memmove(le->buf + a + n, le->buf + b, le->len - b + 1);
	memcpy(le->buf + a, s, n);
	le->len = le->len - (b - a) + n;
	le->cur = a + n;
	return true;
}

void le_insert(struct lineedit *le, const char *s, size_t n)
{
	char clean[LE_MAX];
	size_t k = 0;

	if (le->suggested) {
		le->len = le->cur = 0;
		le->buf[0] = '\0';
		le->suggested = false;
	}
	for (size_t i = 0; i < n && k < sizeof clean - 1; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f)
			continue;
		clean[k++] = (char)c;
	}
	/* only whole, valid characters go in */
	size_t room = LE_MAX - 1 - le->len, ok = 0;
	while (ok < k) {
		uint32_t cp;
		size_t m = u8_decode(clean + ok, k - ok, &cp);
		if (m == 0 || ok + m > room || (cp >= 0x80 && cp < 0xa0))
			break;
		ok += m;
	}
	splice(le, le->cur, le->cur, clean, ok);
}

/* Types one character (replacing a suggestion). */
static bool type_char(struct lineedit *le, wint_t c)
{
	char b[4];
	size_t n;

	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff))
		return false;
	n = (size_t)utf8proc_encode_char((utf8proc_int32_t)c, (utf8proc_uint8_t *)b);
	if (n == 0)
		return false;
	if (le->suggested) {
		le->len = le->cur = 0;
		le->buf[0] = '\0';
		le->suggested = false;
	}
	if (!splice(le, le->cur, le->cur, b, n))
		return false;
	/* a combining mark joins the cluster before it: stay on a boundary */
	size_t fl = u8_floor(le->buf, le->len, le->cur);
	if (fl != le->cur)
		le->cur = u8_next(le->buf, le->len, fl);
	return true;
}

/* Up (back = true) or Down through the history. */
static bool walk_history(struct lineedit *le, const struct le_history *h, bool back)
{
	int at = le->hist_at;

	if (!h || h->n == 0)
		return false;
	if (back) {
		if (at == 0)
			return false;
		if (at < 0) {
			memcpy(le->typed, le->buf, le->len + 1);
			at = (int)h->n;
		}
		at--;
	} else {
		if (at < 0)
			return false;
		at = at + 1 < (int)h->n ? at + 1 : -1;
	}
	const char *t = at < 0 ? le->typed : h->item[at];
	size_t n = strlen(t);
	memcpy(le->buf, t, n + 1);
	le->len = le->cur = n;
	le->hist_at = at;
	le->suggested = false;
	return true;
}

/* One key press and what the caller lets it reach. */
struct le_press {
	int key;
	const struct le_history *hist;
	bool paths;
};

static enum le_result key_left(struct lineedit *le, const struct le_press *p)
{
	(void)p;
	le->suggested = false;
	if (le->cur > 0)
		le->cur = u8_prev(le->buf, le->len, le->cur);
	return LE_MOVED;
}

static enum le_result key_right(struct lineedit *le, const struct le_press *p)
{
	(void)p;
	le->suggested = false;
	if (le->cur < le->len)
		le->cur = u8_next(le->buf, le->len, le->cur);
	return LE_MOVED;
}

static enum le_result key_home(struct lineedit *le, const struct le_press *p)
{
	(void)p;
	le->suggested = false;
	le->cur = 0;
	return LE_MOVED;
}

static enum le_result key_end(struct lineedit *le, const struct le_press *p)
{
	(void)p;
	le->suggested = false;
	le->cur = le->len;
	return LE_MOVED;
}

/* Backspace takes a suggestion whole, else the cluster before the cursor. */
static enum le_result key_backspace(struct lineedit *le, const struct le_press *p)
{
	(void)p;
	if (le->suggested) {
		le_set(le, NULL, false);
		return LE_CHANGED;
	}
	if (le->cur == 0)
		return LE_MOVED;
	splice(le, u8_prev(le->buf, le->len, le->cur), le->cur, "", 0);
	return LE_CHANGED;
}

/* Delete takes a suggestion whole, else the cluster under the cursor. */
static enum le_result key_delete(struct lineedit *le, const struct le_press *p)
{
	size_t at = le->cur;

	(void)p;
	if (le->suggested) {
		le_set(le, NULL, false);
		return LE_CHANGED;
	}
	if (le->cur == le->len)
		return LE_MOVED;
	splice(le, at, u8_next(le->buf, le->len, at), "", 0);
	le->cur = at;
	return LE_CHANGED;
}

static enum le_result key_history(struct lineedit *le, const struct le_press *p)
{
	return walk_history(le, p->hist, p->key == KEY_UP) ? LE_CHANGED : LE_MOVED;
}

/* Ctrl-U: the whole line */
static enum le_result key_clear(struct lineedit *le, const struct le_press *p)
{
	size_t before = le->len;

	(void)p;
	le_set(le, NULL, false);
	return before ? LE_CHANGED : LE_MOVED;
}

/* Ctrl-K: from the cursor to the end */
static enum le_result key_kill_to_end(struct lineedit *le, const struct le_press *p)
{
	size_t before = le->len;

	(void)p;
	le->suggested = false;
	le->len = le->cur;
	le->buf[le->len] = '\0';
	return before != le->len ? LE_CHANGED : LE_MOVED;
}

/* Tab: complete a path, where the field holds one */
static enum le_result key_complete(struct lineedit *le, const struct le_press *p)
{
	if (!p->paths)
		return LE_UNUSED;
	le->suggested = false;
	le->cur = le->len;
	le->note[0] = '\0';
	if (path_complete(le->buf, LE_MAX, &le->len, le->note, sizeof le->note) > 0) {
		le->cur = le->len;
		return LE_CHANGED;
	}
	return LE_MOVED;
}

/* The field's keys: a key ncurses decoded (is_key) or a character. */
static const struct {
	bool is_key;
	int code;
	enum le_result (*act)(struct lineedit *, const struct le_press *);
} le_keys[] = {
	{ true, KEY_LEFT, key_left },
	{ true, KEY_RIGHT, key_right },
	{ true, KEY_HOME, key_home },
	{ true, KEY_END, key_end },
	{ true, KEY_BACKSPACE, key_backspace },
	{ true, KEY_DC, key_delete },
	{ true, KEY_UP, key_history },
	{ true, KEY_DOWN, key_history },
	{ false, CTRL('a'), key_home },
	{ false, CTRL('e'), key_end },
	{ false, CTRL('u'), key_clear },
	{ false, CTRL('k'), key_kill_to_end },
	{ false, 8, key_backspace },
	{ false, 127, key_backspace },
	{ false, '\t', key_complete },
};

enum le_result le_key(struct lineedit *le, bool is_key, wint_t ch,
		      const struct le_history *hist, bool paths)
{
	const struct le_press p = { (int)ch, hist, paths };

	for (size_t i = 0; i < sizeof le_keys / sizeof le_keys[0]; i++)
		if (le_keys[i].is_key == is_key && ch == (wint_t)le_keys[i].code)
			return le_keys[i].act(le, &p);
	/* any other decoded key, and control characters, are the caller's */
	if (is_key || ch < 0x20 || ch == 0x7f)
		return LE_UNUSED;
	return type_char(le, ch) ? LE_CHANGED : LE_MOVED;
}

int le_cursor_cells(const struct lineedit *le)
{
	return (int)u8_col_of(le->buf, le->len, le->cur, 8);
}

void le_history_add(struct le_history *h, const char *text)
{
	size_t n = strlen(text);

	if (n == 0 || n >= LE_MAX)
		return;
	if (h->n && !strcmp(h->item[h->n - 1], text))
		return;
	if (h->n == LE_HISTORY) {
		memmove(h->item[0], h->item[1], sizeof h->item[0] * (LE_HISTORY - 1));
		h->n--;
	}
	memcpy(h->item[h->n++], text, n + 1);
}
