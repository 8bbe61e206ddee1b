/* SPDX-License-Identifier: MIT */
/*
 * app_keys.c - the key map of the playground (the contract in DESIGN.md):
 *
 *   F5 / Ctrl-R run          Esc / Ctrl-C cancel a run   F2 / Ctrl-B carry forward
 *   F3 / Ctrl-D demos        F1 / Ctrl-G help            F9 / Ctrl-] mouse on/off
 *   F4 / Ctrl-P limits       F12 / Ctrl-\\ the Carry pane's next tab (Carry, Stdin, Variables)
 *   F6 / Ctrl-W, Alt-Right / Alt-Down  focus the next pane
 *   Shift-F6, Alt-Left / Alt-Up        focus the previous pane
 *   Tab / Shift-Tab indent / dedent in the Editor, move the focus elsewhere;
 *   Esc in another pane goes back to the Editor
 *   Ctrl-S save              Ctrl-O open                 Ctrl-Q quit
 *   Ctrl-F find, Ctrl-L go to line
 *
 * Modal layers come first (paste, dialog, help, demo menu), then the
 * global keys, then the focused pane. Ctrl-C and Esc only cancel when a
 * run is going; otherwise they belong to the pane (copy, leave a prompt).
 * Escape sequences ncurses did not decode go through keyseq.c first, so
 * an Alt-chord or an unknown F-key never types text.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <utf8proc.h>

#include "app/app.h"
#include "text/clipboard.h"
#include "editor/editor.h"
#include "editor/keyseq.h"
#include "pane/lesson_view.h"
#include "text/pathcomplete.h"
#include "pane/picture.h"
#include "buf.h"
#include "banned.h"

#define CTRL(c) ((c) & 0x1f)

/* Append one code point to the paste buffer as UTF-8. */
static void paste_add(struct app *a, wint_t c)
{
	char b[4];
	size_t n;

	if (c == '\r')
		c = '\n'; /* terminals send Enter as CR inside a paste */
	if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return;
	n = (size_t)utf8proc_encode_char((utf8proc_int32_t)c, (utf8proc_uint8_t *)b);
	if (n == 0)
		return;
	if (a->paste_len + n > PASTE_MAX) {
		a->paste_cut = true;
		return;
	}
	if (a->paste_len + n > a->paste_cap) {
		char *p = sp_grow(a->paste, &a->paste_cap, a->paste_len + n, 1);
		if (!p)
			return;
		a->paste = p;
	}
	memcpy(a->paste + a->paste_len, b, n);
	a->paste_len += n;
}

/* The paste ended: hand it to whoever has the keyboard. */
static void paste_deliver(struct app *a)
{
	if (dialog_active(&a->dlg))
		dialog_paste(&a->dlg, a->paste, a->paste_len);
	else if (a->limits_dlg.active)
		app_limits_paste(a, a->paste, a->paste_len);
	else if (a->focus == PANE_CARRY)
		app_side_paste(a, a->paste, a->paste_len);
	else if (!a->help.active && !a->menu.active) {
		a->focus = PANE_EDITOR;
		editor_paste(a->ed, a->paste, a->paste_len);
		a->recovery_due = app_now() + 2;
	}
	if (a->paste_cut)
		app_message(a, true, "the paste was cut at %u MiB", PASTE_MAX >> 20);
	a->paste_len = 0;
	a->pasting = false;
	a->paste_cut = false;
}

void app_paste_idle(struct app *a, double now)
{
	if (!a->pasting || now - a->paste_last < PASTE_IDLE_S)
		return;
	paste_deliver(a);
	a->dirty = true;
}

/* The end marker, when it came split: ESC timed out into a key of its
 * own and "[201~" followed as text. */
static bool paste_ends_split(struct app *a)
{
	static const char marker[] = "\x1b[201~";
	size_t m = sizeof marker - 1;

	if (a->paste_len < m || memcmp(a->paste + a->paste_len - m, marker, m) != 0)
		return false;
	a->paste_len -= m;
	return true;
}

bool app_unsaved(const struct app *a)
{
	return editor_modified(a->ed) || a->recovered;
}

