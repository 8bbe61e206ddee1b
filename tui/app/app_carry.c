/* SPDX-License-Identifier: MIT */
/*
 * app_carry.c - the Carry pane's keys that need the app: loading a file
 * over a buffer that holds values, and clearing it. Both ask first, and
 * both are one edit that Ctrl-Z in the pane takes back.
 */
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "banned.h"

/* The load prompt was answered with path: ask first if values would go. */
void app_carry_load(struct app *a, const char *path)
{
	char text[CONFIG_PATH_MAX + 160];

	if (!path[0])
		return;
	snprintf(a->pending_path, sizeof a->pending_path, "%s", path);
	if (carry_is_empty(&a->carry)) {
		app_carry_answer(a, ACT_CARRY_REPLACE, DLG_YES);
		return;
	}
	snprintf(text, sizeof text, "The carry buffer holds values. Replace them "
		 "with %s? (Ctrl-Z in the Carry pane brings them back)", path);
	dialog_ask(&a->dlg, ACT_CARRY_REPLACE, "Replace the carry buffer", text, false);
}

bool app_carry_key(struct app *a, bool is_key, wint_t ch)
{
	if (!is_key || ch != KEY_CTRL_DEL)
		return false;
	if (carry_is_empty(&a->carry)) {
		app_message(a, false, "the carry buffer is empty already");
		return true;
	}
	dialog_ask(&a->dlg, ACT_CARRY_CLEAR, "Clear the carry buffer",
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
		carry_clear(&a->carry);
		app_message(a, false, "carry buffer cleared - Ctrl-Z in the pane brings it back");
	} else if (carry_load_file(&a->carry, a->pending_path, err, sizeof err) < 0) {
		app_message(a, true, "not loaded: %s", err);
	} else {
		app_message(a, false, "carry buffer loaded from %s", a->pending_path);
	}
}
