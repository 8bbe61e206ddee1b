/* SPDX-License-Identifier: MIT */
/*
 * app_limits.c - the F4 / Ctrl-P limits dialog in the playground: open it
 * on the limits in use, and take its answer. New limits show in the
 * Resources pane at once and the next run uses them; a run already going
 * keeps the limits it started with. Writing them to the config file is a
 * separate, explicit choice (Ctrl-S in the dialog).
 */
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "banned.h"

void app_limits_open(struct app *a)
{
	limits_dialog_open(&a->over.limits_dlg, &a->cfg.limits, a->cfg.presets,
			   a->cfg.n_presets);
}

/* The path the limits are saved to: the file read, or the default one. */
static void save_path(const struct app *a, char *buf, size_t len)
{
	if (a->cfg.config_path[0])
		snprintf(buf, len, "%s", a->cfg.config_path);
	else
		config_default_path(buf, len);
}

bool app_limits_key(struct app *a, bool is_key, wint_t ch)
{
	struct sp_limits l;
	enum limits_answer ans;
	char path[CONFIG_PATH_MAX], err[CONFIG_PATH_MAX + 128];

	if (!a->over.limits_dlg.active)
		return false;
	ans = limits_dialog_key(&a->over.limits_dlg, is_key, ch, &l);
	if (ans == LIMITS_PENDING)
		return true;
	if (ans == LIMITS_CANCEL) {
		app_message(a, false, "limits unchanged");
		return true;
	}
	a->cfg.limits = l;
	if (!a->run.sp)
		a->pane.gauges.limits = l; /* the pane shows them at once */
	if (ans == LIMITS_SAVE) {
		save_path(a, path, sizeof path);
		if (config_save_limits(path, &l, err, sizeof err) < 0) {
			app_message(a, true, "limits in use but not saved: %s", err);
			return true;
		}
		snprintf(a->cfg.config_path, sizeof a->cfg.config_path, "%s", path);
		app_message(a, false, "limits saved to %s", path);
	} else {
		app_message(a, false, "limits set, not saved (F4 Ctrl-S saves)");
	}
	return true;
}

void app_limits_paste(struct app *a, const char *text, size_t len)
{
	for (size_t i = 0; i < len && a->over.limits_dlg.active; i++) {
		if (text[i] == '\n' || text[i] == '\r')
			break; /* a paste never answers the dialog */
		app_limits_key(a, false, (wint_t)(unsigned char)text[i]);
	}
}

void app_limits_draw(struct app *a, int *cy, int *cx)
{
	if (!a->over.limits_dlg.active)
		return;
	limits_dialog_draw(&a->over.limits_dlg, stdscr, LINES, COLS, &a->theme);
	limits_dialog_cursor(&a->over.limits_dlg, LINES, COLS, cy, cx);
}
