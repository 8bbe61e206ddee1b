/* SPDX-License-Identifier: MIT */
/*
 * wrap.h - text wrapped at words for a reader, with a hanging indent: a
 * help line "  F5, Ctrl-R       run the program ..." continues under
 * "run", a paragraph under its own first word. Only whole words move to
 * the next row; a word wider than the row is cut, as nothing else fits.
 *
 * Invariants: rows point into the text they were made from (no copies);
 * every byte of the text is in exactly one row, or in the spaces dropped
 * at a break.
 */
#ifndef WRAP_H
#define WRAP_H

#include <stddef.h>

struct wrap_row {
	const char *s;    /* the row's text (not NUL-ended) */
	size_t len;
	int indent;       /* cells of blank before it */
};

/* Wrap s into at most max rows of w cells; returns the rows used (at
 * least 1, an empty row for ""). */
int wrap_hanging(const char *s, int w, struct wrap_row *rows, int max);

#endif
