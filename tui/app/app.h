/* SPDX-License-Identifier: MIT */
/*
 * app.h - the playground's state (struct app, grouped by the file that
 * writes each part) and the functions of the tui/app files that act on it.
 * Only tui/app sees struct app: the components in tui/pane, tui/editor
 * and tui/screen each get the part that is theirs. The headers below are
 * the ones whose types the struct holds by value; a type it only points
 * to is declared, not included.
 *
 * Invariants: at most one run exists (run.sp != NULL while it goes); the
 * screen is only drawn from app_draw(); signal handlers touch nothing but
 * the volatile flags in app.c.
 */
#ifndef APP_H
#define APP_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#include "config/attach.h"
#include "config/config.h"
#include "screen/demos.h"
#include "screen/dialog.h"
#include "screen/dialog_limits.h"
#include "pane/fileview.h"
#include "pane/gauges.h"
#include "screen/help.h"
#include "pane/history_view.h"
#include "pane/image_view.h"
#include "editor/keyseq.h"
#include "screen/layout.h"
#include "pane/pane_carry.h"
#include "pane/pane_stdin.h"
#include "pane/pane_vars.h"
#include "pane/pane_violations.h"
#include "config/recovery.h"
#include "config/runfiles.h"
#include "pane/table_view.h"
#include "screen/theme.h"

struct editor;
struct lesson_view;
struct output_pane;
struct picture;
struct prep_job;
struct sp_run;
struct step;

/* What a dialog's answer is for. */
enum app_action {
	ACT_QUIT = 1,        /* unsaved changes: quit anyway? */
	ACT_SAVE_AS,         /* prompt: file name to save to */
	ACT_SAVE_AS_QUIT,    /* the same, then quit */
	ACT_OPEN,            /* prompt: file name to open */
	ACT_OPEN_DISCARD,    /* unsaved changes: open anyway? */
	ACT_DEMO_DISCARD,    /* unsaved changes: load the demo anyway? */
	ACT_CARRY_SAVE,      /* prompt: JSON file for the carry buffer */
	ACT_CARRY_LOAD,      /* prompt: JSON file to load into it */
	ACT_RECOVER,         /* a recovery file exists: restore, keep, delete? */
	ACT_RECOVER_DELETE,  /* delete it for good? */
	ACT_CARRY_REPLACE,   /* the carry buffer holds values: load over them? */
	ACT_CARRY_CLEAR,     /* clear the carry buffer? */
	ACT_LESSON_SOLUTION, /* load the lesson's reference solution? */
	ACT_LESSON_DISCARD,  /* unsaved changes: open the lesson anyway? */
	ACT_LESSON_RESTART,  /* the lesson's starting program again? */
	ACT_OUTPUT_FIND,     /* prompt: text to find in Output */
	ACT_OUTPUT_SAVE,     /* prompt: file to save Output to */
	ACT_ATTACH,          /* prompt: a path to attach, -N to detach */
	ACT_FILE_SAVE,       /* prompt: where to save a copy of a kept file */
};

/*
 * The playground's state, grouped by the file that writes it, as core's
 * struct sp_run is. A group written by more than one file names them all;
 * anyone may set ui.dirty (draw again) and call app_message().
 */
struct app {
	/* app.c: the session, read by all */
	struct pg_config cfg;       /* app_limits.c changes its limits (F4) */
	struct theme theme;
	bool learn;                 /* `sandpit learn`: open on the lessons */
	bool quit;                  /* app_keys.c: leave the loop */
	int exit_code;

	/* app.c: the screen as drawn, and the status line's message */
	struct app_ui {
		struct layout lay;  /* app_lesson.c lays it out below its strip */
		bool dirty;         /* anyone: draw again soon */
		double last_draw;
		char msg[512];      /* app_message() */
		bool msg_error;
		double msg_until;
	} ui;

	/* app_keys.c and app_panes.c: which pane has the keys, the zoom
	 * (F11), the mouse, and app_side.c the tab shown */
	struct app_nav {
		int focus;          /* enum pane_id */
		int side_tab;       /* the Carry place's tab shown (app_side.c) */
		bool zoomed;        /* the focused pane has the screen */
		bool mouse_on;
	} nav;

	/* the panes' components: each pane's file (panes.h) draws and keys
	 * its own, and app_run.c fills them from a run */
	struct app_panes {
		struct editor *ed;
		struct output_pane *out;
		struct gauges gauges;
		struct violations viol;
		struct carry_pane carry;
		struct stdin_pane stdin_buf; /* the Stdin tab of the Carry place */
		struct vars_pane vars;       /* its Variables tab: the last run's globals */
	} pane;

