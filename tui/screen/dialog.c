/* SPDX-License-Identifier: MIT */
/*
 * dialog.c - yes/no questions and the one-line prompt.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "screen/dialog.h"
#include "screen/layout.h"
#include "screen/theme.h"
#include "banned.h"

/* Empties everything but the history. */
static void reset(struct dialog *d)
{
	memset(d, 0, offsetof(struct dialog, hist));
}

void dialog_ask(struct dialog *d, int action, const char *title,
		const char *text, bool offer_save)
{
	reset(d);
	d->kind = DLG_YESNO;
	d->action = action;
	d->offer_save = offer_save;
	snprintf(d->title, sizeof d->title, "%s", title);
	snprintf(d->text, sizeof d->text, "%s", text);
}

void dialog_choose(struct dialog *d, int action, const char *title,
		   const char *text, const char *choices, const char *hint)
{
	reset(d);
	d->kind = DLG_CHOICE;
	d->action = action;
	snprintf(d->title, sizeof d->title, "%s", title);
	snprintf(d->text, sizeof d->text, "%s", text);
	snprintf(d->choices, sizeof d->choices, "%s", choices);
	snprintf(d->hint, sizeof d->hint, "%s", hint);
}

void dialog_prompt(struct dialog *d, int action, const char *title,
		   const char *text, const char *initial)
{
	reset(d);
	d->kind = DLG_INPUT;
	d->action = action;
	snprintf(d->title, sizeof d->title, "%s", title);
	snprintf(d->text, sizeof d->text, "%s", text);
	le_set(&d->field, initial, true);
}

static enum dialog_answer close_with(struct dialog *d, enum dialog_answer a)
{
	if (a == DLG_YES && d->kind == DLG_INPUT)
		le_history_add(&d->hist, le_text(&d->field));
	if (a != DLG_PENDING)
		d->kind = DLG_NONE;
	return a;
}

enum dialog_answer dialog_key(struct dialog *d, bool is_key, wint_t ch)
{
	if (d->kind == DLG_YESNO) {
		if (is_key)
			return DLG_PENDING;
		switch (ch) {
		case 'y': case 'Y': return close_with(d, DLG_YES);
		case 'n': case 'N': case 27: case 3: return close_with(d, DLG_NO);
		case 's': case 'S':
			return close_with(d, d->offer_save ? DLG_SAVE : DLG_PENDING);
		default: return DLG_PENDING;
		}
	}
	if (d->kind == DLG_CHOICE) {
		if (is_key)
			return DLG_PENDING;
		if (ch == 27 || ch == 3)
			return close_with(d, DLG_NO);
		wint_t lc = ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
		if (lc >= 'a' && lc <= 'z' && strchr(d->choices, (int)lc)) {
			d->chosen = (int)lc;
			return close_with(d, DLG_CHOSEN);
		}
		return DLG_PENDING;
	}
	if (d->kind != DLG_INPUT)
		return DLG_NO;
	if ((is_key && ch == KEY_ENTER) || (!is_key && (ch == '\n' || ch == '\r')))
		return close_with(d, DLG_YES);
	if (!is_key && (ch == 27 || ch == 3 || ch == 7))
		return close_with(d, DLG_NO);
	le_key(&d->field, is_key, ch, &d->hist, true);
	return DLG_PENDING;
}

void dialog_paste(struct dialog *d, const char *text, size_t len)
{
	if (d->kind != DLG_INPUT)
		return;
	le_insert(&d->field, text, len);
}

/* The row of the question that starts at *off, wrapped at w cells: its
 * length; *off moves past it and the spaces after it. */
static size_t text_row(const char *text, size_t len, size_t *off, int w)
{
	size_t n = text_wrap_row(text + *off, len - *off, w, true);
	size_t end = *off + n;
	while (end < len && text[end] == ' ')
		end++;
	*off = end;
	return n;
}

/* Rows under the question: a prompt's field, note and keys; a yes/no's
 * blank rows and keys; a choice's blank row and keys. */
