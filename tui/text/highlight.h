/* SPDX-License-Identifier: MIT */
/*
 * highlight.h - a line-at-a-time Python highlighter.
 *
 * Invariants:
 *  - hl_line() looks only at one line's bytes and the state the previous
 *    line ended in, and returns the state this line ends in; the state
 *    at the start of the file is HL_START. So a caller can cache one state
 *    per line and re-highlight from the first changed line only.
 *  - The state holds the open strings: up to HL_MAX_NEST nested string
 *    frames (an f-string's {expression} may hold another string), each
 *    with its quote, whether it is triple-quoted, f-/raw-prefixed, and
 *    whether we are inside its {expression}. Deeper nesting is treated as
 *    plain string text (coloured, never mis-parsed into a crash).
 *  - Every byte gets exactly one class; invalid UTF-8 is classed like its
 *    neighbours (the editor draws it in its own style on top).
 * No terminal code here.
 */
#ifndef SP_HIGHLIGHT_H
#define SP_HIGHLIGHT_H

#include <stddef.h>
#include <stdint.h>

enum hl_class {
	HL_TEXT,        /* names, operators, whitespace */
	HL_KEYWORD,
	HL_BUILTIN,
	HL_STRING,      /* incl. prefixes, quotes, escapes, f-string braces */
	HL_COMMENT,
	HL_NUMBER,
	HL_DECORATOR,
	HL_NCLASSES
};

typedef uint32_t hl_state;
#define HL_START ((hl_state)0)
#define HL_MAX_NEST 3

/* Classifies line s[0..len) (no '\n') starting in state in: cls[i] gets
 * the class of byte i (cls may be NULL to only advance the state).
 * Returns the state at the start of the next line. */
hl_state hl_line(const char *s, size_t len, hl_state in, unsigned char *cls);

/* True when the state is inside a string (e.g. for bracket matching). */
int hl_in_string(hl_state st);

#endif
