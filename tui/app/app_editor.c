/* SPDX-License-Identifier: MIT */
/*
 * app_editor.c - the Editor pane (panes.h): the program being written.
 * Its keys come after the global key map, except while its find or
 * go-to prompt is open (then the prompt sees them first, all but F5 and
 * F1); every edit puts off the recovery file's write by two seconds, so
 * typing is never slowed by it.
 */
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "app/app.h"
#include "app/panes.h"
#include "editor/editor.h"
#include "banned.h"

bool app_unsaved(const struct app *a)
{
	return editor_modified(a->pane.ed) || a->recovery.restored;
}

static void editor_info(const struct app *a, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", editor_name(a->pane.ed),
		 editor_modified(a->pane.ed) ? " [+]" : "");
}

static void editor_pane_draw(struct app *a, struct rect r, bool focused)
{
	struct rect in = rect_inner(r);

	editor_draw(a->pane.ed, stdscr, in.y, in.x, in.h, in.w, &a->theme, focused);
}

static bool editor_key_first(struct app *a, bool is_key, wint_t ch)
{
	int key = (int)ch;

	return editor_prompt_active(a->pane.ed) &&
	       !(is_key && (key == KEY_F(5) || key == KEY_F(1))) &&
	       editor_key(a->pane.ed, is_key, ch);
}

/* A function key nothing is bound to: say so, rather than nothing. */
static void unbound_key(struct app *a, int key)
{
	const char *n = keyname(key);
	char name[32];

	if (key >= KEY_F(1) && key <= KEY_F(63))
		snprintf(name, sizeof name, "F%d", key - KEY_F0);
	else if (key == KEY_IC)
		snprintf(name, sizeof name, "Insert");
	else
		snprintf(name, sizeof name, "%s", n && !strncmp(n, "KEY_", 4) ? n + 4 : n ? n : "that key");
	app_message(a, false, "%s does nothing here (F1 lists the keys)", name);
}

static void editor_pane_key(struct app *a, bool is_key, wint_t ch)
{
	if (editor_key(a->pane.ed, is_key, ch))
		a->recovery.due = app_now() + 2;
	else if (is_key)
		unbound_key(a, (int)ch);
}

/* Text pasted where no pane takes it comes here; not under the help or
 * the demo menu, which take no text. */
static void editor_pane_paste(struct app *a, const char *text, size_t len)
{
	if (a->over.help.active || a->over.menu.active)
		return;
	a->nav.focus = PANE_EDITOR;
	editor_paste(a->pane.ed, text, len);
	a->recovery.due = app_now() + 2;
}

static void editor_pane_scroll(struct app *a, int lines)
{
	editor_scroll(a->pane.ed, lines);
}

static void editor_pane_click(struct app *a, int row, int col)
{
	editor_mouse_click(a->pane.ed, row, col);
}

static void editor_pane_cursor(const struct app *a, int *y, int *x)
{
	editor_screen_cursor(a->pane.ed, y, x);
}

static struct editor *editor_pane_text(const struct app *a)
{
	return a->pane.ed;
}

static const char *const *editor_hints(const struct app *a)
{
	static const char *const keys[] = {
		"F5 run", "F1 help", "F3 demos", "F2 carry", "F11 zoom", "^Q quit", NULL };
	/* a lesson's keys, each with its Ctrl twin: on a small screen its
	 * strip has no row for them */
	static const char *const lesson_keys[] = {
		"F5/^R run", "F10/^D h hint", "^D s solution", "^D z all text",
		"F3/^D lessons", "F1 help", NULL };

	return app_in_lesson(a) ? lesson_keys : keys;
}

const struct pane_class app_editor_pane = {
	.title = "Editor",
	.info = editor_info,
	.draw = editor_pane_draw,
	.key_first = editor_key_first,
	.key = editor_pane_key,
	.paste = editor_pane_paste,
	.wheel = editor_pane_scroll,
	.click = editor_pane_click,
	.cursor = editor_pane_cursor,
	.text = editor_pane_text,
	.hints = editor_hints,
	.focusable = true,
};