void app_save(struct app *a, const char *path, bool quit_after)
{
	char err[512];

	if (editor_save(a->ed, path, err, sizeof err) < 0) {
		app_message(a, true, "not saved: %s", err);
		return;
	}
	a->recovered = false;
	a->recovery_due = 0;
	if (a->recovery_path[0] && a->recovery_mine)
		recovery_remove(a->recovery_path);
	app_message(a, false, "saved %s", editor_path(a->ed) ? editor_path(a->ed)
		    : editor_name(a->ed));
	if (quit_after)
		a->quit = true;
}

/* Ctrl-S: save to the file's path, or ask for one. */
static void save_key(struct app *a, bool quit_after)
{
	if (a->focus == PANE_CARRY && a->side_tab == SIDE_CARRY && !quit_after) {
		dialog_prompt(&a->dlg, ACT_CARRY_SAVE, "Save carry buffer",
			      "Save the carry buffer to this JSON file:", "carry.json");
		return;
	}
	if (editor_path(a->ed)) {
		app_save(a, NULL, quit_after);
		return;
	}
	dialog_prompt(&a->dlg, quit_after ? ACT_SAVE_AS_QUIT : ACT_SAVE_AS,
		      "Save as", "Save the Editor's buffer to this file:",
		      editor_name(a->ed));
}

static void open_path(struct app *a, const char *path)
{
	char err[512];
	bool is_new = access(path, F_OK) != 0 && errno == ENOENT;

	if (editor_open(a->ed, path, err, sizeof err) < 0) {
		app_message(a, true, "not opened: %s", err);
		return;
	}
	a->recovered = false;
	a->focus = PANE_EDITOR;
	if (is_new)
		app_message(a, false, "new file %s: Ctrl-S creates it", path);
	else
		app_message(a, false, "opened %s", path);
}

void app_load_demo(struct app *a, size_t i, bool ask)
{
	char name[128], title[160];
	const char *text;
	size_t len;

	if (i >= demos_count())
		return;
	if (ask && app_unsaved(a)) {
		a->pending_demo = i;
		dialog_ask(&a->dlg, ACT_DEMO_DISCARD, "Unsaved changes",
			   "The Editor has unsaved changes. Replace them with "
			   "the demo? (s saves them first)", true);
		return;
	}
	app_lesson_keep_work(a);
	if (a->lessons)
		a->lessons->cur = -1; /* a demo is not judged: the lesson closes */
	text = demo_text(i, &len);
	demo_buffer_name(i, name, sizeof name);
	demo_title(i, title, sizeof title);
	editor_set_text(a->ed, text, len, name);
	a->demo_loaded = i + 1; /* for its own limits (demo_wall_factor) */
	a->recovered = false;
	a->focus = PANE_EDITOR;
	app_message(a, false, "demo: %s - F5 runs it", title);
}

/* Ctrl-Q: quit, asking first when something would be lost. */
static void quit_key(struct app *a)
{
	if (app_unsaved(a))
		dialog_ask(&a->dlg, ACT_QUIT, "Quit",
			   "The Editor has unsaved changes. Quit without saving? "
			   "(s saves first)", true);
	else
		a->quit = true;
}

