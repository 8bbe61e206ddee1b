/* SPDX-License-Identifier: MIT */
/*
 * app_status.c - the status line, the screen's last row:
 *
 *    running 1.3 s · 2 violations   message      F5 run  F1 help  Ln 3, Col 1
 *
 * the state (or the running clock), the message of app_message(), the
 * focused pane's key hints (as many as fit, the most useful first; an
 * open dialog's own instead) and where the cursor is in the focused text.
 */
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "app/app.h"
#include "app/panes.h"
#include "editor/editor.h"
#include "pane/lesson_view.h"
#include "banned.h"

/* The state: "ok · 3 violations". */
static void state_text(const struct app *a, char *buf, size_t len)
{
	if (a->pane.viol.n == 0 || a->run.no == 0)
		snprintf(buf, len, "%s", a->run.state);
	else
		snprintf(buf, len, "%s · %zu violation%s", a->run.state, a->pane.viol.n,
			 a->pane.viol.n == 1 ? "" : "s");
}

/* The key hints that fit in width cells, the most useful first. */
static void key_hints(const struct app *a, int width, char *buf, size_t len)
{
	const char *const *keys = app_pane_hints(a);
	size_t used = 0;
	/* an open dialog takes the keys: the panes' would do nothing now */
	const char *over = dialog_active(&a->over.dlg) || a->over.limits_dlg.active ? "Enter OK  Esc cancel" :
			   a->over.help.active || a->files.fview.active || a->files.iview.active || a->over.menu.active ||
			   a->over.tview.active ||
			   (a->lesson.view && a->lesson.view->menu) ? "Esc closes" : NULL;

	buf[0] = '\0';
	if (over) {
		if ((int)strlen(over) <= width)
			snprintf(buf, len, "%s", over);
		return;
	}
	if (a->nav.zoomed && width >= 8) {
		snprintf(buf, len, "F11 back");
		used = strlen(buf);
	}
	for (size_t i = 0; keys[i]; i++) {
		size_t k = strlen(keys[i]);
		if (a->nav.zoomed && strcmp(keys[i], "F11 zoom") == 0)
			continue;
		/* the keys go in priority order: stop at the first that does not fit */
		if ((int)(used + (used ? 2 : 0) + k) > width || used + k + 3 > len)
			break;
		if (used) {
			memcpy(buf + used, "  ", 2);
			used += 2;
		}
		memcpy(buf + used, keys[i], k + 1);
		used += k;
	}
}

/* The status line: state, message, key hints and cursor position. The
 * message is what a person must read now, so it is never cut for the
 * rest: the key hints give way first (those that fit, most useful first),
 * then the cursor's position, then the state's clock and count. */
void app_status_draw(struct app *a)
{
	struct rect r = a->ui.lay.status;
	char left[160], right[200], pos[48], keys[160], state[128];
	attr_t sa = theme_attr(&a->theme, TR_STATUS);
	attr_t ka = theme_attr(&a->theme, TR_STATUS_KEY);
	long line = 0, col = 0;
	int lw, msgw, posw, room;

	layout_clear(stdscr, r, sa);
	state_text(a, state, sizeof state);
	if (a->run.sp && a->pane.viol.n)
		snprintf(left, sizeof left, " %s %.1f s · %zu violation%s ",
			 a->run.cancelling ? "cancelling" : "running", app_run_seconds(a),
			 a->pane.viol.n, a->pane.viol.n == 1 ? "" : "s");
	else if (a->run.sp)
		snprintf(left, sizeof left, " %s %.1f s ",
			 a->run.cancelling ? "cancelling" : "running", app_run_seconds(a));
	else
		snprintf(left, sizeof left, " %s ", state);
	editor_cursor_pos(app_pane_text(a), &line, &col);
	snprintf(pos, sizeof pos, "%sLn %ld, Col %ld ",
		 editor_modified(a->pane.ed) ? "[+] " : "", line, col);
	msgw = a->ui.msg[0] && app_now() < a->ui.msg_until ? text_width(a->ui.msg, strlen(a->ui.msg)) : 0;
	lw = text_width(left, strlen(left));
	posw = text_width(pos, strlen(pos));
	if (msgw && lw + 1 + msgw > r.w) {
		/* the state shrinks to its word ("running", "error") */
		snprintf(left, sizeof left, " %s ", a->run.sp ? (a->run.cancelling ? "cancelling" : "running")
							    : a->run.state);
		lw = text_width(left, strlen(left));
	}
	if (msgw && lw + 1 + msgw + 2 + posw > r.w)
		pos[0] = '\0', posw = 0;
	room = r.w - lw - 1 - (msgw ? msgw + 2 : 0) - posw - 2;
	key_hints(a, room, keys, sizeof keys);
	snprintf(right, sizeof right, "%s%s%s", keys, keys[0] && pos[0] ? "  " : "", pos);
	lw = text_draw(stdscr, r.y, r.x, r.w, left, strlen(left), ka | A_BOLD);
	if (msgw && r.w - lw - 1 > 0)
		text_draw(stdscr, r.y, r.x + lw + 1, r.w - lw - 1, a->ui.msg, strlen(a->ui.msg),
			  a->ui.msg_error ? theme_attr(&a->theme, TR_ERROR) : sa);
	int rw = text_width(right, strlen(right));
	if (rw && rw <= r.w - lw - 1 - (msgw ? msgw + 2 : 0))
		text_draw(stdscr, r.y, r.x + r.w - rw, rw, right, strlen(right), sa);
}
