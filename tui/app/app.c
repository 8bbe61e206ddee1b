/* SPDX-License-Identifier: MIT */
/*
 * app.c - the playground's main loop: one poll() over the keyboard and
 * the run's fd, so the screen never freezes while a program runs.
 *
 *   for (;;) {
 *       poll({stdin, sp_run_fd(run)}, min(run timeout, frame/idle timer))
 *       keys   -> app_key()          (app_keys.c)
 *       events -> app_run_drain()    (app_run.c)
 *       timers -> recovery file, the running clock
 *       draw at most ~30 frames a second, and at once after a key
 *   }
 *
 * Signal handlers only set flags (SIGHUP/SIGTERM/SIGINT); the loop saves
 * the buffer to the recovery file and restores the terminal. A crash
 * (SIGSEGV and friends) cannot wait for the loop: its handler restores
 * the terminal with async-signal-safe calls, makes a last-ditch recovery
 * write, and re-raises, as nano does.
 */
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "app/app.h"
#include "pane/pane_output.h"
#include "app/panes.h"
#include "image/graphics.h"
#include "editor/editor.h"
#include "pane/lesson_view.h"
#include "app/playground.h"
#include "buf.h"
#include "banned.h"

#define FRAME_S (1.0 / 30)
#define RECOVERY_NAME "recovery.py"

static volatile sig_atomic_t got_signal;
static struct termios orig_termios;
static bool have_termios;
static struct app *crash_app;  /* for the crash handler's last save */

/* The escape sequences that undo our terminal modes: no paste brackets,
 * no mouse reports, main screen back, then the cursor shown (some
 * terminals restore the alternate screen's cursor state on leaving it,
 * so showing it first would not last). */
static const char term_reset[] =
	"\033[?2004l\033[?1000l\033[?1002l\033[?1003l\033[?1006l"
	"\033[0m\033[?1049l\033[?25h";

static void on_signal(int sig)
{
	got_signal = sig;
}

static void on_crash(int sig)
{
	ssize_t w = write(STDOUT_FILENO, term_reset, sizeof term_reset - 1);
	(void)w;
	if (have_termios)
		tcsetattr(STDIN_FILENO, TCSANOW, &orig_termios);
	/* Not async-signal-safe, but the buffer is worth the risk: the
	 * process is dying anyway (SA_RESETHAND makes a second fault fatal). */
	if (crash_app && crash_app->pane.ed && crash_app->recovery.path[0] &&
	    crash_app->recovery.mine && editor_modified(crash_app->pane.ed)) {
		char err[64];
		if (editor_recovery_write(crash_app->pane.ed, crash_app->recovery.path,
					  err, sizeof err) == 0)
			recovery_note(crash_app->recovery.path, editor_path(crash_app->pane.ed),
				      editor_name(crash_app->pane.ed));
	}
	raise(sig);
}

