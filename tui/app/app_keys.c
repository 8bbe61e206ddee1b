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
 * keys the focused pane takes first (the Editor's open find prompt, the
 * Carry tab's Ctrl-S and Ctrl-O), then the global keys (global_keys[]),
 * then the focused pane (panes.h routes). Ctrl-C and Esc only cancel
 * when a run is going; otherwise they belong to the pane (copy, leave a
 * prompt).
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
#include "pane/pane_output.h"
#include "app/panes.h"
#include "text/clipboard.h"
#include "editor/editor.h"
#include "editor/keyseq.h"
#include "pane/lesson_view.h"
#include "text/pathcomplete.h"
#include "buf.h"
#include "banned.h"

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
	if (a->keys.paste_len + n > PASTE_MAX) {
		a->keys.paste_cut = true;
		return;
	}
	if (a->keys.paste_len + n > a->keys.paste_cap) {
		char *p = sp_grow(a->keys.paste, &a->keys.paste_cap, a->keys.paste_len + n, 1);
		if (!p)
			return;
		a->keys.paste = p;
	}
	memcpy(a->keys.paste + a->keys.paste_len, b, n);
	a->keys.paste_len += n;
}

/* The paste ended: hand it to whoever has the keyboard. */
static void paste_deliver(struct app *a)
{
	if (dialog_active(&a->over.dlg))
		dialog_paste(&a->over.dlg, a->keys.paste, a->keys.paste_len);
	else if (a->over.limits_dlg.active)
		app_limits_paste(a, a->keys.paste, a->keys.paste_len);
	else
		app_pane_paste(a, a->keys.paste, a->keys.paste_len);
	if (a->keys.paste_cut)
		app_message(a, true, "the paste was cut at %u MiB", PASTE_MAX >> 20);
	a->keys.paste_len = 0;
	a->keys.pasting = false;
	a->keys.paste_cut = false;
}

void app_paste_idle(struct app *a, double now)
{
	if (!a->keys.pasting || now - a->keys.paste_last < PASTE_IDLE_S)
		return;
	paste_deliver(a);
	a->ui.dirty = true;
}

/* The end marker, when it came split: ESC timed out into a key of its
 * own and "[201~" followed as text. */
static bool paste_ends_split(struct app *a)
{
	static const char marker[] = "\x1b[201~";
	size_t m = sizeof marker - 1;

	if (a->keys.paste_len < m || memcmp(a->keys.paste + a->keys.paste_len - m, marker, m) != 0)
		return false;
	a->keys.paste_len -= m;
	return true;
}

void app_save(struct app *a, const char *path, bool quit_after)
{
	char err[512];

	if (editor_save(a->pane.ed, path, err, sizeof err) < 0) {
		app_message(a, true, "not saved: %s", err);
		return;
	}
	a->recovery.restored = false;
	a->recovery.due = 0;
	if (a->recovery.path[0] && a->recovery.mine)
		recovery_remove(a->recovery.path);
	app_message(a, false, "saved %s", editor_path(a->pane.ed) ? editor_path(a->pane.ed)
		    : editor_name(a->pane.ed));
	if (quit_after)
		a->quit = true;
}

/* Ctrl-S: save to the file's path, or ask for one. */
static void save_key(struct app *a, bool quit_after)
{
	if (editor_path(a->pane.ed)) {
		app_save(a, NULL, quit_after);
		return;
	}
	dialog_prompt(&a->over.dlg, quit_after ? ACT_SAVE_AS_QUIT : ACT_SAVE_AS,
		      "Save as", "Save the Editor's buffer to this file:",
		      editor_name(a->pane.ed));
}

