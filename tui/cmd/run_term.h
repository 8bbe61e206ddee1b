/* SPDX-License-Identifier: MIT */
/*
 * run_term.h - a run's output on its way to a terminal, for plain
 * `sandpit run`: shown, never obeyed. A program's bytes could otherwise
 * set the clipboard (OSC 52), the title, links, or ask the terminal a
 * question whose answer it types into the shell after sandpit exits (DA,
 * DSR, DECRQSS), or fake the end of a bracketed paste.
 *
 * What the Output pane does (tui/text/vt_output.c), written back as text: '\r'
 * and '\b' pass (a progress bar still redraws itself), SGR colours, bold
 * and underline are kept (written again by us, from the 16 colours
 * vt_output knows; none under NO_COLOR), and every other control or
 * escape shows inert, as the sanitizer (tui/text/sanitize.c) writes it.
 * Output to a pipe or a file is not for this: it stays byte for byte.
 */
#ifndef RUN_TERM_H
#define RUN_TERM_H

#include <stdbool.h>
#include <stddef.h>

#include "text/vt_output.h"

struct run_term {
	struct vt_stream vs;
	int fd;
	unsigned char look;    /* what the terminal was last told */
	bool color;            /* false under NO_COLOR */
	bool failed;           /* a write failed (the reader is gone) */
};

void run_term_init(struct run_term *t, int fd, bool color);
void run_term_feed(struct run_term *t, const char *data, size_t len);
/* The stream ended: what was held back shows as text; colours reset. */
void run_term_finish(struct run_term *t);

#endif