static void install_signals(void)
{
	struct sigaction sa;
	static const int crash[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal;
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sa.sa_handler = on_crash;
	sa.sa_flags = (int)SA_RESETHAND;
	for (size_t i = 0; i < SP_ARRAY_SIZE(crash); i++)
		sigaction(crash[i], &sa, NULL);
}

/* Curses on, with our modes: raw (so Ctrl-S/Q/Z/C arrive as keys, with
 * flow control off), no echo, keypad keys, a short Esc delay, mouse,
 * and bracketed paste so pasted text is not typed in key by key. */
static void term_setup(struct app *a)
{
	/* pictures in pixels where the terminal draws them (graphics.h):
	 * asked before curses starts reading the terminal */
	enum gfx_mode gfx = gfx_choose(a->cfg.graphics, STDIN_FILENO);
	int cell_w, cell_h;

	gfx_cell_size(STDOUT_FILENO, &cell_w, &cell_h);
	output_set_graphics(a->pane.out, (int)gfx, cell_w, cell_h);
	image_view_set_graphics(&a->files.iview, (int)gfx, cell_w, cell_h);
	have_termios = tcgetattr(STDIN_FILENO, &orig_termios) == 0;
	set_escdelay(25);
	initscr();
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	if (has_colors()) {
		start_color();
		use_default_colors();
	}
	theme_apply(&a->theme);
	define_key("\033[200~", KEY_PASTE_BEGIN);
	define_key("\033[201~", KEY_PASTE_END);
	mouseinterval(0);
	if (a->nav.mouse_on)
		mousemask(ALL_MOUSE_EVENTS, NULL);
	fputs("\033[?2004h", stdout);
	fflush(stdout);
}

static void term_restore(void)
{
	const char *cnorm;

	mousemask(0, NULL);
	fputs("\033[?2004l", stdout);
	fflush(stdout);
	endwin();
	/* endwin() leaves the cursor as the alternate screen had it (hidden,
	 * on some terminals): show it on the main screen again */
	cnorm = tigetstr("cnorm");
	if (cnorm && cnorm != (char *)-1) {
		putp(cnorm);
		fflush(stdout);
	}
}

/* The panes' rectangles: below the lesson strip, the focused pane over
 * all when zoomed, the bottom row taller while a record is read. */
static void lay_out(struct app *a)
{
	app_layout(a);
	if (a->nav.zoomed) {
		layout_zoom(&a->ui.lay, a->nav.focus); /* the whole screen, strip too */
		if (a->lesson.view)
			a->lesson.view->top = 0;
	} else if (a->nav.focus == PANE_VIOLATIONS && a->pane.viol.n) {
		layout_grow_bottom(&a->ui.lay);
	}
}

/* The views over the panes, in the order they stack: each hides the
 * cursor of what is under it (a field that takes text shows its own). */
static void draw_over(struct app *a, int *cy, int *cx)
{
	const struct theme *th = &a->theme;

	if (a->lesson.view && (a->lesson.view->menu || a->lesson.view->full))
		*cy = -1;
	if (a->over.menu.active) {
		demo_menu_draw(&a->over.menu, stdscr, LINES, COLS, th);
		*cy = -1;
	}
	if (a->over.help.active) {
		help_draw(&a->over.help, stdscr, LINES, COLS, th);
		*cy = -1;
	}
	if (a->over.limits_dlg.active) {
		*cy = -1;
		app_limits_draw(a, cy, cx);
	}
	if (a->over.hist.active) {
		app_history_draw(a);
		*cy = -1;
	}
	if (a->files.fview.active) {
		fileview_draw(&a->files.fview, &a->files.last, stdscr, LINES, COLS, th);
		*cy = -1;
	}
	if (a->over.tview.active) {
		table_overlay_draw(&a->over.tview.t, a->over.tview.title, stdscr, LINES, COLS, th);
		*cy = -1;
	}
	if (a->files.iview.active) {
		image_view_draw(&a->files.iview, stdscr, LINES, COLS, th);
		*cy = -1;
	}
	if (dialog_active(&a->over.dlg)) {
		dialog_draw(&a->over.dlg, stdscr, LINES, COLS, th);
		*cy = -1;
		if (a->over.dlg.kind == DLG_INPUT)
			dialog_cursor(&a->over.dlg, LINES, COLS, cy, cx);
	}
}

/* Is anything drawn over the Output pane's pictures in pixels? */
static bool pixels_covered(const struct app *a)
{
	if (a->nav.zoomed)
		return a->nav.focus != PANE_OUTPUT;
	return a->ui.lay.pane[PANE_OUTPUT].w == 0 || a->over.menu.active || a->over.help.active ||
	       a->over.limits_dlg.active || a->files.fview.active || a->files.iview.active ||
	       a->over.tview.active || a->over.hist.active || dialog_active(&a->over.dlg) ||
	       (a->lesson.view && a->lesson.view->menu);
}

void app_draw(struct app *a)
{
	int cy = -1, cx = -1;

	lay_out(a);
	werase(stdscr);
	if (a->ui.lay.too_small) {
		layout_draw_too_small(stdscr, &a->ui.lay, &a->theme);
		curs_set(0);
		wnoutrefresh(stdscr);
		doupdate();
		output_pixels(a->pane.out, stdscr, true);
		image_view_pixels(&a->files.iview, true);
		a->ui.last_draw = app_now();
		a->ui.dirty = false;
		return;
	}
	app_panes_draw(a, &cy, &cx);
	app_status_draw(a);
	app_lesson_draw(a);
	draw_over(a, &cy, &cx);
	if (cy >= 0 && cx >= 0) {
		curs_set(1);
		wmove(stdscr, cy, cx);
	} else {
		curs_set(0);
	}
	wnoutrefresh(stdscr);
	doupdate();
	/* pixels after the text: anything drawn over Output hides them; the
	 * large view's (under a dialog only) go before and come after Output's */
	bool view_px = a->files.iview.active && !dialog_active(&a->over.dlg);
	if (!view_px)
		image_view_pixels(&a->files.iview, true);
	output_pixels(a->pane.out, stdscr, pixels_covered(a));
	if (view_px)
		image_view_pixels(&a->files.iview, false);
	a->ui.last_draw = app_now();
	a->ui.dirty = false;
}

/* Read every key ncurses has; true when any arrived. */
static bool read_keys(struct app *a)
{
	bool any = false;
	wint_t ch;
	int rc;

	while ((rc = wget_wch(stdscr, &ch)) != ERR) {
		app_key(a, rc == KEY_CODE_YES, ch);
		any = true;
		if (a->quit)
			break;
	}
	app_keys_flush(a);
	return any;
}

/* Write the recovery file when the buffer changed and typing paused. */
static void recovery_tick(struct app *a, double now)
{
	char err[256];

	if (!a->recovery.due || now < a->recovery.due || !a->recovery.path[0])
		return;
	a->recovery.due = 0;
	/* the file still holds an earlier session's text nobody has seen */
	if (!editor_modified(a->pane.ed) || !a->recovery.mine)
		return;
	if (config_state_path(RECOVERY_NAME, a->recovery.path,
			      sizeof a->recovery.path, true) < 0 ||
	    editor_recovery_write(a->pane.ed, a->recovery.path, err, sizeof err) < 0)
		app_message(a, true, "recovery file not written: %s", err);
	else
		a->recovery.mine = true;
	if (a->recovery.mine)  /* whose text it is, for the next start's offer */
		recovery_note(a->recovery.path, editor_path(a->pane.ed), editor_name(a->pane.ed));
}

/* The poll timeout: whichever timer comes first. */
static int next_timeout(const struct app *a, double now)
{
	double t = 1.0;

	if (a->run.sp) {
		int rt = sp_run_timeout_ms(a->run.sp);
		if (rt >= 0 && rt / 1000.0 < t)
			t = rt / 1000.0;
		if (t > 0.1)
			t = 0.1; /* the running clock and gauges: 10 Hz */
	}
	if (a->ui.dirty) {
		double f = a->ui.last_draw + FRAME_S - now;
		if (f < t)
			t = f;
	}
	int pt = app_prewarm_timeout_ms(a, now);
	if (pt >= 0 && pt / 1000.0 < t)
		t = pt / 1000.0;
	if (a->recovery.due && a->recovery.due - now < t)
		t = a->recovery.due - now;
	if (a->keys.pasting && a->keys.paste_last + PASTE_IDLE_S - now < t)
		t = a->keys.paste_last + PASTE_IDLE_S - now;
	if (a->ui.msg_until > now && a->ui.msg_until - now < t)
		t = a->ui.msg_until - now;
	if (t < 0)
		t = 0;
	return (int)(t * 1000) + (t > 0 ? 1 : 0);
}

static void loop(struct app *a)
{
	bool more = false;

	app_draw(a);
	while (!a->quit && !got_signal) {
		struct pollfd pfd[4] = {
			{ .fd = STDIN_FILENO, .events = POLLIN },
			{ .fd = a->run.sp ? sp_run_fd(a->run.sp) : -1, .events = POLLIN },
			{ .fd = app_prewarm_fd(a), .events = POLLIN }, /* -1: ignored */
			{ .fd = app_lesson_again_fd(a), .events = POLLIN },
		};
		double now = app_now();
		int timeout = more ? 0 : next_timeout(a, now);
		int n = poll(pfd, 4, timeout);
		bool keys = false;

		if (n < 0 && errno != EINTR)
			break;
		/* EINTR may be SIGWINCH: ncurses then has KEY_RESIZE for us. */
		if (n < 0 || (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)))
			keys = read_keys(a);
		if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL) && !keys)
			got_signal = SIGHUP; /* the terminal went away */
		more = a->run.sp ? app_run_drain(a, 512) : false;
		now = app_now();
		if (keys)
			a->prep.last_key = now;
		if (a->prep.run || a->prep.job)
			app_prewarm_drain(a);
		if (pfd[3].revents & POLLIN)
			app_lesson_again_judge(a); /* a lesson's other runs are judged */
		app_prewarm_tick(a, now); /* after the keys: F5 took it first */
		app_paste_idle(a, now);
		recovery_tick(a, now);
		if (a->run.sp && now - a->ui.last_draw >= 0.1)
			a->ui.dirty = true; /* running clock */
		if (a->ui.msg_until && now >= a->ui.msg_until) {
			a->ui.msg_until = 0;
			a->ui.dirty = true;
		}
		if (a->ui.dirty && (keys || now - a->ui.last_draw >= FRAME_S))
			app_draw(a);
	}
}