static void open_path(struct app *a, const char *path)
{
	char err[512];
	bool is_new = access(path, F_OK) != 0 && errno == ENOENT;

	if (editor_open(a->pane.ed, path, err, sizeof err) < 0) {
		app_message(a, true, "not opened: %s", err);
		return;
	}
	a->recovery.restored = false;
	a->nav.focus = PANE_EDITOR;
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
		a->keys.pending_demo = i;
		dialog_ask(&a->over.dlg, ACT_DEMO_DISCARD, "Unsaved changes",
			   "The Editor has unsaved changes. Replace them with "
			   "the demo? (s saves them first)", true);
		return;
	}
	app_lesson_keep_work(a);
	if (app_in_lesson(a)) {
		a->lesson.view->cur = -1; /* a demo is not judged: the lesson closes */
		app_lesson_carry(a);      /* and the playground's carry buffer is back */
	}
	text = demo_text(i, &len);
	demo_buffer_name(i, name, sizeof name);
	demo_title(i, title, sizeof title);
	editor_set_text(a->pane.ed, text, len, name);
	a->lesson.demo_loaded = i + 1; /* for its own limits (demo_wall_factor) */
	a->recovery.restored = false;
	a->nav.focus = PANE_EDITOR;
	app_message(a, false, "demo: %s - F5 runs it", title);
}

/* Ctrl-Q: quit, asking first when something would be lost. */
static void quit_key(struct app *a)
{
	if (app_unsaved(a))
		dialog_ask(&a->over.dlg, ACT_QUIT, "Quit",
			   "The Editor has unsaved changes. Quit without saving? "
			   "(s saves first)", true);
	else
		a->quit = true;
}

/* "s saves them first": true when the Editor's changes are saved (or
 * were to be dropped), false while a save-as prompt is up or saving
 * failed. */
static bool saved_first(struct app *a, enum dialog_answer ans)
{
	if (ans != DLG_SAVE)
		return true;
	save_key(a, false);
	return !app_unsaved(a);
}

/* A dialog was answered. */
static void dialog_done(struct app *a, int action, enum dialog_answer ans,
			const char *input)
{
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
			snprintf(a->keys.pending_path, sizeof a->keys.pending_path, "%s", input);
			dialog_ask(&a->over.dlg, ACT_OPEN_DISCARD, "Unsaved changes",
				   "The Editor has unsaved changes. Open the file "
				   "anyway and lose them?", false);
		} else {
			open_path(a, input);
		}
		break;
	case ACT_OPEN_DISCARD:
		open_path(a, a->keys.pending_path);
		break;
	case ACT_DEMO_DISCARD:
		if (saved_first(a, ans))
			app_load_demo(a, a->keys.pending_demo, false);
		break;
	case ACT_LESSON_DISCARD:
		if (saved_first(a, ans))
			app_lesson_open(a, a->keys.pending_demo, false);
		break;
	case ACT_CARRY_SAVE:
		app_carry_save(a, input);
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

	if (a->run.sp) {
		app_message(a, true, "wait for the run to finish (or Esc) before F2");
		return;
	}
	if (carry_merge(&a->pane.carry, a->run.carry_out, msg, sizeof msg) < 0) {
		app_message(a, true, "%s", msg);
		return;
	}
	if (carry_save_state(&a->pane.carry, err, sizeof err) < 0)
		app_message(a, true, "%s (not kept: %s)", msg, err);
	else
		app_message(a, false, "%s", msg);
}

/* A key for the open dialog; its answer, when it comes, to dialog_done. */
static void dialog_take_key(struct app *a, bool is_key, wint_t ch)
{
	int action = a->over.dlg.action;
	char input[LE_MAX];
	enum dialog_answer ans = dialog_key(&a->over.dlg, is_key, ch);

	if (ans == DLG_PENDING)
		return;
	/* every prompt takes a path: "~/" is the home, as in a shell */
	path_expand_home(le_text(&a->over.dlg.field), a->over.dlg.field.len,
			 input, sizeof input);
	if (ans == DLG_CHOSEN) {   /* a named choice: its key */
		input[0] = (char)a->over.dlg.chosen;
		input[1] = '\0';
	}
	dialog_done(a, action, ans, input);
}

/* A key for a variable's table (Variables tab, Enter): Esc, q or Enter
 * closes it, the moving keys move it. */
