/* SPDX-License-Identifier: MIT */
/*
 * app_output.c - the Output pane's own keys, when it has focus:
 *   /  find text (any case); n the next older match, N the next newer
 *   s  save what the pane shows to a file
 *   c  clear the pane
 * Searching and saving ask for their text in the dialog; its answer comes
 * back through app_output_answer().
 */
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "banned.h"

static char last_find[256];

static void find(struct app *a, const char *needle, bool older)
{
	if (!needle[0])
		return;
	if (output_find(a->out, needle, older))
		app_message(a, false, "found \"%s\" - n older, N newer", needle);
	else
		app_message(a, true, "\"%s\" not found %s", needle,
			    older ? "further back" : "further on");
}

bool app_output_key(struct app *a, int ch)
{
	switch (ch) {
	case '/':
		dialog_prompt(&a->dlg, ACT_OUTPUT_FIND, "Find in Output",
			      "Text to find in the Output pane (any case):", last_find);
		return true;
	case 'n':
	case 'N':
		if (!last_find[0])
			dialog_prompt(&a->dlg, ACT_OUTPUT_FIND, "Find in Output",
				      "Text to find in the Output pane (any case):", NULL);
		else
			find(a, last_find, ch == 'n');
		return true;
	case 's':
		dialog_prompt(&a->dlg, ACT_OUTPUT_SAVE, "Save Output",
			      "Save the Output pane, as shown, to this file:", "output.txt");
		return true;
	case 'c':
		output_clear(a->out);
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
		if (output_save(a->out, input, err, sizeof err) < 0)
			app_message(a, true, "not saved: %s", err);
		else
			app_message(a, false, "Output saved to %s", input);
	}
}
