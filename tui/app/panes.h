/* SPDX-License-Identifier: MIT */
/*
 * panes.h - every pane of the playground behind one interface, in the
 * way of htop's PanelClass: a pane is a table of what it does (its title,
 * how it draws, takes keys, pastes, scrolls, is clicked, where its cursor
 * is) and app_panes.c routes to the table. The loop draws by one call,
 * the mouse and the wheel reach the pane under the pointer by one call,
 * and the focused pane gets its keys by one call; nothing else asks which
 * pane has the focus.
 *
 * The five places on the screen (enum pane_id, screen/layout.h) hold one
 * pane each, except the Carry place, which holds tabs (Carry, Stdin,
 * Variables: app_side.c): panes sharing one rectangle, of which the tab
 * shown is the pane in that place.
 *
 * Invariants: every pointer but title may be NULL (the pane does not do
 * that); the ops get the app and draw or act only inside the pane's own
 * rectangle; a pane's file is the only one that knows its component.
 */
#ifndef PANES_H
#define PANES_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

struct app;
struct editor;
struct rect;

/* The key code of Ctrl with a letter (raw mode: the terminal sends it). */
#define CTRL_KEY(c) ((c) & 0x1f)

struct pane_class {
	const char *title;  /* on its border, and in "... zoomed" */
	/* Live text right of the title on the top border ("run 3"); a tab's
	 * border goes on with the next tab's name. */
	void (*info)(const struct app *a, char *buf, size_t len);
	/* Draw inside r's border (already drawn). */
	void (*draw)(struct app *a, struct rect r, bool focused);
	/* Keys the focused pane takes before the global key map (the Editor's
	 * open find prompt takes nearly all); true when taken. */
	bool (*key_first)(struct app *a, bool is_key, wint_t ch);
	/* The focused pane's keys, after the global key map. */
	void (*key)(struct app *a, bool is_key, wint_t ch);
	/* Bracketed paste while focused; NULL: the text goes to the Editor. */
	void (*paste)(struct app *a, const char *text, size_t len);
	/* The wheel over it: lines > 0 is down (towards the end). */
	void (*wheel)(struct app *a, int lines);
	/* A click at row, col of its inner area (it has the focus now). */
	void (*click)(struct app *a, int row, int col);
	/* The terminal's cursor while focused (-1: hidden). */
	void (*cursor)(const struct app *a, int *y, int *x);
	/* The text whose "Ln, Col" the status line shows while focused
	 * (NULL: the Editor's). */
	struct editor *(*text)(const struct app *a);
	/* The status line's key hints while focused, the most useful first,
	 * NULL-terminated (NULL: the Editor's). */
	const char *const *(*hints)(const struct app *a);
	bool focusable;     /* F6 and Tab stop on it */
};

/* The panes, one per place (app_panes.c registers them). */
extern const struct pane_class app_editor_pane;     /* app_editor.c */
extern const struct pane_class app_output_pane;     /* app_output.c */
extern const struct pane_class app_gauges_pane;     /* app_gauges.c */
extern const struct pane_class app_violations_pane; /* app_violations.c */
/* The Carry place's tabs (app_side.c registers them). */
extern const struct pane_class app_carry_tab;       /* app_carry.c */
extern const struct pane_class app_stdin_tab;       /* app_stdin.c */
extern const struct pane_class app_vars_tab;        /* app_vars.c */

/* app_panes.c: the pane in a place (enum pane_id), and the focused one. */
const struct pane_class *app_pane(const struct app *a, int place);
const struct pane_class *app_focused(const struct app *a);
/* Draw every place that is not hidden; *cy, *cx get the focused pane's
 * cursor (-1: none). */
void app_panes_draw(struct app *a, int *cy, int *cx);
/* The focused pane's keys: before the global map (true when taken) and
 * after it. */
bool app_pane_key_first(struct app *a, bool is_key, wint_t ch);
void app_pane_key(struct app *a, bool is_key, wint_t ch);
/* A paste for the focused pane (or the Editor, see paste above). */
void app_pane_paste(struct app *a, const char *text, size_t len);
/* The mouse at screen cell (y, x): wheel -1 up, 1 down, 0 a click. */
void app_pane_mouse(struct app *a, int y, int x, int wheel);
/* Move the focus by step places, skipping panes that take none. */
void app_focus_step(struct app *a, int step);
/* The focused pane's key hints, and the text whose "Ln, Col" shows. */
const char *const *app_pane_hints(const struct app *a);
struct editor *app_pane_text(const struct app *a);
/* Alt-1 .. Alt-5: the pane in place (enum pane_id) focused and zoomed to
 * the whole screen, whatever was focused; the same key again: every pane.
 * What a message names when it says where to look ("Alt-4"). */
void app_show_place(struct app *a, int place);
/* F11 / Ctrl-U: zoom the focused pane to the whole screen, and back. */
void app_zoom_toggle(struct app *a);

/* app_side.c: the Carry place's tabs (F12 shows the next). Its border
 * names the next tab; a tab without hints or a text of its own shows the
 * place's. */
const struct pane_class *app_side_tab(const struct app *a);
const char *app_side_next_title(const struct app *a);
void app_side_next(struct app *a);
const char *const *app_side_hints(const struct app *a);
struct editor *app_side_text(const struct app *a);

#endif
