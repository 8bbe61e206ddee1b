/*
 * dialog.c - yes/no questions and the one-line prompt.
 */
#include <stdio.h>
#include <string.h>
#include <utf8proc.h>

#include "dialog.h"
#include "layout.h"
#include "theme.h"
#include "banned.h"

void dialog_ask(struct dialog *d, int action, const char *title,
		const char *text, bool offer_save)
{
	memset(d, 0, sizeof *d);
	d->kind = DLG_YESNO;
	d->action = action;
	d->offer_save = offer_save;
	snprintf(d->title, sizeof d->title, "%s", title);
	snprintf(d->text, sizeof d->text, "%s", text);
}

void dialog_prompt(struct dialog *d, int action, const char *title,
		   const char *text, const char *initial)
{
	memset(d, 0, sizeof *d);
	d->kind = DLG_INPUT;
	d->action = action;
	snprintf(d->title, sizeof d->title, "%s", title);
	snprintf(d->text, sizeof d->text, "%s", text);
	if (initial)
		d->len = (size_t)snprintf(d->input, sizeof d->input, "%s", initial);
	if (d->len >= sizeof d->input)
		d->len = sizeof d->input - 1;
}

/* Encode one code point as UTF-8 at the end of the input, if it fits. */
static void input_add(struct dialog *d, wint_t c)
{
	char b[4];
	size_t n;

	if (c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0) || c > 0x10FFFF ||
	    (c >= 0xD800 && c <= 0xDFFF))
		return;
	n = (size_t)utf8proc_encode_char((utf8proc_int32_t)c, (utf8proc_uint8_t *)b);
	if (n == 0)
		return;
	if (d->len + n + 1 > sizeof d->input)
		return;
	memcpy(d->input + d->len, b, n);
	d->len += n;
	d->input[d->len] = '\0';
}

/* Remove the last code point of the input. */
static void input_backspace(struct dialog *d)
{
	while (d->len > 0) {
		d->len--;
		if (((unsigned char)d->input[d->len] & 0xC0) != 0x80)
			break;
	}
	d->input[d->len] = '\0';
}

static enum dialog_answer close_with(struct dialog *d, enum dialog_answer a)
{
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
	if (d->kind != DLG_INPUT)
		return DLG_NO;
	if (is_key) {
		if (ch == KEY_BACKSPACE)
			input_backspace(d);
		else if (ch == KEY_ENTER)
			return close_with(d, DLG_YES);
		return DLG_PENDING;
	}
	switch (ch) {
	case '\n': case '\r': return close_with(d, DLG_YES);
	case 27: case 3: case 7: return close_with(d, DLG_NO);
	case 8: case 127: input_backspace(d); return DLG_PENDING;
	case 21: d->len = 0; d->input[0] = '\0'; return DLG_PENDING; /* Ctrl-U */
	default: input_add(d, ch); return DLG_PENDING;
	}
}

void dialog_paste(struct dialog *d, const char *text, size_t len)
{
	if (d->kind != DLG_INPUT)
		return;
	for (size_t i = 0; i < len && d->len + 1 < sizeof d->input; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c < 0x20 || c == 0x7F)
			continue;
		d->input[d->len++] = (char)c;
	}
	/* a character cut at the end of the room is dropped whole */
	size_t k = d->len, back = 0;
	while (k && back < 3 && ((unsigned char)d->input[k - 1] & 0xC0) == 0x80) {
		k--;
		back++;
	}
	if (k && (unsigned char)d->input[k - 1] >= 0xC0) {
		unsigned char lead = (unsigned char)d->input[k - 1];
		size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
		if (d->len - (k - 1) < need)
			d->len = k - 1;
	}
	d->input[d->len] = '\0';
}

static struct rect dialog_rect(int rows, int cols)
{
	int w = cols - 4 < 70 ? cols - 4 : 70;
	int h = 7;
	return (struct rect){ (rows - h) / 2, (cols - w) / 2, h, w };
}

void dialog_draw(const struct dialog *d, WINDOW *win, int rows, int cols,
		 const struct theme *th)
{
	struct rect r = dialog_rect(rows, cols);
	struct rect in = rect_inner(r);
	attr_t a = theme_attr(th, TR_DIALOG);
	const char *hint;
	size_t len = strlen(d->text), off = 0;
	int y = in.y;

	if (d->kind == DLG_NONE || in.w < 4)
		return;
	layout_clear(win, r, a);
	layout_frame(win, r, d->title, NULL, true, th);
	while (off < len && y < in.y + 2) {
		size_t n = text_wrap_row(d->text + off, len - off, in.w - 2, true);
		text_draw(win, y++, in.x + 1, in.w - 2, d->text + off, n, a);
		off += n;
		while (off < len && d->text[off] == ' ')
			off++;
	}
	if (d->kind == DLG_INPUT) {
		int iw = text_width(d->input, d->len);
		size_t start = 0;
		/* keep the end of a long name in view */
		while (iw > in.w - 3 && start < d->len) {
			size_t n = 1;
			while (start + n < d->len &&
			       ((unsigned char)d->input[start + n] & 0xC0) == 0x80)
				n++;
			iw -= text_width(d->input + start, n);
			start += n;
		}
		layout_clear(win, (struct rect){ in.y + 2, in.x + 1, 1, in.w - 2 },
			     theme_attr(th, TR_NORMAL));
		text_draw(win, in.y + 2, in.x + 1, in.w - 2, d->input + start,
			  d->len - start, theme_attr(th, TR_NORMAL));
		hint = "Enter: OK   Esc: cancel";
	} else {
		hint = d->offer_save ? "y: yes   s: save first   n/Esc: no"
				     : "y: yes   n/Esc: no";
	}
	text_draw(win, in.y + in.h - 1, in.x + 1, in.w - 2, hint, strlen(hint),
		  a | A_BOLD);
}

void dialog_cursor(const struct dialog *d, int rows, int cols, int *y, int *x)
{
	struct rect in = rect_inner(dialog_rect(rows, cols));
	int iw = text_width(d->input, d->len);
	if (iw > in.w - 3)
		iw = in.w - 3;
	*y = in.y + 2;
	*x = in.x + 1 + iw;
}