/* Has sandpit been started before? (first start shows a demo) */
static bool first_start(void)
{
	char path[CONFIG_PATH_MAX];
	struct stat st;
	FILE *f;

	if (config_state_path("started", path, sizeof path, true) < 0)
		return false;
	if (stat(path, &st) == 0)
		return false;
	f = fopen(path, "w");
	if (f)
		fclose(f);
	return true;
}

/* The Editor's first buffer: FILE, else a recovery offer, else the first
 * demo on the first start, else empty. */
static void initial_buffer(struct app *a)
{
	char err[512];
	bool first = first_start();
	struct recovery_info *ri = &a->recovery.offer;
	bool have_recovery = a->recovery.path[0] && recovery_read(a->recovery.path, ri);

	/* nothing was lost: the text is what its file holds */
	if (have_recovery && recovery_matches_saved(a->recovery.path, ri) &&
	    recovery_remove(a->recovery.path) == 0) {
		output_message(a->pane.out, OUT_INFO, "the last session's unsaved text "
			       "was the same as %s: nothing to recover", ri->path);
		have_recovery = false;
	}
	a->recovery.mine = !have_recovery;
	if (a->cfg.file) {
		bool is_new = access(a->cfg.file, F_OK) != 0 && errno == ENOENT;
		if (editor_open(a->pane.ed, a->cfg.file, err, sizeof err) < 0)
			output_message(a->pane.out, OUT_ERROR, "cannot open: %s", err);
		else if (is_new)
			app_message(a, false, "new file %s: Ctrl-S creates it",
				    a->cfg.file);
		if (have_recovery) {
			char kept[sizeof a->recovery.path + 32];
			if (recovery_move_aside(a->recovery.path, kept, sizeof kept) == 0) {
				a->recovery.mine = true;
				output_message(a->pane.out, OUT_INFO, "an unsaved buffer of an "
					       "earlier session is kept in %s (open it to "
					       "recover it)", kept);
			} else {
				/* left where it is: this session keeps none */
				output_message(a->pane.out, OUT_ERROR, "an unsaved buffer of an "
					       "earlier session is kept in %s; this session's "
					       "buffer is not kept for recovery (%s)",
					       a->recovery.path, strerror(errno));
			}
		}
		return;
	}
	if (a->learn)
		app_lessons_begin(a); /* a recovery offer may come on top */
	if (have_recovery) {
		app_recovery_offer(a);
		return;
	}
	char kept[CONFIG_PATH_MAX];
	size_t nkept = a->recovery.path[0] ? recovery_kept(a->recovery.path, kept, sizeof kept) : 0;
	if (nkept)  /* kept for later (Esc at the offer): say where, every start */
		output_message(a->pane.out, OUT_INFO, "%zu unsaved text%s of earlier sessions "
			       "kept for later, the newest in %s (Ctrl-O opens it)",
			       nkept, nkept > 1 ? "s" : "", kept);
	if (first && demos_count() && !a->learn) {
		app_load_demo(a, 0, false);
		output_message(a->pane.out, OUT_INFO, "Welcome to sandpit. This is the "
			       "first demo: F5 runs it, F3 lists the others, F1 helps.");
	}
}