/* A dialog was answered. */
static void dialog_done(struct app *a, int action, enum dialog_answer ans,
			const char *input)
{
	char err[512];

	if (app_files_dialog(a, action, ans, input))
		return;
	if (action == ACT_RECOVER || action == ACT_RECOVER_DELETE) {
		app_recovery_answer(a, action, ans, (unsigned char)input[0]);
		return;
	}
	if (action == ACT_CARRY_REPLACE || action == ACT_CARRY_CLEAR) {
		app_carry_answer(a, action, ans);
		return;
	}
	if (ans == DLG_NO) {
		app_message(a, false, "cancelled");
		return;
	}
	switch (action) {
	case ACT_QUIT:
		if (ans == DLG_SAVE)
			save_key(a, true);
		else
			a->quit = true;
		break;
	case ACT_SAVE_AS:
	case ACT_SAVE_AS_QUIT:
		if (input[0])
			app_save(a, input, action == ACT_SAVE_AS_QUIT);
		break;
	case ACT_OPEN:
		if (!input[0])
			break;
		if (app_unsaved(a)) {
			snprintf(a->pending_path, sizeof a->pending_path, "%s", input);
			dialog_ask(&a->dlg, ACT_OPEN_DISCARD, "Unsaved changes",
				   "The Editor has unsaved changes. Open the file "
				   "anyway and lose them?", false);
		} else {
			open_path(a, input);
		}
		break;
	case ACT_OPEN_DISCARD:
		open_path(a, a->pending_path);
		break;
	case ACT_DEMO_DISCARD:
		if (ans == DLG_SAVE) {
			save_key(a, false);
			if (app_unsaved(a))
				break; /* a save-as prompt is up, or saving failed */
		}
		app_load_demo(a, a->pending_demo, false);
		break;
	case ACT_LESSON_DISCARD:
		if (ans == DLG_SAVE) {
			save_key(a, false);
			if (app_unsaved(a))
				break;
		}
		app_lesson_open(a, a->pending_demo, false);
		break;
	case ACT_CARRY_SAVE:
		if (input[0] && carry_save_file(&a->carry, input, err, sizeof err) < 0)
			app_message(a, true, "not saved: %s", err);
		else if (input[0])
			app_message(a, false, "carry buffer saved to %s", input);
		break;
	case ACT_CARRY_LOAD:
		app_carry_load(a, input);
		break;
	case ACT_OUTPUT_FIND:
	case ACT_OUTPUT_SAVE:
		app_output_answer(a, action, input);
		break;
	default:
		app_lesson_dialog(a, action, ans);
		break;
	}
}

/* F2: merge the last run's carry_out into the buffer. */
static void carry_forward(struct app *a)
{
	char msg[512], err[256];

	if (a->run) {
		app_message(a, true, "wait for the run to finish (or Esc) before F2");
		return;
	}
	if (carry_merge(&a->carry, a->last_carry_out, msg, sizeof msg) < 0) {
		app_message(a, true, "%s", msg);
		return;
	}
	a->carry_of_demo = !app_in_lesson(a); /* a lesson starts without it */
	if (carry_save_state(&a->carry, err, sizeof err) < 0)
		app_message(a, true, "%s (not kept: %s)", msg, err);
	else
		app_message(a, false, "%s", msg);
}

/* Keys for the focused pane other than the Editor and Carry. */
static void pane_key(struct app *a, int key)
{
	int page = a->lay.pane[a->focus].h > 3 ? a->lay.pane[a->focus].h - 3 : 1;

	if (a->focus == PANE_OUTPUT) {
		switch (key) {
		case KEY_UP: output_scroll(a->out, 1); break;
		case KEY_DOWN: output_scroll(a->out, -1); break;
		case KEY_PPAGE: output_scroll(a->out, page); break;
		case KEY_NPAGE: output_scroll(a->out, -page); break;
		case KEY_HOME: output_scroll(a->out, INT_MAX); break;
		case KEY_END: output_scroll_end(a->out); break;
		default: break;
		}
	} else if (a->focus == PANE_VIOLATIONS) {
		violations_key(&a->viol, key);
	}
}

/* Enter in Output: the newest picture on screen, large; n and p then
 * step through every picture Output holds (app_files_view_key). */
static void view_picture(struct app *a)
{
	struct picture *p = output_picture_shown(a->out);

	if (!p) {
		app_message(a, false, "no picture in Output: a run that saves a PNG or JPEG shows it here");
		return;
	}
	app_view_output_picture(a, p);
}

