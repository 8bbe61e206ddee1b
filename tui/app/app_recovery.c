/* SPDX-License-Identifier: MIT */
/*
 * app_recovery.c - the start-up offer of the last session's unsaved text
 * (recovery.h), and what each answer does.
 *
 * One stray key must never destroy work: Esc (and n, Ctrl-C, k) keep the
 * text for later, in a file of its own; deleting is a named choice (d)
 * that asks again before it deletes; restoring gives the buffer back its
 * file, so Ctrl-S saves where the work belongs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "pane/pane_output.h"
#include "editor/editor.h"
#include "config/recovery.h"
#include "banned.h"

void app_recovery_offer(struct app *a)
{
	char what[4400], text[512];

	recovery_describe(&a->recovery.offer, what, sizeof what);
	snprintf(text, sizeof text, "sandpit stopped before this text was saved: "
		 "%s. Restore it into the Editor, keep it for later in a file of "
		 "its own, or delete it?", what);
	dialog_choose(&a->over.dlg, ACT_RECOVER, "Unsaved work from the last session",
		      text, "rkd", "r: restore   k/Esc: keep for later   d: delete...");
}

/* r: the text into the Editor, under its own file's name and path. */
static void restore(struct app *a)
{
	const struct recovery_info *ri = &a->recovery.offer;
	char err[512];
	size_t len;
	char *text;

	a->recovery.mine = true; /* offered and answered: ours now */
	if (editor_open(a->pane.ed, a->recovery.path, err, sizeof err) < 0) {
		app_message(a, true, "not restored: %s (the file is left as it was)", err);
		return;
	}
	/* keep the text, not the recovery file's path */
	text = editor_text(a->pane.ed, &len);
	if (text)
		editor_set_text(a->pane.ed, text, len, ri->name[0] ? ri->name : "recovered.py");
	free(text);
	if (ri->path[0])
		editor_adopt_path(a->pane.ed, ri->path);
	a->recovery.restored = true;
	if (ri->path[0])
		app_message(a, false, "restored %s - Ctrl-S saves it to %s", ri->name, ri->path);
	else
		app_message(a, false, "restored %s - Ctrl-S saves it", editor_name(a->pane.ed));
}

/* k, Esc: the text stays, under a name of its own, so this session can
 * keep its own buffer in recovery.py meanwhile. */
static void keep(struct app *a)
{
	char kept[sizeof a->recovery.path + 32];

	if (recovery_move_aside(a->recovery.path, kept, sizeof kept) == 0) {
		a->recovery.mine = true;
		app_message(a, false, "kept for later: %s (Ctrl-O opens it)", kept);
		output_message(a->pane.out, OUT_INFO, "the unsaved text of the last session "
			       "is kept in %s (Ctrl-O opens it)", kept);
	} else {
		/* left where it is, offered again next time: this session keeps none */
		a->recovery.mine = false;
		app_message(a, true, "kept in %s; this session's buffer is not kept "
			    "for recovery (%s)", a->recovery.path, strerror(errno));
	}
}

void app_recovery_answer(struct app *a, int action, enum dialog_answer ans,
			 int chosen)
{
	const struct recovery_info *ri = &a->recovery.offer;
	char text[512];

	if (action == ACT_RECOVER_DELETE) {
		if (ans != DLG_YES) {
			app_recovery_offer(a); /* not deleted: back to the choice */
			return;
		}
		if (recovery_remove(a->recovery.path) < 0) {
			app_message(a, true, "not deleted: %s: %s", a->recovery.path,
				    strerror(errno));
			return;
		}
		a->recovery.mine = true;
		app_message(a, false, "deleted the unsaved text of %s",
			    ri->name[0] ? ri->name : "the last session");
		return;
	}
	if (ans == DLG_CHOSEN && chosen == 'r') {
		restore(a);
	} else if (ans == DLG_CHOSEN && chosen == 'd') {
		snprintf(text, sizeof text, "Delete the unsaved text of %s for good? "
			 "It cannot be brought back.", ri->name[0] ? ri->name :
			 "the last session");
		dialog_ask(&a->over.dlg, ACT_RECOVER_DELETE, "Delete unsaved work", text, false);
	} else {
		keep(a);
	}
}
