/* SPDX-License-Identifier: MIT */
/*
 * dialog_limits.c - the limits dialog. Up/Down (or Tab) pick a row; on
 * the preset row Left/Right pick a preset, which fills every field; on a
 * field the first key typed replaces its text (as a spreadsheet cell
 * does), Backspace edits it. Enter checks every field with the table of
 * tui/config/limit_fields.c and hands the limits back; a bad field keeps the
 * dialog up, selected, with the table's message.
 */
#include <stdio.h>
#include <string.h>

#include "screen/dialog_limits.h"
#include "screen/layout.h"
#include "screen/theme.h"
#include "banned.h"

#define CTRL(c) ((c) & 0x1f)
#define ROWS (1 + LIM_COUNT)

static size_t preset_count(const struct limits_dialog *d)
{
	return LIMIT_BUILTIN_PRESETS + d->n_user;
}

static void preset_at(const struct limits_dialog *d, size_t i, struct limit_preset *p)
{
	if (i < LIMIT_BUILTIN_PRESETS)
		limit_builtin_preset(i, p);
	else
		*p = d->user[i - LIMIT_BUILTIN_PRESETS];
}

static void fill(struct limits_dialog *d, const struct sp_limits *l)
{
	for (int i = 0; i < LIM_COUNT; i++)
		limit_format((enum limit_id)i, l, d->text[i], sizeof d->text[i]);
}

void limits_dialog_open(struct limits_dialog *d, const struct sp_limits *now,
			const struct limit_preset *user, size_t n_user)
{
	memset(d, 0, sizeof *d);
	d->active = true;
	d->user = user;
	d->n_user = n_user;
	d->base = *now;
	d->sel = 1 + LIM_MEMORY;  /* the limit people try first */
	d->fresh = true;
	d->bad = -1;
	fill(d, now);
}

static void choose_preset(struct limits_dialog *d, int dir)
{
	size_t n = preset_count(d);
	struct limit_preset p;

	d->preset = (d->preset + n + (size_t)(dir + (int)n)) % n;
	preset_at(d, d->preset, &p);
	fill(d, &p.limits);
	d->error[0] = '\0';
	d->bad = -1;
}

/* Every field parsed into out; or -1 with the first bad one selected. */
static int check(struct limits_dialog *d, struct sp_limits *out)
{
	struct sp_limits l = d->base;
	char err[200];

	for (int i = 0; i < LIM_COUNT; i++)
		if (limit_parse((enum limit_id)i, d->text[i], &l, err, sizeof err) < 0) {
			snprintf(d->error, sizeof d->error, "%s: %s",
				 limit_fields[i].label, err);
			d->bad = i;
			d->sel = 1 + i;
			d->fresh = false;
			return -1;
		}
	*out = l;
	return 0;
}

static void row_move(struct limits_dialog *d, int dir)
{
	d->sel = (d->sel + ROWS + dir) % ROWS;
	d->fresh = true;
}

static void field_type(struct limits_dialog *d, wint_t ch)
{
	char *t = d->text[d->sel - 1];
	size_t n;

	/* limits are ASCII: digits, a dot, a unit letter */
	if (ch < 0x20 || ch >= 0x7F)
		return;
	if (d->fresh)
		t[0] = '\0';
	d->fresh = false;
	n = strlen(t);
	if (n + 1 < sizeof d->text[0]) {
		t[n] = (char)ch;
		t[n + 1] = '\0';
	}
}

static void field_backspace(struct limits_dialog *d)
{
	char *t = d->text[d->sel - 1];
	size_t n = strlen(t);

	d->fresh = false;
	if (n)
		t[n - 1] = '\0';
}

enum limits_answer limits_dialog_key(struct limits_dialog *d, bool is_key,
				     wint_t ch, struct sp_limits *out)
{
	if (!d->active)
		return LIMITS_CANCEL;
	if (is_key) {
		switch (ch) {
		case KEY_UP: case KEY_BTAB: row_move(d, -1); break;
		case KEY_DOWN: row_move(d, 1); break;
		case KEY_LEFT: case KEY_RIGHT:
			if (d->sel == 0)
				choose_preset(d, ch == KEY_LEFT ? -1 : 1);
			break;
		case KEY_BACKSPACE:
			if (d->sel > 0)
				field_backspace(d);
			break;
		case KEY_ENTER:
			goto apply;
		default: break;
		}
		return LIMITS_PENDING;
	}
	switch (ch) {
	case 27: case CTRL('c'): case CTRL('g'):
		d->active = false;
		return LIMITS_CANCEL;
	case '\t': row_move(d, 1); return LIMITS_PENDING;
	case '\n': case '\r': goto apply;
	case CTRL('s'):
		if (check(d, out) < 0)
			return LIMITS_PENDING;
		d->active = false;
		return LIMITS_SAVE;
	case 8: case 127:
		if (d->sel > 0)
			field_backspace(d);
		return LIMITS_PENDING;
	case CTRL('u'):
		if (d->sel > 0)
			d->text[d->sel - 1][0] = '\0';
		return LIMITS_PENDING;
	default:
		if (d->sel > 0)
			field_type(d, ch);
		return LIMITS_PENDING;
	}
apply:
	if (check(d, out) < 0)
		return LIMITS_PENDING;
	d->active = false;
	return LIMITS_APPLY;
}

