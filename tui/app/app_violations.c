/* SPDX-License-Identifier: MIT */
/*
 * app_violations.c - the Violations pane (panes.h): one record for each
 * thing the sandbox stopped, with its explanation. Up and Down pick a
 * record, PgUp and PgDn read its text; Enter or a click on a record goes
 * to its line in the Editor (app_teach.c). While it has the focus on a
 * narrow screen the bottom row grows, so an explanation has room.
 */
#include <curses.h>

#include "app/app.h"
#include "app/panes.h"
#include "banned.h"

static void violations_pane_info(const struct app *a, char *buf, size_t len)
{
	violations_info(&a->pane.viol, buf, len);
}

static void violations_pane_draw(struct app *a, struct rect r, bool focused)
{
	violations_draw(&a->pane.viol, stdscr, rect_inner(r), &a->theme, focused,
			a->ui.lay.zoomed);
}

static void violations_pane_key(struct app *a, bool is_key, wint_t ch)
{
	int key = (int)ch;

	if ((!is_key && (key == '\r' || key == '\n')) || (is_key && key == KEY_ENTER))
		app_jump_violation(a);
	else if (is_key)
		violations_key(&a->pane.viol, key);
}

static void violations_wheel(struct app *a, int lines)
{
	violations_scroll_text(&a->pane.viol, lines);
}

static void violations_pane_click(struct app *a, int row, int col)
{
	(void)col;
	if (violations_click(&a->pane.viol, row))
		app_jump_violation(a);
}

/* With no record, the keys that help are the Editor's. */
static const char *const *violations_hints(const struct app *a)
{
	static const char *const keys[] = {
		"Enter line", "PgDn read", "F11 zoom", "F5 run", "F1 help", NULL };

	return a->pane.viol.n ? keys : NULL;
}

const struct pane_class app_violations_pane = {
	.title = "Violations",
	.info = violations_pane_info,
	.draw = violations_pane_draw,
	.key = violations_pane_key,
	.wheel = violations_wheel,
	.click = violations_pane_click,
	.hints = violations_hints,
	.focusable = true,
};
