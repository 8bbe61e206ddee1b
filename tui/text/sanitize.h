/* SPDX-License-Identifier: MIT */
/*
 * sanitize.h - program output made safe to draw: shown, never obeyed.
 *
 * A program's output may hold escape sequences (set the title, clear the
 * screen, move the cursor), control bytes and invalid UTF-8. None of it
 * may reach the terminal as such. The sanitizer turns a byte stream into
 * valid UTF-8 text in which every such byte is visible:
 *
 *   C0 controls and DEL   -> caret notation: ESC "^[", BEL "^G", DEL "^?"
 *   C1 controls           -> "\x9b" (as a raw byte or as U+009B in UTF-8)
 *   bidi overrides        -> "<U+202E>" (they would reorder the screen),
 *   and marks, U+2028/9,     and so are the bidi marks, the line and
 *   U+0600 and kin           paragraph separators and the prepended
 *                            concatenation marks (see sanitize.c)
 *   other invalid UTF-8   -> U+FFFD, one per bad byte
 *   '\n' and '\t'         -> kept; the Output pane splits and expands them
 *
 * Invariants: the output is always valid UTF-8 with no byte < 0x20 other
 * than '\n' and '\t', and no DEL; a multi-byte character split across two
 * chunks is decoded as one (the state keeps up to 3 pending bytes).
 */
#ifndef SANITIZE_H
#define SANITIZE_H

#include <stdbool.h>
#include <stddef.h>

struct sanitizer {
	unsigned char pending[4];  /* an incomplete UTF-8 sequence */
	size_t npending;
	bool one_line;             /* '\n' and '\t' shown as ^J and ^I too */
};

/* Start a fresh stream. */
void sanitize_init(struct sanitizer *s);

/*
 * Sanitize len bytes of in, appending to out (capacity cap, NUL-ended).
 * out needs at most sanitize_max_out(len) bytes. Returns bytes written.
 */
size_t sanitize_feed(struct sanitizer *s, const char *in, size_t len,
		     char *out, size_t cap);

/* Flush pending bytes at end of stream (as U+FFFD). Returns bytes written. */
size_t sanitize_finish(struct sanitizer *s, char *out, size_t cap);

/* The largest output sanitize_feed() can make from len input bytes. */
size_t sanitize_max_out(size_t len);

/* Is the code point cp one this file shows by a name instead of itself
 * (a C0 control but '\n' and '\t', DEL, a C1 control, a bidi control
 * or kin)? For writers that escape it their own way, as JSON does. */
bool sanitize_hides(unsigned cp);

/* A sanitized, malloc'd copy of text ("" for NULL), NULL out of memory.
 * one_line: for a name the program chose inside sandpit's own text (a
 * file left, a report), which a line break must not split into lines of
 * its own. */
char *sanitize_dup(const char *text, bool one_line);

#endif
