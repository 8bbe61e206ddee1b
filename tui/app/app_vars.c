/* SPDX-License-Identifier: MIT */
/*
 * app_vars.c - the Variables tab of the Carry place (panes.h, app_side.c):
 * the last run's globals (pane/pane_vars.c lists them). Enter on a
 * DataFrame, Series or array shows its first rows as a table; Enter on
 * anything else, or c, carries the value into the next run, merged as F2
 * merges a run's carry() results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <curses.h>

#include "app/app.h"
#include "app/panes.h"
#include "banned.h"

static void vars_tab_draw(struct app *a, struct rect r, bool focused)
{
	vars_draw(&a->pane.vars, stdscr, rect_inner(r), &a->theme, focused);
}

/* The selected global into the carry buffer. */
static void carry_variable(struct app *a)
{
	char why[300], msg[512], err[256];
	char *obj = vars_carry_json(&a->pane.vars, why, sizeof why);

	if (!obj) {
		app_message(a, true, "%s", why);
		return;
	}
	if (carry_merge(&a->pane.carry, obj, msg, sizeof msg) < 0)
		app_message(a, true, "%s", msg);
	else if (carry_save_state(&a->pane.carry, err, sizeof err) < 0)
		app_message(a, true, "%s (not kept: %s)", msg, err);
	else
		app_message(a, false, "%s - the next run gets it (F12 shows Carry)", msg);
	free(obj);
}

/* Enter on a DataFrame, Series or array: its first rows as a table;
 * on anything else, carry it. */
static void enter_variable(struct app *a)
{
	const struct var_row *row = vars_selected(&a->pane.vars);
	char why[128];

	if (!row || !row->table) {
		carry_variable(a);
		return;
	}
	table_free(&a->over.tview.t);
	if (table_from_preview(&a->over.tview.t, row->table, why, sizeof why) < 0) {
		app_message(a, true, "%s: %s", row->name, why);
		return;
	}
	snprintf(a->over.tview.title, sizeof a->over.tview.title, "%s (%s)", row->name, row->type);
	a->over.tview.active = true;
}

/* Ctrl-F and Ctrl-L find nothing here, and do not go to the Editor. */
static bool vars_key_first(struct app *a, bool is_key, wint_t ch)
{
	(void)a;
	return !is_key && (ch == CTRL_KEY('f') || ch == CTRL_KEY('l'));
}

static void vars_tab_key(struct app *a, bool is_key, wint_t ch)
{
	int h = a->ui.lay.pane[PANE_CARRY].h, page = h > 4 ? h - 4 : 1;

	if (is_key && ch == KEY_ENTER)
		enter_variable(a);
	else if (is_key)
		vars_key(&a->pane.vars, (int)ch, page);
	else if (ch == '\n' || ch == '\r')
		enter_variable(a);
	else if (ch == 'c')
		carry_variable(a);
}

static void vars_paste(struct app *a, const char *text, size_t len)
{
	(void)text;
	(void)len;
	app_message(a, true, "the Variables tab takes no text - F12 shows the next tab");
}

static void vars_scroll(struct app *a, int lines)
{
	vars_key(&a->pane.vars, lines < 0 ? KEY_UP : KEY_DOWN, 1);
}

static void vars_tab_click(struct app *a, int row, int col)
{
	(void)col;
	vars_click(&a->pane.vars, row);
}

/* A list, not a text: "Ln, Col" stays the Editor's, as for Output. */
static struct editor *vars_text(const struct app *a)
{
	return a->pane.ed;
}

static const char *const *vars_hints(const struct app *a)
{
	static const char *const keys[] = {
		"Enter table or carry", "c carry", "F11 zoom", "F1 help", NULL };

	(void)a;
	return keys;
}

const struct pane_class app_vars_tab = {
	.title = "Variables",
	.draw = vars_tab_draw,
	.key_first = vars_key_first,
	.key = vars_tab_key,
	.paste = vars_paste,
	.wheel = vars_scroll,
	.click = vars_tab_click,
	.text = vars_text,
	.hints = vars_hints,
	.focusable = true,
};