/* The modal layers. Returns true when one of them took the key. */
static bool modal_key(struct app *a, bool is_key, wint_t ch)
{
	int key = (int)ch;

	if (dialog_active(&a->dlg)) {
		int action = a->dlg.action;
		char input[LE_MAX];
		enum dialog_answer ans = dialog_key(&a->dlg, is_key, ch);
		if (ans != DLG_PENDING) {
			/* every prompt takes a path: "~/" is the home, as in a shell */
			path_expand_home(le_text(&a->dlg.field), a->dlg.field.len,
					 input, sizeof input);
			if (ans == DLG_CHOSEN) {   /* a named choice: its key */
				input[0] = (char)a->dlg.chosen;
				input[1] = '\0';
			}
			dialog_done(a, action, ans, input);
		}
		return true;
	}
	if (app_limits_key(a, is_key, ch))
		return true;
	if (a->tview.active) {
		if (key == 27 || key == 'q' || (!is_key && (key == '\n' || key == '\r'))) {
			a->tview.active = false;
			table_free(&a->tview.t);
		} else if (is_key || key == ' ' || key == 'h' || key == 'j' || key == 'k' ||
			   key == 'l') {
			table_key(&a->tview.t, key, LINES - 6);
		}
		return true;
	}
	if (a->help.active) {
		help_key(&a->help, is_key || key == 27 || key < 32 || key == 'q' ||
			 key == ' ' ? key : 0, a->lay.rows);
		return true;
	}
	if (app_files_view_key(a, key))
		return true;
	if (app_history_key(a, key))
		return true;
	if (a->menu.active) {
		long r = demo_menu_key(&a->menu, key);
		if (r >= 0)
			app_load_demo(a, (size_t)r, true);
		else if (r == DEMO_MENU_LESSONS)
			app_lesson_menu(a);
		else if (r == DEMO_MENU_STEP)
			app_step_toggle(a);
		else if (r == DEMO_MENU_HISTORY)
			app_history_open(a);
		return true;
	}
	if (a->lessons && a->lessons->menu) {
		app_lesson_menu_key(a, key);
		return true;
	}
	if (a->lessons && a->lessons->full) {
		lesson_full_key(a->lessons, key); /* any other key closes it */
		a->dirty = true;
		return true;
	}
	if (!is_key && app_step_key(a, key))
		return true;
	return false;
}

/* Mouse: the wheel scrolls the pane under the pointer; a click focuses. */
static void mouse_key(struct app *a)
{
	MEVENT ev;
	int p;
	struct picture *pic;

	if (getmouse(&ev) != OK)
		return;
	if (a->menu.active) {
		if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
			long r = demo_menu_click(&a->menu, a->lay.rows, ev.y);
			if (r >= 0)
				app_load_demo(a, (size_t)r, true);
		}
		return;
	}
	if (dialog_active(&a->dlg) || a->help.active || a->iview.active || a->hist.active ||
	    (a->lessons && (a->lessons->menu || a->lessons->full)) || a->limits_dlg.active)
		return;
	p = layout_pane_at(&a->lay, ev.y, ev.x);
	if (p < 0)
		return;
	struct rect in = rect_inner(a->lay.pane[p]);
	int dir = ev.bstate & BUTTON4_PRESSED ? -1 :
#ifdef BUTTON5_PRESSED
		  ev.bstate & BUTTON5_PRESSED ? 1 :
#endif
		  0;
	if (dir) {
		switch (p) {
		case PANE_EDITOR: editor_scroll(a->ed, 3 * dir); break;
		case PANE_OUTPUT: output_scroll(a->out, -3 * dir); break;
		case PANE_VIOLATIONS: violations_scroll_text(&a->viol, 3 * dir); break;
		case PANE_CARRY: app_side_scroll(a, 3 * dir); break;
		default: break;
		}
		return;
	}
	if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
		return;
	a->focus = p;
	if (!rect_contains(in, ev.y, ev.x))
		return;
	if (p == PANE_EDITOR)
		editor_mouse_click(a->ed, ev.y - in.y, ev.x - in.x);
	else if (p == PANE_CARRY)
		app_side_click(a, ev.y - in.y, ev.x - in.x);
	else if (p == PANE_VIOLATIONS && violations_click(&a->viol, ev.y - in.y))
		app_jump_from(a, p, -1);
	else if (p == PANE_OUTPUT && (pic = output_picture_at(a->out, ev.y - in.y)))
		app_view_output_picture(a, pic); /* its place in the list, n/p */
	else if (p == PANE_OUTPUT)
		app_jump_from(a, p, ev.y - in.y);
}

