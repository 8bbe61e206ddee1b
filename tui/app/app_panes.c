/* SPDX-License-Identifier: MIT */
/*
 * app_panes.c - the pane table and the routing through it (panes.h), as
 * htop's ScreenManager routes to its panels: which pane sits in which
 * place, drawing them all, the focused pane's keys and pastes, and the
 * mouse to the pane under the pointer. A new pane is one file with its
 * struct pane_class, one line here and a place in screen/layout.c.
 */
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "app/app.h"
#include "app/panes.h"
#include "banned.h"

static const struct pane_class *const places[PANE_COUNT] = {
	[PANE_EDITOR] = &app_editor_pane,
	[PANE_OUTPUT] = &app_output_pane,
	[PANE_RESOURCES] = &app_gauges_pane,
	[PANE_VIOLATIONS] = &app_violations_pane,
	[PANE_CARRY] = NULL, /* the tab shown: app_side.c */
};

const struct pane_class *app_pane(const struct app *a, int place)
{
	if (place < 0 || place >= PANE_COUNT)
		return &app_editor_pane;
	return places[place] ? places[place] : app_side_tab(a);
}

const struct pane_class *app_focused(const struct app *a)
{
	return app_pane(a, a->nav.focus);
}

/* The live text on a pane's border; a place of tabs names the next. */
static void pane_info(const struct app *a, int place, const struct pane_class *pc,
		      char *buf, size_t len)
{
	size_t n;

	buf[0] = '\0';
	if (pc->info)
		pc->info(a, buf, len);
	if (places[place])
		return;
	n = strlen(buf);
	snprintf(buf + n, len - n, "%sF12 %s", n ? " · " : "", app_side_next_title(a));
}

void app_panes_draw(struct app *a, int *cy, int *cx)
{
	const struct theme *th = &a->theme;
	char info[300];

	*cy = *cx = -1;
	for (int p = 0; p < PANE_COUNT; p++) {
		const struct pane_class *pc = app_pane(a, p);
		struct rect r = a->ui.lay.pane[p];
		bool f = a->nav.focus == p;

		if (r.w == 0)
			continue; /* hidden behind a zoomed pane */
		layout_clear(stdscr, r, theme_attr(th, TR_NORMAL));
		pane_info(a, p, pc, info, sizeof info);
		layout_frame(stdscr, r, pc->title, info, f, th);
		if (pc->draw)
			pc->draw(a, r, f);
		if (f && pc->cursor)
			pc->cursor(a, cy, cx);
	}
}

bool app_pane_key_first(struct app *a, bool is_key, wint_t ch)
{
	const struct pane_class *pc = app_focused(a);

	return pc->key_first && pc->key_first(a, is_key, ch);
}

void app_pane_key(struct app *a, bool is_key, wint_t ch)
{
	const struct pane_class *pc = app_focused(a);

	if (pc->key)
		pc->key(a, is_key, ch);
}

void app_pane_paste(struct app *a, const char *text, size_t len)
{
	const struct pane_class *pc = app_focused(a);

	if (!pc->paste)
		pc = &app_editor_pane;
	pc->paste(a, text, len);
}

void app_pane_mouse(struct app *a, int y, int x, int wheel)
{
	int p = layout_pane_at(&a->ui.lay, y, x);
	const struct pane_class *pc = app_pane(a, p);
	struct rect in;

	if (p < 0)
		return;
	if (wheel) {
		if (pc->wheel)
			pc->wheel(a, 3 * wheel);
		return;
	}
	a->nav.focus = p;
	in = rect_inner(a->ui.lay.pane[p]);
	if (rect_contains(in, y, x) && pc->click)
		pc->click(a, y - in.y, x - in.x);
}

void app_focus_step(struct app *a, int step)
{
	for (int i = 0; i < PANE_COUNT; i++) {
		a->nav.focus = (a->nav.focus + step + PANE_COUNT) % PANE_COUNT;
		if (app_focused(a)->focusable)
			return;
	}
}

/* A tab without hints or a text of its own has its place's. */
const char *const *app_pane_hints(const struct app *a)
{
	const struct pane_class *pc = app_focused(a);
	const char *const *keys = pc->hints ? pc->hints(a) : NULL;

	if (!keys && !places[a->nav.focus])
		keys = app_side_hints(a);
	return keys ? keys : app_editor_pane.hints(a);
}

struct editor *app_pane_text(const struct app *a)
{
	const struct pane_class *pc = app_focused(a);

	if (pc->text)
		return pc->text(a);
	return !places[a->nav.focus] ? app_side_text(a) : app_editor_pane.text(a);
}

void app_show_place(struct app *a, int place)
{
	if (place < 0 || place >= PANE_COUNT)
		return;
	if (a->nav.focus == place && a->nav.zoomed) {
		app_zoom_toggle(a);               /* again: every pane */
		return;
	}
	a->nav.focus = place;
	a->nav.zoomed = true;
	app_message(a, false, "%s zoomed: Alt-%d again shows all", app_focused(a)->title,
		    place + 1);
}

void app_zoom_toggle(struct app *a)
{
	a->nav.zoomed = !a->nav.zoomed;
	if (a->nav.zoomed)
		app_message(a, false, "%s zoomed: F11 again shows all",
			    app_focused(a)->title);
	else
		app_message(a, false, "all panes");
}
