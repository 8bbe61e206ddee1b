/* SPDX-License-Identifier: MIT */
/*
 * app_stdin.c - the Stdin tab of the Carry place (panes.h, app_side.c):
 * the next run's standard input, edited as any text (pane/pane_stdin.c
 * keeps the buffer and draws it with its byte count).
 */
#include <stdio.h>
#include <curses.h>

#include "app/app.h"
#include "app/panes.h"
#include "editor/editor.h"
#include "banned.h"

static void stdin_tab_draw(struct app *a, struct rect r, bool focused)
{
	stdin_draw(&a->pane.stdin_buf, stdscr, rect_inner(r), &a->theme, focused);
}

static bool stdin_key_first(struct app *a, bool is_key, wint_t ch)
{
	/* find and go-to are the buffer's own here, not the Editor's */
	if (is_key || (ch != CTRL_KEY('f') && ch != CTRL_KEY('l')))
		return false;
	editor_key(a->pane.stdin_buf.ed, is_key, ch);
	return true;
}

static void stdin_key(struct app *a, bool is_key, wint_t ch)
{
	editor_key(a->pane.stdin_buf.ed, is_key, ch);
}

static void stdin_paste(struct app *a, const char *text, size_t len)
{
	editor_paste(a->pane.stdin_buf.ed, text, len);
}

static void stdin_scroll(struct app *a, int lines)
{
	editor_scroll(a->pane.stdin_buf.ed, lines);
}

static void stdin_click(struct app *a, int row, int col)
{
	editor_mouse_click(a->pane.stdin_buf.ed, row, col);
}

static void stdin_cursor(const struct app *a, int *y, int *x)
{
	editor_screen_cursor(a->pane.stdin_buf.ed, y, x);
}

/* "Ln, Col" is the stdin text's while it has the keys. */
static struct editor *stdin_tab_text(const struct app *a)
{
	return a->pane.stdin_buf.ed;
}

static const char *const *stdin_tab_hints(const struct app *a)
{
	static const char *const keys[] = { "F5 run", "F11 zoom", "F1 help", NULL };

	(void)a;
	return keys;
}

const struct pane_class app_stdin_tab = {
	.title = "Stdin",
	.draw = stdin_tab_draw,
	.key_first = stdin_key_first,
	.key = stdin_key,
	.paste = stdin_paste,
	.wheel = stdin_scroll,
	.click = stdin_click,
	.cursor = stdin_cursor,
	.text = stdin_tab_text,
	.hints = stdin_tab_hints,
	.focusable = true,
};