	/* app_keys.c opens them, each closes itself: the views over the panes */
	struct app_over {
		struct dialog dlg;
		struct help_view help;
		struct demo_menu menu;
		struct limits_dialog limits_dlg; /* F4 (app_limits.c) */
		struct history_view hist;   /* the assistant's runs (F3, h): app_history.c */
		/* a DataFrame, Series or array of the Variables tab, as a
		 * table (app_vars.c) */
		struct {
			bool active;
			char title[128];
			struct table t;
		} tview;
	} over;

	/* app_keys.c: keys on their way in */
	struct app_keys {
		struct keyseq keyseq;       /* an escape sequence in progress */
		unsigned long clip_version[2]; /* Editor's, Carry's: sent by OSC 52 */
		/* a bracketed paste in progress */
		bool pasting;
		bool paste_cut;             /* over PASTE_MAX: the rest was dropped */
		double paste_last;          /* when its last key came */
		char *paste;
		size_t paste_len, paste_cap;
		/* what a dialog's answer is about (app_lesson.c too) */
		size_t pending_demo;        /* ACT_DEMO_DISCARD, ACT_LESSON_DISCARD */
		char pending_path[CONFIG_PATH_MAX]; /* ACT_OPEN_DISCARD, ACT_CARRY_REPLACE */
	} keys;

	/* app_run.c: the run (at most one) */
	struct app_run {
		struct sp_run *sp;          /* NULL: none going */
		int no;
		double started;             /* monotonic seconds */
		bool cancelling;
		char *carry_out;            /* the last finished run's carry_out */
		char state[64];             /* "ready", or the last status */
		char *errtail;              /* the end of the run's stderr */
		size_t errtail_len;
	} run;

	/* app_prewarm.c: the prepared sandbox the next F5 takes */
	struct prewarm {
		struct sp_run *run;      /* preparing or ready; NULL: none */
		struct prep_job *job;    /* sp_run_prepare on its thread, or NULL */
		bool have_thread;        /* the preparing thread is started */
		int req;                 /* jobs to it, and back on done[0] */
		int done[2];
		struct sp_limits limits; /* what it was made for */
		size_t n_preload;        /* of cfg.preload: 0 under a small memory limit */
		bool ready;
		bool failed;             /* for these limits: not tried again until a run */
		bool skipped_said;       /* modules not found: said once */
		char why[160];           /* why the last one failed */
		char said[160];          /* the last reason said in Output */
		double last_key;         /* app.c: when the last key came (monotonic s) */
	} prep;

	/* app_files.c: files in and out */
	struct app_files {
		struct attach_list attached;
		struct run_files last;       /* what the last run kept */
		char keep_dir[1024];         /* the running run's keep dir */
		char keep_err[1400];         /* why it keeps none, or "" (said in Output) */
		struct file_view fview;      /* F8 */
		struct image_view iview;     /* a kept picture, large (from F8, Output) */
		struct picture *iview_pic;   /* the Output picture it shows, or NULL (F8's) */
	} files;

	/* app_lesson.c: lessons, and the demo in the Editor (app_keys.c) */
	struct app_lessons {
		struct lesson_view *view;   /* NULL until lessons are first used */
		size_t demo_loaded;         /* 1 + the demo last loaded into the Editor, or 0 */
	} lesson;

	/* app_step.c: a run's output held for Space */
	struct app_steps {
		bool on;                    /* step mode */
		bool released;              /* Esc: this run shows as it comes */
		bool last_was_step;         /* the last key was Space or Esc of step mode */
		struct step *held;
	} step;

	/* app_recovery.c, app.c: the recovery file */
	struct app_recovery {
		double due;                 /* 0: nothing to write */
		bool restored;              /* the buffer came from the recovery file */
		bool mine;                  /* the file is this session's to remove */
		char path[CONFIG_PATH_MAX];
		struct recovery_info offer; /* what the start-up offer is about */
	} recovery;
};

/* A paste whose end marker never comes (lost, or split on a slow link)
 * ends after this long without keys, so the keyboard is never held. */
#define PASTE_IDLE_S 1.0
#define PASTE_MAX (64u << 20)
/* The paste has been idle for PASTE_IDLE_S: deliver what came. */
void app_paste_idle(struct app *a, double now);

/* KEY_PASTE_BEGIN and KEY_PASTE_END, the bracketed-paste markers' key
 * codes, are in keyseq.h. */

/* app_message.c: the clock (monotonic seconds), and a message on the
 * status line for a few seconds. */