/* Keys that move the focus. True when the key was one of them. */
static bool focus_key(struct app *a, bool fkey, int key)
{
	int step = 0;

	if ((fkey && (key == KEY_F(6) || key == KEY_ALT_RIGHT || key == KEY_ALT_DOWN)) ||
	    (!fkey && key == CTRL('w')))
		step = 1;
	else if (fkey && (key == KEY_F(18) || key == KEY_ALT_LEFT || key == KEY_ALT_UP))
		step = PANE_COUNT - 1;               /* Shift-F6 is F18 to ncurses */
	else if (a->focus != PANE_EDITOR && !fkey && key == '\t')
		step = 1;                             /* Tab indents in the Editor */
	else if (a->focus != PANE_EDITOR && fkey && key == KEY_BTAB)
		step = PANE_COUNT - 1;
	else if (a->focus != PANE_EDITOR && !fkey && key == 27) {
		a->focus = PANE_EDITOR;               /* Esc: back to the Editor */
		if (a->zoomed) /* among all panes: a zoomed Editor would hide the next run's output */
			app_zoom_toggle(a);
		return true;
	}
	if (!step)
		return false;
	a->focus = (a->focus + step) % PANE_COUNT;
	return true;
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

/* Run a key through keyseq.c: false when there is nothing to act on. */
static bool decode_key(struct app *a, bool *is_key, wint_t *ch)
{
	char desc[64];
	bool dropped;
	enum keyseq_result r = keyseq_feed(&a->keyseq, is_key, ch, &dropped,
					   desc, sizeof desc);

	if (r == KS_HOLD)
		return false;
	if (r == KS_IGNORED || dropped) {
		const char *term = getenv("TERM");
		if (desc[0] == 'A')     /* an Alt-chord */
			app_message(a, false, "ignored %s: it means nothing here "
				    "(F1 lists the keys)", desc);
		else
			app_message(a, true, "ignored the key sequence %s: TERM=%s may "
				    "not match this terminal (F1 lists the keys)", desc,
				    term ? term : "(unset)");
	}
	return r == KS_KEY;
}

static void dispatch_key(struct app *a, bool is_key, wint_t ch);
static void share_clipboard(struct app *a);

/* One key, past the escape-sequence decoder: a paste, or a key. */
static void take_key(struct app *a, bool is_key, wint_t ch)
{
	int key = (int)ch;
	bool fkey = is_key;

	if (fkey && key == KEY_PASTE_BEGIN) {
		a->pasting = true;
		a->paste_cut = false;
		a->paste_len = 0;
		a->paste_last = app_now();
		return;
	}
	if (fkey && key == KEY_PASTE_END) {
		paste_deliver(a);
		return;
	}
	if (a->pasting) {
		a->paste_last = app_now();
		if (!fkey)
			paste_add(a, ch);
		else if (key == KEY_ENTER)
			paste_add(a, '\n');
		if (paste_ends_split(a))
			paste_deliver(a);
		return;
	}
	dispatch_key(a, is_key, ch);
}

void app_key(struct app *a, bool is_key, wint_t ch)
{
	a->dirty = true;
	if (is_key && ch == KEY_RESIZE) {
		/* the terminal was cleared: the pictures in pixels go again */
		output_pixels_lost(a->out);
		return; /* app.c lays out again before drawing */
	}
	/* pasted bytes are text, never sequences; the rest is decoded first
	 * (so a paste marker split from its ESC still starts a paste) */
	if (a->pasting || decode_key(a, &is_key, &ch))
		take_key(a, is_key, ch);
	if (keyseq_replay(&a->keyseq, &is_key, &ch))
		take_key(a, is_key, ch);
	share_clipboard(a);
}

/* What a key copied or cut goes to the system clipboard too (OSC 52). */
static void share_clipboard(struct app *a)
{
	struct editor *eds[2] = { a->ed, a->carry.ed };
	for (int i = 0; i < 2; i++) {
		unsigned long v;
		size_t len;
		const char *clip = eds[i] ? editor_clipboard(eds[i], &len, &v) : NULL;
		if (!clip || v == a->clip_version[i])
			continue;
		a->clip_version[i] = v;
		if (!clipboard_copy(clip, len))
			app_message(a, false, "copied inside sandpit only: %zu bytes is "
				    "more than the terminal's clipboard takes", len);
	}
}

void app_keys_flush(struct app *a)
{
	wint_t ch;

	if (keyseq_flush(&a->keyseq, &ch)) {
		a->dirty = true;
		dispatch_key(a, false, ch);
	}
}

/* One decoded key. */
static void dispatch_key(struct app *a, bool is_key, wint_t ch)
{
	int key = (int)ch;
	bool fkey = is_key;

	if (fkey && key == KEY_MOUSE) {
		mouse_key(a);
		return;
	}
	if (modal_key(a, is_key, ch))
		return;
	if (app_files_key(a, fkey, key)) /* F7 / Ctrl-T attach, F8 / Ctrl-N files */
		return;

	/* In the Editor's find / go-to prompt, the prompt sees keys first. */
	if (a->focus == PANE_EDITOR && editor_prompt_active(a->ed) &&
	    !(fkey && (key == KEY_F(5) || key == KEY_F(1))) &&
	    editor_key(a->ed, is_key, ch))
		return;

	if ((fkey && key == KEY_F(5)) || (!fkey && key == CTRL('r'))) {
		app_run_start(a);
	} else if (a->run && ((!fkey && key == 27) || (!fkey && key == CTRL('c')))) {
		app_run_cancel(a);
	} else if ((fkey && key == KEY_F(2)) || (!fkey && key == CTRL('b'))) {
		carry_forward(a);
	} else if ((fkey && key == KEY_F(3)) || (!fkey && key == CTRL('d'))) {
		if (app_in_lesson(a) || a->learn)
			app_lesson_menu(a); /* 'd' there goes on to the demos */
		else
			demo_menu_open(&a->menu);
	} else if (fkey && key == KEY_F(10)) {
		app_lesson_hint(a);
	} else if (fkey && key == KEY_F(22)) { /* Shift-F10 to ncurses */
		app_lesson_solution(a, true);
	} else if ((fkey && key == KEY_F(4)) || (!fkey && key == CTRL('p'))) {
		app_limits_open(a);
	} else if ((fkey && key == KEY_F(12)) || (!fkey && key == CTRL('\\'))) {
		app_side_next(a);
	} else if ((fkey && key == KEY_F(1)) || (!fkey && key == CTRL('g'))) {
		help_open(&a->help);
	} else if ((fkey && key == KEY_F(11)) || (!fkey && key == CTRL('u'))) {
		app_zoom_toggle(a);
	} else if ((a->focus == PANE_VIOLATIONS || a->focus == PANE_OUTPUT) &&
		   ((!fkey && (key == '\r' || key == '\n')) || (fkey && key == KEY_ENTER)) &&
		   app_jump_from(a, a->focus, -1)) {
		/* to the line; in Output only with a traceback in view (else a picture) */
	} else if (focus_key(a, fkey, key)) {
		/* F6, Shift-F6, Ctrl-W, Alt-arrows; Tab and Esc outside the Editor */
	} else if (!fkey && key == CTRL('s')) {
		save_key(a, false);
	} else if (!fkey && key == CTRL('o')) {
		if (a->focus == PANE_CARRY && a->side_tab == SIDE_CARRY)
			dialog_prompt(&a->dlg, ACT_CARRY_LOAD, "Load carry buffer",
				      "Replace the carry buffer with this JSON file:", NULL);
		else
			dialog_prompt(&a->dlg, ACT_OPEN, "Open", "File to open:", NULL);
	} else if (!fkey && key == CTRL('q')) {
		quit_key(a);
	} else if ((fkey && key == KEY_F(9)) || (!fkey && key == CTRL(']'))) {
		a->mouse_on = !a->mouse_on;
		mousemask(a->mouse_on ? ALL_MOUSE_EVENTS : 0, NULL);
		app_message(a, false, a->mouse_on ? "mouse on (F9 or Ctrl-] turns it off)" :
			    "mouse off: the terminal selects text (F9 or Ctrl-] turns it on)");
	} else if (!fkey && key == CTRL('f') && a->focus != PANE_CARRY) {
		a->focus = PANE_EDITOR;
		editor_begin_find(a->ed);
	} else if (!fkey && key == CTRL('l') && a->focus != PANE_CARRY) {
		a->focus = PANE_EDITOR;
		editor_begin_goto(a->ed);
	} else if (a->focus == PANE_EDITOR) {
		if (editor_key(a->ed, is_key, ch))
			a->recovery_due = app_now() + 2;
		else if (fkey)
			unbound_key(a, key);
	} else if (a->focus == PANE_CARRY) {
		if (a->side_tab != SIDE_CARRY || !app_carry_key(a, is_key, ch))
			app_side_key(a, is_key, ch);
	} else if (a->focus == PANE_OUTPUT && (key == '\r' || key == '\n' || key == KEY_ENTER)) {
		view_picture(a);
	} else if (fkey) {
		pane_key(a, key);
	} else if (a->focus == PANE_OUTPUT) {
		app_output_key(a, key);
	}
}