static void table_view_key(struct app *a, bool is_key, int key)
{
	if (key == 27 || key == 'q' || (!is_key && (key == '\n' || key == '\r'))) {
		a->over.tview.active = false;
		table_free(&a->over.tview.t);
	} else if (is_key || key == ' ' || key == 'h' || key == 'j' || key == 'k' ||
		   key == 'l') {
		table_key(&a->over.tview.t, key, LINES - 6);
	}
}

/* Is a view over the panes open (help, a table, F8's files or a picture,
 * the assistant's runs, a menu, a lesson's full text)? Dialogs are not
 * views: they ask, and take every key until answered. */
static bool view_open(const struct app *a)
{
	return a->over.tview.active || a->over.help.active || a->files.fview.active ||
	       a->files.iview.active || a->over.hist.active || a->over.menu.active ||
	       (a->lesson.view && (a->lesson.view->menu || a->lesson.view->full));
}

/* Close every view over the panes. */
static void close_views(struct app *a)
{
	if (a->over.tview.active) {
		a->over.tview.active = false;
		table_free(&a->over.tview.t);
	}
	a->over.help.active = false;
	if (a->files.iview.active)
		image_view_close(&a->files.iview);
	a->files.iview_pic = NULL;
	if (a->files.fview.active)
		fileview_close(&a->files.fview);
	if (a->over.hist.active)
		history_view_close(&a->over.hist);
	a->over.menu.active = false;
	if (a->lesson.view)
		a->lesson.view->menu = a->lesson.view->full = false;
	a->ui.dirty = true;
}

/* The keys no view keeps for itself: quit and run (F5, Ctrl-R, Ctrl-Q)
 * close whatever view is open and act, as they do over the panes. */
static bool passes_views(bool is_key, int key)
{
	return (is_key && key == KEY_F(5)) ||
	       (!is_key && (key == CTRL_KEY('q') || key == CTRL_KEY('r')));
}

