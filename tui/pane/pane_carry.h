/* SPDX-License-Identifier: MIT */
/*
 * pane_carry.h - the Carry pane: the carry buffer, the only thing that
 * passes from one run to the next, shown exactly as it will be sent.
 *
 * Invariants: nothing enters the buffer without a key press by the user
 * (typing, F2 merge, or loading a file); the buffer is validated with the
 * core's own checker before any run (`valid` and `error` describe the
 * current text); the state file is replaced atomically, so a crash
 * leaves the old or the new buffer, never half of one.
 */
#ifndef PANE_CARRY_H
#define PANE_CARRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>
#include <curses.h>

#include "screen/layout.h"

struct editor;

struct carry_pane {
	struct editor *ed;        /* the buffer, edited like any text */
	char state_path[1024];    /* $XDG_STATE_HOME/sandpit/carry.json, or "" */
	bool own_state;           /* state_path is one given by carry_use_state */
	uint64_t max_bytes;
	char **changed;           /* names the last F2 added or replaced */
	bool stale;               /* text changed since the last validation */
	bool valid;
	bool empty;               /* only white space: no carry-in at all */
	char error[512];
	bool unsaved;             /* differs from the state file */
};

/* Create the pane and load the state file. Returns 0, or -1 (no memory). */
int carry_init(struct carry_pane *cp, uint64_t max_bytes);
void carry_free(struct carry_pane *cp);

/* A key or paste for the buffer (the pane has focus). */
bool carry_key(struct carry_pane *cp, bool is_key, wint_t ch);
void carry_paste(struct carry_pane *cp, const char *text, size_t len);
/* The whole buffer replaced by text, as one edit (Ctrl-Z undoes it). */
void carry_replace(struct carry_pane *cp, const char *text, size_t len);

/* Revalidate if needed; true when the buffer may be sent. */
bool carry_check(struct carry_pane *cp);

/*
 * The text to send (malloc'd, *len set), or NULL with *len 0 when the
 * buffer is empty. Call carry_check() first.
 */
char *carry_text(struct carry_pane *cp, size_t *len);

/*
 * F2: merge a run's carry_out into the buffer. Returns 0 with msg saying
 * which names changed, or -1 with msg saying why nothing changed.
 */
int carry_merge(struct carry_pane *cp, const char *carry_out, char *msg,
		size_t msglen);

/* Write the buffer to the state file if it changed. 0 ok, -1 err set. */
int carry_save_state(struct carry_pane *cp, char *err, size_t errlen);

/* The buffer kept in the state file path from now on (NULL: the
 * playground's own, carry.json): the buffer so far is saved to its file
 * first, then path's is loaded ("{}" when it has none). A lesson keeps a
 * buffer of its own so that nothing carries from one lesson, or from
 * the playground, into another. 0, or -1 with err set (nothing changed:
 * the old buffer could not be saved). */
int carry_use_state(struct carry_pane *cp, const char *path, char *err, size_t errlen);

/* Save the buffer to / replace it from a JSON file the user names (the
 * replacing is one edit: Ctrl-Z brings the old buffer back). */
int carry_save_file(struct carry_pane *cp, const char *path, char *err,
		    size_t errlen);
int carry_load_file(struct carry_pane *cp, const char *path, char *err,
		    size_t errlen);

/* Empty the buffer ("{}") as one edit: Ctrl-Z in the pane undoes it, as
 * it undoes a load. */
void carry_clear(struct carry_pane *cp);

/* True when the buffer holds nothing to send (white space or "{}"). */
bool carry_is_empty(struct carry_pane *cp);

/* Draw the buffer (editable when focused) and its validity line. */
void carry_draw(struct carry_pane *cp, WINDOW *win, struct rect inner,
		const struct theme *th, bool focused);

/* Put the cursor where the buffer stops being JSON; false when its
 * problem is not one of syntax (a bad name, too big) or it is valid. */
bool carry_goto_error(struct carry_pane *cp, int *line, int *col);

#endif