/* Tell the user about settings that did not load. */
static void report_setup(struct app *a, const char *theme_err)
{
	char lim[4][32];

	/* one message for each bad line */
	for (const char *p = a->cfg.error; *p;) {
		size_t n = strcspn(p, "\n");
		output_message(a->pane.out, OUT_ERROR, "config: %.*s (line ignored)", (int)n, p);
		p += n + (p[n] == '\n');
	}
	for (const char *p = theme_err ? theme_err : ""; *p;) {
		size_t n = strcspn(p, "\n");
		output_message(a->pane.out, OUT_ERROR, "theme: %.*s (using the default "
			       "theme)", (int)n, p);
		p += n + (p[n] == '\n');
	}
	format_ms(a->cfg.limits.cpu_ms, lim[0], sizeof lim[0]);
	format_ms(a->cfg.limits.wall_ms, lim[1], sizeof lim[1]);
	format_bytes(a->cfg.limits.memory_bytes, lim[2], sizeof lim[2]);
	format_bytes(a->cfg.limits.output_bytes, lim[3], sizeof lim[3]);
	output_message(a->pane.out, OUT_INFO, "limits: CPU %s, wall %s, memory %s, "
		       "output %s, %u processes%s%s", lim[0], lim[1], lim[2], lim[3],
		       a->cfg.limits.procs, a->cfg.config_path[0] ? " - from " : "",
		       a->cfg.config_path[0] ? a->cfg.config_path : "");
}