/* The modal layers. Returns true when one of them took the key. */
static bool modal_key(struct app *a, bool is_key, wint_t ch)
{
	int key = (int)ch;

	if (dialog_active(&a->over.dlg)) {
		dialog_take_key(a, is_key, ch);
		return true;
	}
	if (app_limits_key(a, is_key, ch))
		return true;
	if (passes_views(is_key, key) && view_open(a)) {
		close_views(a);
		return false;    /* and on to the global keys */
	}
	if (a->over.tview.active) {
		table_view_key(a, is_key, key);
		return true;
	}
	if (a->over.help.active) {
		help_key(&a->over.help, is_key || key == 27 || key < 32 || key == 'q' ||
			 key == ' ' ? key : 0, a->ui.lay.rows);
		return true;
	}
	if (app_files_view_key(a, key))
		return true;
	if (app_history_key(a, key))
		return true;
	if (a->over.menu.active) {
		long r = demo_menu_key(&a->over.menu, key);
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
	if (a->lesson.view && a->lesson.view->menu) {
		if (app_lesson_menu_key(a, key) == LESSON_MENU_STEP)
			app_step_toggle(a);
		return true;
	}
	if (a->lesson.view && a->lesson.view->full) {
		lesson_full_key(a->lesson.view, key); /* any other key closes it */
		a->ui.dirty = true;
		return true;
	}
	if (app_step_key(a, is_key, key))
		return true;
	return false;
}

/* Mouse: the wheel scrolls the pane under the pointer; a click focuses. */
static void mouse_key(struct app *a)
{
	MEVENT ev;
	int wheel;

	if (getmouse(&ev) != OK)
		return;
	if (a->over.menu.active) {
		if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
			long r = demo_menu_click(&a->over.menu, a->ui.lay.rows, ev.y);
			if (r >= 0)
				app_load_demo(a, (size_t)r, true);
		}
		return;
	}
	if (dialog_active(&a->over.dlg) || a->over.help.active || a->files.iview.active || a->over.hist.active ||
	    (a->lesson.view && (a->lesson.view->menu || a->lesson.view->full)) || a->over.limits_dlg.active)
		return;
	wheel = ev.bstate & BUTTON4_PRESSED ? -1 :
#ifdef BUTTON5_PRESSED
		ev.bstate & BUTTON5_PRESSED ? 1 :
#endif
		0;
	if (wheel || (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
		app_pane_mouse(a, ev.y, ev.x, wheel);
}

/* Keys that move the focus. True when the key was one of them. */
static bool focus_key(struct app *a, bool fkey, int key)
{
	int step = 0;

	if ((fkey && (key == KEY_F(6) || key == KEY_ALT_RIGHT || key == KEY_ALT_DOWN)) ||
	    (!fkey && key == CTRL_KEY('w')))
		step = 1;
	else if (fkey && (key == KEY_F(18) || key == KEY_ALT_LEFT || key == KEY_ALT_UP))
		step = -1;                            /* Shift-F6 is F18 to ncurses */
	else if (a->nav.focus != PANE_EDITOR && !fkey && key == '\t')
		step = 1;                             /* Tab indents in the Editor */
	else if (a->nav.focus != PANE_EDITOR && fkey && key == KEY_BTAB)
		step = -1;
	else if (a->nav.focus != PANE_EDITOR && !fkey && key == 27) {
		a->nav.focus = PANE_EDITOR;               /* Esc: back to the Editor */
		if (a->nav.zoomed) /* among all panes: a zoomed Editor would hide the next run's output */
			app_zoom_toggle(a);
		return true;
	}
	else if (fkey && key > KEY_ALT_DIGIT && key <= KEY_ALT_DIGIT + PANE_COUNT) {
		app_show_place(a, key - KEY_ALT_DIGIT - 1);
		return true;
	}
	if (!step)
		return false;
	app_focus_step(a, step);
	return true;
}

/* Run a key through keyseq.c: false when there is nothing to act on. */
static bool decode_key(struct app *a, bool *is_key, wint_t *ch)
{
	char desc[64];
	bool dropped;
	enum keyseq_result r = keyseq_feed(&a->keys.keyseq, is_key, ch, &dropped,
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
		a->keys.pasting = true;
		a->keys.paste_cut = false;
		a->keys.paste_len = 0;
		a->keys.paste_last = app_now();
		return;
	}
	if (fkey && key == KEY_PASTE_END) {
		paste_deliver(a);
		return;
	}
	if (a->keys.pasting) {
		a->keys.paste_last = app_now();
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
	a->ui.dirty = true;
	if (is_key && ch == KEY_RESIZE) {
		/* the terminal was cleared: the pictures in pixels go again */
		output_pixels_lost(a->pane.out);
		return; /* app.c lays out again before drawing */
	}
	/* pasted bytes are text, never sequences; the rest is decoded first
	 * (so a paste marker split from its ESC still starts a paste) */
	if (a->keys.pasting || decode_key(a, &is_key, &ch))
		take_key(a, is_key, ch);
	if (keyseq_replay(&a->keys.keyseq, &is_key, &ch))
		take_key(a, is_key, ch);
	share_clipboard(a);
}

/* What a key copied or cut goes to the system clipboard too (OSC 52). */
static void share_clipboard(struct app *a)
{
	struct editor *eds[2] = { a->pane.ed, a->pane.carry.ed };
	for (int i = 0; i < 2; i++) {
		unsigned long v;
		size_t len;
		const char *clip = eds[i] ? editor_clipboard(eds[i], &len, &v) : NULL;
		if (!clip || v == a->keys.clip_version[i])
			continue;
		a->keys.clip_version[i] = v;
		if (!clipboard_copy(clip, len))
			app_message(a, false, "copied inside sandpit only: %zu bytes is "
				    "more than the terminal's clipboard takes", len);
	}
}

void app_keys_flush(struct app *a)
{
	wint_t ch;

	if (keyseq_flush(&a->keys.keyseq, &ch)) {
		a->ui.dirty = true;
		dispatch_key(a, false, ch);
	}
}

static void demos_key(struct app *a)
{
	if (app_in_lesson(a) || a->learn)
		app_lesson_menu(a); /* 'd' there goes on to the demos */
	else
		demo_menu_open(&a->over.menu);
}

static void solution_key(struct app *a)
{
	app_lesson_solution(a, true);
}

static void help_open_key(struct app *a)
{
	help_open(&a->over.help);
}

static void save_editor_key(struct app *a)
{
	save_key(a, false);
}

static void open_key(struct app *a)
{
	dialog_prompt(&a->over.dlg, ACT_OPEN, "Open", "File to open:", NULL);
}

static void mouse_toggle_key(struct app *a)
{
	a->nav.mouse_on = !a->nav.mouse_on;
	mousemask(a->nav.mouse_on ? ALL_MOUSE_EVENTS : 0, NULL);
	app_message(a, false, a->nav.mouse_on ? "mouse on (F9 or Ctrl-] turns it off)" :
		    "mouse off: the terminal selects text (F9 or Ctrl-] turns it on)");
}

static void find_key(struct app *a)
{
	a->nav.focus = PANE_EDITOR;
	editor_begin_find(a->pane.ed);
}

static void goto_key(struct app *a)
{
	a->nav.focus = PANE_EDITOR;
	editor_begin_goto(a->pane.ed);
}

/* The global keys: an F-key and its Ctrl twin (0: none) do the same
 * (the contract in DESIGN.md; the focus keys are focus_key's). */
static const struct global_key {
	int fkey, ctrl;
	void (*act)(struct app *a);
} global_keys[] = {
	{ KEY_F(5),  CTRL_KEY('r'),  app_run_start },
	{ KEY_F(2),  CTRL_KEY('b'),  carry_forward },
	{ KEY_F(3),  CTRL_KEY('d'),  demos_key },
	{ KEY_F(10), 0,              app_lesson_hint },
	{ KEY_F(22), 0,              solution_key },     /* Shift-F10 to ncurses */
	{ KEY_F(4),  CTRL_KEY('p'),  app_limits_open },
	{ KEY_F(12), CTRL_KEY('\\'), app_side_next },
	{ KEY_F(1),  CTRL_KEY('g'),  help_open_key },
	{ KEY_F(11), CTRL_KEY('u'),  app_zoom_toggle },
	{ KEY_F(9),  CTRL_KEY(']'),  mouse_toggle_key },
	{ 0,         CTRL_KEY('s'),  save_editor_key },
	{ 0,         CTRL_KEY('o'),  open_key },
	{ 0,         CTRL_KEY('q'),  quit_key },
	{ 0,         CTRL_KEY('f'),  find_key },
	{ 0,         CTRL_KEY('l'),  goto_key },
};

/* A global key: true when it was one. */
static bool global_key(struct app *a, bool fkey, int key)
{
	for (size_t i = 0; i < SP_ARRAY_SIZE(global_keys); i++) {
		const struct global_key *g = &global_keys[i];
		if (fkey ? g->fkey && key == g->fkey : g->ctrl && key == g->ctrl) {
			g->act(a);
			return true;
		}
	}
	return false;
}

/* One decoded key: the modal layers, the focused pane's first keys, a
 * run's cancel, the global keys, the focus keys, then the focused pane. */
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
	/* the focused pane's own first (the Editor's find prompt, Carry's ^S) */
	if (app_pane_key_first(a, is_key, ch))
		return;
	if (a->run.sp && !fkey && (key == 27 || key == CTRL_KEY('c'))) {
		app_run_cancel(a);
		return;
	}
	/* F6, Shift-F6, Ctrl-W, Alt-arrows; Tab and Esc outside the Editor */
	if (global_key(a, fkey, key) || focus_key(a, fkey, key))
		return;
	app_pane_key(a, is_key, ch);
}