static int rows_below(const struct dialog *d)
{
	return d->kind == DLG_CHOICE ? 2 : 3;
}

/* The box grows with its question (a prompt naming a long directory
 * wraps onto more rows), up to the screen: never smaller than its usual
 * size, and the question is never cut while the screen has rows. */
static struct rect dialog_rect(const struct dialog *d, int rows, int cols)
{
	int w = cols - 4 < 70 ? cols - 4 : 70;
	int least = d->kind == DLG_CHOICE ? 5 : 2;
	int n = 0;
	size_t len = strlen(d->text), off = 0;

	while (w > 4 && off < len) {
		text_row(d->text, len, &off, w - 4);
		n++;
	}
	if (n < least)
		n = least;
	int h = n + rows_below(d) + 2;
	int usual = least + rows_below(d) + 2;
	if (h > rows - 2)
		h = rows - 2 > usual ? rows - 2 : usual;
	return (struct rect){ (rows - h) / 2, (cols - w) / 2, h, w };
}

/* The first byte of the field shown in w cells: the cursor stays in view,
 * with the end of a long name shown when the cursor is there. */
static size_t input_start(const struct dialog *d, int w)
{
	const struct lineedit *le = &d->field;
	size_t start = 0;

	while (start < le->cur && text_width(le->buf + start, le->cur - start) > w - 1) {
		size_t n = 1;
		while (start + n < le->len &&
		       ((unsigned char)le->buf[start + n] & 0xC0) == 0x80)
			n++;
		start += n;
	}
	return start;
}

void dialog_draw(const struct dialog *d, WINDOW *win, int rows, int cols,
		 const struct theme *th)
{
	struct rect r = dialog_rect(d, rows, cols);
	struct rect in = rect_inner(r);
	attr_t a = theme_attr(th, TR_DIALOG);
	const char *hint;
	size_t len = strlen(d->text), off = 0;
	int y = in.y;

	if (d->kind == DLG_NONE || in.w < 4)
		return;
	layout_clear(win, r, a);
	layout_frame(win, r, d->title, NULL, true, th);
	while (off < len && y < in.y + in.h - rows_below(d)) {
		size_t start = off, n = text_row(d->text, len, &off, in.w - 2);
		text_draw(win, y++, in.x + 1, in.w - 2, d->text + start, n, a);
	}
	if (d->kind == DLG_INPUT) {
		const struct lineedit *le = &d->field;
		struct rect fr = { in.y + in.h - 3, in.x + 1, 1, in.w - 2 };
		size_t start = input_start(d, fr.w);
		attr_t fa = theme_attr(th, le->suggested ? TR_SELECTION : TR_NORMAL);
		layout_clear(win, fr, theme_attr(th, TR_NORMAL));
		text_draw(win, fr.y, fr.x, fr.w, le->buf + start, le->len - start, fa);
		if (le->note[0])
			text_draw(win, in.y + in.h - 2, in.x + 1, in.w - 2, le->note,
				  strlen(le->note), a);
		hint = le->suggested ? "Enter: OK   Esc: cancel   typing replaces the name"
				     : "Enter: OK   Esc: cancel   Tab: complete   Up: earlier";
	} else if (d->kind == DLG_CHOICE) {
		hint = d->hint;
	} else {
		hint = d->offer_save ? "y: yes   s: save first   n/Esc: no"
				     : "y: yes   n/Esc: no";
	}
	text_draw(win, in.y + in.h - 1, in.x + 1, in.w - 2, hint, strlen(hint),
		  a | A_BOLD);
}

void dialog_cursor(const struct dialog *d, int rows, int cols, int *y, int *x)
{
	struct rect in = rect_inner(dialog_rect(d, rows, cols));
	size_t start = input_start(d, in.w - 2);
	const struct lineedit *le = &d->field;
	*y = in.y + in.h - 3;
	*x = in.x + 1 + text_width(le->buf + start, le->cur - start);
}