/* Leave: save what must be kept, then the terminal is put back. */
static void shutdown_app(struct app *a, bool abrupt)
{
	char err[256];

	app_prewarm_drop(a); /* its sandbox dies with it */
	if (a->run.sp) {
		sp_run_cancel(a->run.sp);
		sp_run_free(a->run.sp);
		a->run.sp = NULL;
	}
	if (abrupt && editor_modified(a->pane.ed) && a->recovery.path[0] && a->recovery.mine) {
		/* the directory may not exist yet when nothing was written */
		config_state_path(RECOVERY_NAME, a->recovery.path,
				  sizeof a->recovery.path, true);
		if (editor_recovery_write(a->pane.ed, a->recovery.path, err, sizeof err) == 0)
			recovery_note(a->recovery.path, editor_path(a->pane.ed),
				      editor_name(a->pane.ed));
	} else if (!abrupt && a->recovery.path[0] && a->recovery.mine) {
		recovery_remove(a->recovery.path); /* a clean quit: nothing to recover */
	}
	carry_save_state(&a->pane.carry, err, sizeof err);
	app_lesson_keep_work(a);
}

static void free_app(struct app *a)
{
	carry_free(&a->pane.carry);
	stdin_free(&a->pane.stdin_buf);
	vars_free(&a->pane.vars);
	table_free(&a->over.tview.t);
	violations_free(&a->pane.viol);
	output_free(a->pane.out);
	gauges_free(&a->pane.gauges);
	if (a->pane.ed)
		editor_free(a->pane.ed);
	free(a->run.carry_out);
	app_files_free(a);
	free(a->run.errtail);
	free(a->keys.paste);
	app_lessons_free(a);
	app_step_free(a);
}

static int playground(int argc, char **argv, bool learn)
{
	static struct app app;
	struct app *a = &app;
	char usage[512], theme_err[512] = "";
	int sig;

	setlocale(LC_ALL, "");
	memset(a, 0, sizeof *a);
	if (config_load(&a->cfg, argc, argv, usage, sizeof usage) < 0) {
		fprintf(stderr, "sandpit: %s\n", usage);
		return 2;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "sandpit: the playground needs a terminal; "
			"for a headless run use: sandpit run FILE\n");
		return 1;
	}
	if (a->cfg.theme[0]) {
		if (theme_load(a->cfg.theme, &a->theme, theme_err, sizeof theme_err) < 0)
			theme_default(&a->theme);
	} else {
		theme_default(&a->theme);
	}
	a->nav.mouse_on = a->cfg.mouse;
	a->learn = learn;
	a->step.on = a->cfg.step;
	a->nav.focus = PANE_EDITOR;
	snprintf(a->run.state, sizeof a->run.state, "ready");
	a->pane.ed = editor_new();
	a->pane.out = output_new();
	if (!a->pane.ed || !a->pane.out || carry_init(&a->pane.carry, a->cfg.limits.carry_bytes) < 0 ||
	    stdin_init(&a->pane.stdin_buf) < 0) {
		fprintf(stderr, "sandpit: out of memory\n");
		free_app(a);
		return 1;
	}
	if (config_state_path(RECOVERY_NAME, a->recovery.path,
			      sizeof a->recovery.path, false) < 0)
		a->recovery.path[0] = '\0';
	gauges_reset(&a->pane.gauges, &a->cfg.limits, false);
	report_setup(a, theme_err);
	if (learn || a->cfg.lessons_dir)
		app_lessons_load(a); /* broken lesson files are said at once */
	initial_buffer(a);

	crash_app = a;
	install_signals();
	term_setup(a);
	loop(a);
	sig = got_signal;
	shutdown_app(a, sig != 0);
	term_restore();
	crash_app = NULL;
	free_app(a);
	if (sig) {
		fprintf(stderr, "sandpit: stopped by signal %d; the buffer is in "
			"the recovery file\n", sig);
		return 128 + sig;
	}
	return a->exit_code;
}

int playground_main(int argc, char **argv)
{
	return playground(argc, argv, false);
}

int playground_learn(int argc, char **argv)
{
	return playground(argc, argv, true);
}