static struct rect dialog_box(int rows, int cols)
{
	int w = cols - 4 < 64 ? cols - 4 : 64;
	int h = ROWS + 6;
	return (struct rect){ (rows - h) / 2, (cols - w) / 2, h, w };
}

#define LABEL_W 12
#define FIELD_W 12

void limits_dialog_draw(const struct limits_dialog *d, WINDOW *win, int rows,
			int cols, const struct theme *th)
{
	struct rect r = dialog_box(rows, cols), in = rect_inner(r);
	attr_t a = theme_attr(th, TR_DIALOG);
	static const char hint[] = "Enter: use   Ctrl-S: use and save   Esc: cancel";
	static const char keys[] = "Up/Down: row   Left/Right: preset   type a value";
	struct limit_preset p;
	char line[128];

	if (!d->active || in.w < LABEL_W + FIELD_W + 2 || in.h < ROWS + 4)
		return;
	layout_clear(win, r, a);
	layout_frame(win, r, "Limits", "F4", true, th);
	preset_at(d, d->preset, &p);
	for (int row = 0; row < ROWS; row++) {
		int y = in.y + row + (row > 0);
		bool sel = row == d->sel;
		attr_t la = sel ? theme_attr(th, TR_SELECTION) : a;

		if (row == 0) {
			text_draw(win, y, in.x + 1, LABEL_W, "Preset", 6, la);
			snprintf(line, sizeof line, "< %s >  (%zu of %zu)", p.name,
				 d->preset + 1, preset_count(d));
			text_draw(win, y, in.x + 1 + LABEL_W, in.w - LABEL_W - 2, line,
				  strlen(line), sel ? la : a);
			continue;
		}
		const struct limit_field *f = &limit_fields[row - 1];
		char floor[32];
		text_draw(win, y, in.x + 1, LABEL_W, f->label, strlen(f->label), la);
		layout_clear(win, (struct rect){ y, in.x + 1 + LABEL_W, 1, FIELD_W },
			     theme_attr(th, d->bad == row - 1 ? TR_ERROR : TR_NORMAL));
		text_draw(win, y, in.x + 1 + LABEL_W, FIELD_W, d->text[row - 1],
			  strlen(d->text[row - 1]),
			  theme_attr(th, d->bad == row - 1 ? TR_ERROR : TR_NORMAL));
		limit_floor_text((enum limit_id)(row - 1), floor, sizeof floor);
		snprintf(line, sizeof line, "%s, at least %s",
			 f->unit == LU_SECONDS ? "seconds" : f->unit == LU_SIZE ?
			 "bytes, K/M/G" : "processes and threads", floor);
		text_draw(win, y, in.x + 2 + LABEL_W + FIELD_W,
			  in.w - LABEL_W - FIELD_W - 3, line, strlen(line), a);
	}
	if (d->error[0])
		text_draw(win, in.y + ROWS + 1, in.x + 1, in.w - 2, d->error,
			  strlen(d->error), theme_attr(th, TR_ERROR));
	text_draw(win, in.y + in.h - 2, in.x + 1, in.w - 2, keys, strlen(keys), a);
	text_draw(win, in.y + in.h - 1, in.x + 1, in.w - 2, hint, strlen(hint),
		  a | A_BOLD);
}

void limits_dialog_cursor(const struct limits_dialog *d, int rows, int cols,
			  int *y, int *x)
{
	struct rect in = rect_inner(dialog_box(rows, cols));
	int w;

	*y = -1;
	if (!d->active || d->sel == 0)
		return;
	w = (int)strlen(d->text[d->sel - 1]);
	if (w > FIELD_W - 1)
		w = FIELD_W - 1;
	*y = in.y + d->sel + 1;
	*x = in.x + 1 + LABEL_W + w;
}
