/* SPDX-License-Identifier: MIT */
/*
 * keyseq.h - the escape sequences ncurses hands over undecoded.
 *
 * A terminal sends F-keys, arrows and Alt-chords as ESC followed by a few
 * bytes. ncurses decodes the ones its terminfo entry names; the rest (an
 * Alt-chord, or every F-key when TERM does not match the terminal) come
 * out as ESC and then plain characters, which used to be typed into the
 * program ("OR", "[15~"). keyseq sits between wget_wch and the key map:
 * it decodes the common xterm sequences itself and swallows the others
 * whole, so a key that means nothing never types text.
 *
 * Invariants: a lone Esc is held only until the current batch of input
 * ends (keyseq_flush), so Esc still arrives at once; a sequence in
 * progress ends at its final byte or at the first byte that cannot be
 * part of it, so the keyboard is never held.
 */
#ifndef KEYSEQ_H
#define KEYSEQ_H

#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>

/* Our codes for keys ncurses numbers at run time, if at all. */
#define KEY_ALT_UP    (KEY_MAX + 10)
#define KEY_ALT_DOWN  (KEY_MAX + 11)
#define KEY_ALT_LEFT  (KEY_MAX + 12)
#define KEY_ALT_RIGHT (KEY_MAX + 13)
#define KEY_CTRL_DEL  (KEY_MAX + 14)   /* Ctrl-Delete: clears the Carry pane */
/* Alt-1 .. Alt-9 (ESC then the digit): KEY_ALT_DIGIT + 1 .. + 9 */
#define KEY_ALT_DIGIT (KEY_MAX + 20)

/* The bracketed-paste markers (ESC [200~ and ESC [201~): app.c also
 * hands them to ncurses by define_key. */
#define KEY_PASTE_BEGIN (KEY_MAX + 1)
#define KEY_PASTE_END   (KEY_MAX + 2)

enum keyseq_result {
	KS_KEY,      /* act on the key now in *is_key / *ch */
	KS_HOLD,     /* part of a sequence: nothing to do yet */
	KS_IGNORED,  /* a sequence that means nothing ended: desc names it */
};

struct keyseq {
	int state;          /* 0 idle, else what follows ESC (keyseq.c) */
	char seq[24];       /* the bytes after ESC so far, NUL-terminated */
	size_t len;
	bool has_replay;    /* a second key came with the one returned */
	bool replay_is_key;
	wint_t replay;
	int xkeys[5];       /* ncurses' codes for Alt-Up/Down/Left/Right and
	                     * Ctrl-Delete, or -1 */
	bool looked_up;
};

/* One key from wget_wch (is_key = KEY_CODE_YES). On KS_KEY the key to act
 * on is in *is_key / *ch (maybe a decoded one); on KS_IGNORED desc holds
 * a short name of what was dropped ("Alt-x", "ESC [99~"). A KS_KEY may
 * also end a sequence in progress: then *dropped is set and desc names
 * the dropped part. */
enum keyseq_result keyseq_feed(struct keyseq *k, bool *is_key, wint_t *ch,
			       bool *dropped, char *desc, size_t desclen);

/* After a KS_KEY: a second key that came with it (Esc, then Ctrl-L or F5
 * in the same read), to act on next. */
bool keyseq_replay(struct keyseq *k, bool *is_key, wint_t *ch);

/* The batch of input ended. A held lone ESC is a key of its own: returns
 * true with it in *ch (not a function key). */
bool keyseq_flush(struct keyseq *k, wint_t *ch);

#endif
