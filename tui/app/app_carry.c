/* SPDX-License-Identifier: MIT */
/*
 * app_carry.c - the Carry tab of the Carry place (panes.h, app_side.c):
 * the JSON object the next run gets as carry-in (pane/pane_carry.c keeps
 * and checks it). Its keys that need the app: Ctrl-S saves it and Ctrl-O
 * loads a file over it, Ctrl-Delete clears it. Loading over values and
 * clearing ask first, and both are one edit that Ctrl-Z takes back.
 */
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "app/app.h"
#include "app/panes.h"
#include "editor/editor.h"
#include "banned.h"

/* The save prompt was answered with path ("": nothing to do). */
void app_carry_save(struct app *a, const char *path)
{
	char err[512];

	if (!path[0])
		return;
	if (carry_save_file(&a->pane.carry, path, err, sizeof err) < 0)
		app_message(a, true, "not saved: %s", err);
	else
		app_message(a, false, "carry buffer saved to %s", path);
}

/* The load prompt was answered with path: ask first if values would go. */
void app_carry_load(struct app *a, const char *path)
{
	char text[CONFIG_PATH_MAX + 160];

	if (!path[0])
		return;
	snprintf(a->keys.pending_path, sizeof a->keys.pending_path, "%s", path);
	if (carry_is_empty(&a->pane.carry)) {
		app_carry_answer(a, ACT_CARRY_REPLACE, DLG_YES);
		return;
	}
	snprintf(text, sizeof text, "The carry buffer holds values. Replace them "
		 "with %s? (Ctrl-Z in the Carry pane brings them back)", path);
	dialog_ask(&a->over.dlg, ACT_CARRY_REPLACE, "Replace the carry buffer", text, false);
}

/* Ctrl-Delete: clear it, asking first. */
static bool clear_key(struct app *a, bool is_key, wint_t ch)
{
	if (!is_key || ch != KEY_CTRL_DEL)
		return false;
	if (carry_is_empty(&a->pane.carry)) {
		app_message(a, false, "the carry buffer is empty already");
		return true;
	}
	dialog_ask(&a->over.dlg, ACT_CARRY_CLEAR, "Clear the carry buffer",
		   "Clear the carry buffer, so the next run gets nothing? "
		   "(Ctrl-Z in the Carry pane brings it back)", false);
	return true;
}

void app_carry_answer(struct app *a, int action, enum dialog_answer ans)
{
	char err[512];

	if (ans != DLG_YES) {
		app_message(a, false, "the carry buffer is as it was");
		return;
	}
	if (action == ACT_CARRY_CLEAR) {
		carry_clear(&a->pane.carry);
		app_message(a, false, "carry buffer cleared - Ctrl-Z in the pane brings it back");
	} else if (carry_load_file(&a->pane.carry, a->keys.pending_path, err, sizeof err) < 0) {
		app_message(a, true, "not loaded: %s", err);
	} else {
		app_message(a, false, "carry buffer loaded from %s", a->keys.pending_path);
	}
}

static void carry_info(const struct app *a, char *buf, size_t len)
{
	(void)a;
	snprintf(buf, len, "F2 merges · ^Del clears");
}

static void carry_tab_draw(struct app *a, struct rect r, bool focused)
{
	carry_draw(&a->pane.carry, stdscr, rect_inner(r), &a->theme, focused);
}

/* Ctrl-S and Ctrl-O are the buffer's here; find and go-to too. */
static bool carry_key_first(struct app *a, bool is_key, wint_t ch)
{
	if (is_key)
		return false;
	if (ch == CTRL_KEY('s'))
		dialog_prompt(&a->over.dlg, ACT_CARRY_SAVE, "Save carry buffer",
			      "Save the carry buffer to this JSON file:", "carry.json");
	else if (ch == CTRL_KEY('o'))
		dialog_prompt(&a->over.dlg, ACT_CARRY_LOAD, "Load carry buffer",
			      "Replace the carry buffer with this JSON file:", NULL);
	else if (ch == CTRL_KEY('f') || ch == CTRL_KEY('l'))
		carry_key(&a->pane.carry, is_key, ch);
	else
		return false;
	return true;
}

static void carry_tab_key(struct app *a, bool is_key, wint_t ch)
{
	if (!clear_key(a, is_key, ch))
		carry_key(&a->pane.carry, is_key, ch);
}

static void carry_tab_paste(struct app *a, const char *text, size_t len)
{
	carry_paste(&a->pane.carry, text, len);
}

static void carry_scroll(struct app *a, int lines)
{
	editor_scroll(a->pane.carry.ed, lines);
}

static void carry_click(struct app *a, int row, int col)
{
	editor_mouse_click(a->pane.carry.ed, row, col);
}

static void carry_cursor(const struct app *a, int *y, int *x)
{
	editor_screen_cursor(a->pane.carry.ed, y, x);
}

const struct pane_class app_carry_tab = {
	.title = "Carry",
	.info = carry_info,
	.draw = carry_tab_draw,
	.key_first = carry_key_first,
	.key = carry_tab_key,
	.paste = carry_tab_paste,
	.wheel = carry_scroll,
	.click = carry_click,
	.cursor = carry_cursor,
	.focusable = true,
};
