/* SPDX-License-Identifier: MIT */
/*
 * dialog.h - the one modal box of the playground: a yes/no question or a
 * one-line prompt (a file name for Ctrl-O open / save-as). It is a state,
 * not a blocking loop, so runs keep streaming while it is up.
 *
 * The prompt's field is a lineedit (lineedit.h): the suggested name is
 * selected, so typing replaces it; the editing keys, Tab (complete the
 * path) and Up/Down (names given before, this session) work in it.
 *
 * Invariants: the field is always valid UTF-8 and NUL-terminated; at most
 * one dialog is up; `action` tells the caller what to do with the answer;
 * the history outlives every dialog.
 */
#ifndef DIALOG_H
#define DIALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>
#include <curses.h>

#include "editor/lineedit.h"

struct theme;

enum dialog_kind { DLG_NONE, DLG_YESNO, DLG_INPUT, DLG_CHOICE };

enum dialog_answer {
	DLG_PENDING,   /* still up */
	DLG_YES,       /* y, or Enter in a prompt */
	DLG_NO,        /* n, Esc: cancelled */
	DLG_SAVE,      /* s, when the question offers saving */
	DLG_CHOSEN,    /* one of dialog_choose()'s keys: in `chosen` */
};

struct dialog {
	enum dialog_kind kind;
	int action;           /* the caller's tag for what was asked */
	bool offer_save;      /* yes/no also accepts s = save first */
	char title[64];
	char text[512];
	struct lineedit field;    /* the prompt's text: le_text(&d->field) */
	char choices[16];         /* DLG_CHOICE: the keys that answer */
	char hint[128];           /* DLG_CHOICE: what they do */
	int chosen;               /* the key of a DLG_CHOSEN answer */
	/* kept across dialogs (dialog_ask and dialog_prompt leave it) */
	struct le_history hist;   /* every prompt takes a path: one history */
};

/* Ask a yes/no question (with 's' = save when offer_save). */
void dialog_ask(struct dialog *d, int action, const char *title,
		const char *text, bool offer_save);
/* Ask with named choices: each character of choices (lower case) answers
 * DLG_CHOSEN with it in `chosen` (upper case too); Esc and Ctrl-C answer
 * DLG_NO; no other key does anything, so a stray key changes nothing.
 * hint lists the choices ("r: restore  k/Esc: keep  d: delete..."). */
void dialog_choose(struct dialog *d, int action, const char *title,
		   const char *text, const char *choices, const char *hint);

/* Prompt for a path, suggesting initial (may be NULL): it starts
 * selected, so the first character typed replaces it. */
void dialog_prompt(struct dialog *d, int action, const char *title,
		   const char *text, const char *initial);

static inline bool dialog_active(const struct dialog *d)
{
	return d->kind != DLG_NONE;
}

/* One key from wget_wch. The dialog closes on any answer but PENDING. */
enum dialog_answer dialog_key(struct dialog *d, bool is_key, wint_t ch);
/* Pasted text goes into a prompt (newlines dropped). */
void dialog_paste(struct dialog *d, const char *text, size_t len);

void dialog_draw(const struct dialog *d, WINDOW *win, int rows, int cols,
		 const struct theme *th);
/* Where the cursor belongs while a prompt is up. */
void dialog_cursor(const struct dialog *d, int rows, int cols, int *y, int *x);

#endif
