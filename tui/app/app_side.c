/* SPDX-License-Identifier: MIT */
/*
 * app_side.c - the tabs of the Carry place: Carry (the carry buffer),
 * Stdin (the next run's standard input) and Variables (the last run's
 * globals), panes (panes.h) that share one rectangle. The tab shown is the
 * pane in that place: it draws, and takes keys, pastes, clicks and the
 * wheel. F12 shows the next tab; the title names the tab, the border the
 * next. A new tab is one file with its struct pane_class and one line in
 * the table below.
 */
#include <stdio.h>

#include "app/app.h"
#include "app/panes.h"
#include "buf.h"
#include "banned.h"

static const struct pane_class *const tabs[] = {
	&app_carry_tab,
	&app_stdin_tab,
	&app_vars_tab,
};

const struct pane_class *app_side_tab(const struct app *a)
{
	return tabs[(size_t)a->nav.side_tab % SP_ARRAY_SIZE(tabs)];
}

const char *app_side_next_title(const struct app *a)
{
	return tabs[(size_t)(a->nav.side_tab + 1) % SP_ARRAY_SIZE(tabs)]->title;
}

void app_side_next(struct app *a)
{
	a->nav.side_tab = (int)((size_t)(a->nav.side_tab + 1) % SP_ARRAY_SIZE(tabs));
	a->nav.focus = PANE_CARRY;
	app_message(a, false, "%s tab (F12 shows the next)", app_side_tab(a)->title);
}

const char *const *app_side_hints(const struct app *a)
{
	static const char *const keys[] = {
		"F5 run", "F2 merge", "F11 zoom", "^S save", "F1 help", NULL };

	(void)a;
	return keys;
}

/* The status line's "Ln, Col" on a tab without a text of its own. */
struct editor *app_side_text(const struct app *a)
{
	return a->pane.carry.ed;
}
