/* SPDX-License-Identifier: MIT */
/*
 * app_side.c - the tabs of the Carry pane: Carry (the carry buffer) and
 * Stdin (the next run's standard input). F12 shows the next tab; keys,
 * pastes, clicks and the wheel go to the tab shown. The pane's title
 * names the tab, its border the others.
 */
#include <stdio.h>
#include <stdlib.h>

#include "app/app.h"
#include "banned.h"

static const char *const tab_names[SIDE_COUNT] = {
	[SIDE_CARRY] = "Carry", [SIDE_STDIN] = "Stdin", [SIDE_VARS] = "Variables",
};

const char *app_side_title(const struct app *a)
{
	return tab_names[a->side_tab];
}

void app_side_info(const struct app *a, char *buf, size_t len)
{
	const char *next = tab_names[(a->side_tab + 1) % SIDE_COUNT];

	if (a->side_tab == SIDE_CARRY)
		snprintf(buf, len, "F2 merges · ^Del clears · F12 %s", next);
	else
		snprintf(buf, len, "F12 %s", next);
}

void app_side_next(struct app *a)
{
	a->side_tab = (a->side_tab + 1) % SIDE_COUNT;
	a->focus = PANE_CARRY;
	app_message(a, false, "%s tab (F12 shows the next)", tab_names[a->side_tab]);
}

void app_side_draw(struct app *a, struct rect in, bool focused, int *cy, int *cx)
{
	switch (a->side_tab) {
	case SIDE_VARS:
		vars_draw(&a->vars, stdscr, in, &a->theme, focused);
		break;
	case SIDE_STDIN:
		stdin_draw(&a->stdin_buf, stdscr, in, &a->theme, focused);
		if (focused)
			stdin_cursor(&a->stdin_buf, cy, cx);
		break;
	default:
		carry_draw(&a->carry, stdscr, in, &a->theme, focused);
		if (focused)
			carry_cursor(&a->carry, cy, cx);
		break;
	}
}

/* Enter or c in the Variables tab: the selected global into the carry
 * buffer, merged as F2 merges a run's carry() results. */
static void carry_variable(struct app *a)
{
	char why[300], msg[512], err[256];
	char *obj = vars_carry_json(&a->vars, why, sizeof why);

	if (!obj) {
		app_message(a, true, "%s", why);
		return;
	}
	if (carry_merge(&a->carry, obj, msg, sizeof msg) < 0)
		app_message(a, true, "%s", msg);
	else if (carry_save_state(&a->carry, err, sizeof err) < 0)
		app_message(a, true, "%s (not kept: %s)", msg, err);
	else
		app_message(a, false, "%s - the next run gets it (F12 shows Carry)", msg);
	free(obj);
}

/* Enter on a DataFrame, Series or array: its first rows as a table;
 * on anything else, carry it. */
static void enter_variable(struct app *a)
{
	const struct var_row *row = vars_selected(&a->vars);
	char why[128];

	if (!row || !row->table) {
		carry_variable(a);
		return;
	}
	table_free(&a->tview.t);
	if (table_from_preview(&a->tview.t, row->table, why, sizeof why) < 0) {
		app_message(a, true, "%s: %s", row->name, why);
		return;
	}
	snprintf(a->tview.title, sizeof a->tview.title, "%s (%s)", row->name, row->type);
	a->tview.active = true;
}

void app_side_key(struct app *a, bool is_key, wint_t ch)
{
	if (a->side_tab == SIDE_VARS) {
		int page = a->lay.pane[PANE_CARRY].h > 4 ? a->lay.pane[PANE_CARRY].h - 4 : 1;
		if (is_key && ch == KEY_ENTER)
			enter_variable(a);
		else if (is_key)
			vars_key(&a->vars, (int)ch, page);
		else if (ch == '\n' || ch == '\r')
			enter_variable(a);
		else if (ch == 'c')
			carry_variable(a);
		return;
	}
	if (a->side_tab == SIDE_STDIN)
		stdin_key(&a->stdin_buf, is_key, ch);
	else
		carry_key(&a->carry, is_key, ch);
}

void app_side_paste(struct app *a, const char *text, size_t len)
{
	if (a->side_tab == SIDE_VARS)
		app_message(a, true, "the Variables tab takes no text - F12 shows the next tab");
	else if (a->side_tab == SIDE_STDIN)
		stdin_paste(&a->stdin_buf, text, len);
	else
		carry_paste(&a->carry, text, len);
}

void app_side_scroll(struct app *a, int lines)
{
	if (a->side_tab == SIDE_VARS)
		vars_key(&a->vars, lines < 0 ? KEY_UP : KEY_DOWN, 1);
	else if (a->side_tab == SIDE_STDIN)
		stdin_scroll(&a->stdin_buf, lines);
	else
		carry_scroll(&a->carry, lines);
}

void app_side_click(struct app *a, int row, int col)
{
	if (a->side_tab == SIDE_VARS)
		vars_click(&a->vars, row);
	else if (a->side_tab == SIDE_STDIN)
		stdin_click(&a->stdin_buf, row, col);
	else
		carry_click(&a->carry, row, col);
}
