/* SPDX-License-Identifier: MIT */
/*
 * app_output.c - the Output pane (panes.h): what runs print, with the
 * pane's own keys when it has focus:
 *   arrows, PgUp, PgDn, Home, End  scroll
 *   Enter  the traceback's line in the Editor, else the newest picture large
 *   /  find text (any case); n the next older match, N the next newer
 *   s  save what the pane shows to a file
 *   c  clear the pane
 * Searching and saving ask for their text in the dialog; its answer comes
 * back through app_output_answer(). A click on a picture shows it large,
 * on a traceback row goes to its line.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "app/app.h"
#include "pane/pane_output.h"
#include "app/panes.h"
#include "pane/picture.h"
#include "banned.h"

static char last_find[256];

static void find(struct app *a, const char *needle, bool older)
{
	if (!needle[0])
		return;
	if (output_find(a->pane.out, needle, older))
		app_message(a, false, "found \"%s\" - n older, N newer", needle);
	else
		app_message(a, true, "\"%s\" not found %s", needle,
			    older ? "further back" : "further on");
}

static bool letter_key(struct app *a, int ch)
{
	switch (ch) {
	case '/':
		dialog_prompt(&a->over.dlg, ACT_OUTPUT_FIND, "Find in Output",
			      "Text to find in the Output pane (any case):", last_find);
		return true;
	case 'n':
	case 'N':
		if (!last_find[0])
			dialog_prompt(&a->over.dlg, ACT_OUTPUT_FIND, "Find in Output",
				      "Text to find in the Output pane (any case):", NULL);
		else
			find(a, last_find, ch == 'n');
		return true;
	case 's':
		dialog_prompt(&a->over.dlg, ACT_OUTPUT_SAVE, "Save Output",
			      "Save the Output pane, as shown, to this file:", "output.txt");
		return true;
	case 'c':
		output_clear(a->pane.out);
		app_message(a, false, "Output cleared");
		return true;
	default:
		return false;
	}
}

void app_output_answer(struct app *a, int action, const char *input)
{
	char err[512];

	if (action == ACT_OUTPUT_FIND) {
		snprintf(last_find, sizeof last_find, "%s", input);
		find(a, last_find, true);
	} else if (action == ACT_OUTPUT_SAVE && input[0]) {
		if (output_save(a->pane.out, input, err, sizeof err) < 0)
			app_message(a, true, "not saved: %s", err);
		else
			app_message(a, false, "Output saved to %s", input);
	}
}

static void output_info(const struct app *a, char *buf, size_t len)
{
	if (app_step_pending(a))
		snprintf(buf, len, "step: Space next violation, Esc all");
	else if (a->step.on && a->run.no)
		snprintf(buf, len, "run %d, step mode", a->run.no);
	else if (a->run.no)
		snprintf(buf, len, "run %d", a->run.no);
}

static void output_pane_draw(struct app *a, struct rect r, bool focused)
{
	(void)focused;
	output_draw(a->pane.out, stdscr, rect_inner(r), &a->theme);
}

/* Enter in Output: the newest picture on screen, large; n and p then
 * step through every picture Output holds (app_files_view_key). */
static void view_picture(struct app *a)
{
	struct picture *p = output_picture_shown(a->pane.out);

	if (!p) {
		app_message(a, false, "no picture in Output: a run that saves a PNG or JPEG shows it here");
		return;
	}
	app_view_output_picture(a, p);
}

static void output_key(struct app *a, bool is_key, wint_t ch)
{
	int key = (int)ch;
	int h = a->ui.lay.pane[PANE_OUTPUT].h, page = h > 3 ? h - 3 : 1;

	/* to the line with a traceback in view, else a picture */
	if (((!is_key && (key == '\r' || key == '\n')) || (is_key && key == KEY_ENTER)) &&
	    app_jump_output(a, -1))
		return;
	if (key == '\r' || key == '\n' || key == KEY_ENTER) {
		view_picture(a);
		return;
	}
	if (!is_key) {
		letter_key(a, key);
		return;
	}
	switch (key) {
	case KEY_UP: output_scroll(a->pane.out, 1); break;
	case KEY_DOWN: output_scroll(a->pane.out, -1); break;
	case KEY_PPAGE: output_scroll(a->pane.out, page); break;
	case KEY_NPAGE: output_scroll(a->pane.out, -page); break;
	case KEY_HOME: output_scroll(a->pane.out, INT_MAX); break;
	case KEY_END: output_scroll_end(a->pane.out); break;
	default: break;
	}
}

static void output_wheel(struct app *a, int lines)
{
	output_scroll(a->pane.out, -lines); /* the pane counts rows back from the end */
}

static void output_click(struct app *a, int row, int col)
{
	struct picture *pic = output_picture_at(a->pane.out, row);

	(void)col;
	if (pic)
		app_view_output_picture(a, pic); /* its place in the list, n/p */
	else
		app_jump_output(a, row);
}

static const char *const *output_hints(const struct app *a)
{
	static const char *const keys[] = {
		"Enter traceback", "PgUp scroll", "F11 zoom", "F5 run", "F1 help", NULL };

	(void)a;
	return keys;
}

const struct pane_class app_output_pane = {
	.title = "Output",
	.info = output_info,
	.draw = output_pane_draw,
	.key = output_key,
	.wheel = output_wheel,
	.click = output_click,
	.hints = output_hints,
	.focusable = true,
};