double app_now(void);
void app_message(struct app *a, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* app.c: draw the whole screen. */
void app_draw(struct app *a);
/* app_status.c: the status line. */
void app_status_draw(struct app *a);
/* app_editor.c: anything that needs saving before the Editor's buffer
 * may be thrown away? */
bool app_unsaved(const struct app *a);

/* app_keys.c: one key from wget_wch (is_key = KEY_CODE_YES). */
void app_key(struct app *a, bool is_key, wint_t ch);
/* The batch of keys ended: a held lone Esc is acted on now. */
void app_keys_flush(struct app *a);
/* Load demo i into the Editor (asks first when there are unsaved changes). */
void app_load_demo(struct app *a, size_t i, bool ask);
/* Save the Editor's buffer; then quit if quit_after. */
void app_save(struct app *a, const char *path, bool quit_after);

/* app_lesson.c: the lessons in the playground (lesson_view.h draws) */
/* Load the lessons once (errors of broken files go to Output). */
bool app_lessons_load(struct app *a);
/* `sandpit learn`: open the lesson where the learner was. */
void app_lessons_begin(struct app *a);
/* Open lesson i: its starting program into the Editor (asks first). */
void app_lesson_open(struct app *a, size_t i, bool ask);
/* The Carry pane's buffer for where the learner is: the open lesson's own
 * (kept beside its program), or the playground's when no lesson is open. */
void app_lesson_carry(struct app *a);
/* F3 in a lesson, 'l' in the demo menu: the lesson list. */
void app_lesson_menu(struct app *a);
/* The lesson list took a key; what the list made of it (lesson_view.h),
 * for the key map to act on LESSON_MENU_STEP. */
long app_lesson_menu_key(struct app *a, int key);
void app_lesson_hint(struct app *a);
void app_lesson_solution(struct app *a, bool ask);
/* A dialog of the lessons was answered (ACT_LESSON_*). */
void app_lesson_dialog(struct app *a, int action, enum dialog_answer ans);
/* Is a lesson open? */
bool app_in_lesson(const struct app *a);
/* Lay out the panes below the lesson strip, and draw it. */
void app_layout(struct app *a);
void app_lesson_draw(struct app *a);
/* The run's config gets the lesson's limits and files; 0, or -1 with
 * the reason in Output (the run is not started). */
int app_lesson_run_config(struct app *a, struct sp_config *c);
void app_lesson_output(struct app *a, const char *s, size_t n);
/* The run finished: judge it and show the verdict. */
void app_lesson_finish(struct app *a, const struct sp_result *r);
void app_lessons_free(struct app *a);
/* A demo's own limits over l, while it is in the Editor. */
void app_demo_limits(const struct app *a, struct sp_limits *l);
/* A verdict for the open lesson: the strip, Output, progress. */
void app_lesson_verdict(struct app *a, bool pass, const char *verdict);
/* The [again] runs' pipe is readable: their verdict, if still wanted. */
void app_lesson_again_judge(struct app *a);

/* app_lesson_again.c: a lesson's [again] runs on a thread of their own */
bool app_lesson_again_start(struct app *a, const char *program);
/* Wait for the runs going (if any) and drop their verdict. */
void app_lesson_again_stop(struct app *a);
bool app_lesson_again_busy(const struct app *a);
/* A new run: the runs going no longer judge anything (no wait). */
void app_lesson_again_forget(struct app *a);
/* The pipe the loop polls (-1: none); when it is readable, the runs'
 * verdict: true with *pass and verdict set when it is the open lesson's
 * (app_lesson_again_judge shows it). */
int app_lesson_again_fd(const struct app *a);
bool app_lesson_again_drain(struct app *a, bool *pass, char *verdict, size_t len);
/* Keep the learner's program of the lesson open now (state dir), so a
 * lesson reopened, or the next session, goes on from it. */
void app_lesson_keep_work(struct app *a);

/* app_step.c: step mode, a run shown at a teacher's pace */
bool app_step_pending(const struct app *a);
size_t app_step_violations_left(const struct app *a);
/* An event of the run: true when step mode holds it back. */
bool app_step_hold(struct app *a, const struct sp_event *ev);
/* The run finished: true when held events wait (the run is kept). */
bool app_step_hold_finish(struct app *a);
/* Space (up to the next violation) and Esc (all): true when taken. */
bool app_step_key(struct app *a, bool is_key, int key);
/* A run starts: step mode holds its output again. */
void app_step_begin(struct app *a);
void app_step_flush(struct app *a);
void app_step_toggle(struct app *a);
void app_step_free(struct app *a);

/* app_output.c: the answer to the Output pane's find or save prompt. */
void app_output_answer(struct app *a, int action, const char *input);

/* app_limits.c: F4 / Ctrl-P. The key function is true when the dialog
 * is up and took the key. */
void app_limits_open(struct app *a);
bool app_limits_key(struct app *a, bool is_key, wint_t ch);
/* A paste while the dialog is up goes into its field (one line of it). */
void app_limits_paste(struct app *a, const char *text, size_t len);
void app_limits_draw(struct app *a, int *cy, int *cx);

/* app_teach.c: tying what a run met to the source, and reading it all */
/* Move the Editor's cursor to line (1-based) and focus it. */
void app_goto_line(struct app *a, long line);
/* Enter in the Violations pane, or a click on a record: go to the
 * selected record's line (or say it has none). */
void app_jump_violation(struct app *a);
/* Enter in Output (row -1), or a click on its row: go to the traceback's
 * line; false when Enter finds no traceback line in view. */
bool app_jump_output(struct app *a, int row);
/* After a run: its hints into Output (before the run's footer), and
 * gutter marks for the records in the Violations pane. */
void app_teach_hints(struct app *a, const struct sp_result *r);
void app_teach_marks(struct app *a);

/* app_files.c: F7 / Ctrl-T and F8 / Ctrl-N (true when taken); the
 * answers of their dialogs (true when action was theirs); the F8 view's
 * keys (true while it is up); a run's files in and keep dir. */
bool app_files_key(struct app *a, bool fkey, int key);
bool app_files_dialog(struct app *a, int action, enum dialog_answer ans,
		      const char *input);
bool app_files_view_key(struct app *a, int key);
/* An Output picture full screen, saying its place among them all. */
void app_view_output_picture(struct app *a, struct picture *p);
struct sp_config;
struct sp_result;
void app_files_before_run(struct app *a, struct sp_config *c);
void app_files_after_run(struct app *a, const struct sp_result *r);
void app_files_free(struct app *a);
/* app_history.c: the view of the runs `sandpit mcp` kept */
void app_history_open(struct app *a);
bool app_history_key(struct app *a, int key);
void app_history_draw(struct app *a);

/* app_recovery.c: offer the last session's unsaved text (ACT_RECOVER),
 * and act on the answer to it or to ACT_RECOVER_DELETE. */
void app_recovery_offer(struct app *a);
void app_recovery_answer(struct app *a, int action, enum dialog_answer ans,
			 int chosen);

/* app_carry.c: the save prompt's answer, the load prompt's (asks before
 * values go), and the answer to ACT_CARRY_REPLACE or ACT_CARRY_CLEAR. */
void app_carry_save(struct app *a, const char *path);
void app_carry_load(struct app *a, const char *path);
void app_carry_answer(struct app *a, int action, enum dialog_answer ans);

/* app_run.c */
void app_run_start(struct app *a);
void app_run_cancel(struct app *a);
/* Take every event waiting (at most max); true when more may be waiting. */
bool app_run_drain(struct app *a, int max);
/* The run has been going for this many seconds. */
double app_run_seconds(const struct app *a);
/* The limits the next run gets: the config's, or the open lesson's
 * over them (app_lesson.c). */
void app_run_limits(const struct app *a, struct sp_limits *l);

/* app_run_end.c: keep stderr bytes for the traceback's line (as a run's
 * own stderr); the run finished with r: into the panes, then free it;
 * the run (run.sp) has finished: its result, as app_run_finish. */
void app_run_errtail_add(struct app *a, const char *s, size_t n);
void app_run_finish(struct app *a, const struct sp_result *r);
void app_run_finish_now(struct app *a);

/* app_prewarm.c: one prepared sandbox kept for the next F5 */
/* Prepare one when none is there and nothing else goes on; throw away
 * one made for limits the next run no longer has. Called every turn of
 * the loop (cheap when there is nothing to do). */
void app_prewarm_tick(struct app *a, double now);
/* Its fd for the loop's poll (-1: none), and its timeout (-1: none;
 * also the time left until one is due). */
int app_prewarm_fd(const struct app *a);
int app_prewarm_timeout_ms(const struct app *a, double now);
/* Take its events (READY, or FINISHED when preparing failed). */
void app_prewarm_drain(struct app *a);
/* F5: hand c to the prepared sandbox; true with *run set when it took
 * it, false (none, not ready, not matching: it is freed) to start cold. */
bool app_prewarm_take(struct app *a, const struct sp_config *c, struct sp_run **run);
/* Free it (quit, prewarm off); nothing is left behind. */
void app_prewarm_drop(struct app *a);
/* A short note for the Resources pane: "prepared · numpy preloaded". */
void app_prewarm_note(const struct app *a, char *buf, size_t len);
/* That note, on the bottom border of the pane at r. */
void app_prewarm_draw(const struct app *a, struct rect r);

#endif
