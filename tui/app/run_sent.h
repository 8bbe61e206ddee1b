/* SPDX-License-Identifier: MIT */
/*
 * run_sent.h - the line under a run's header that says what went in with
 * the run besides the program: the carry buffer's names, the stdin
 * buffer. Nothing goes in silently: a buffer sent unchanged run after run
 * is named under every header, not only when it changed.
 */
#ifndef RUN_SENT_H
#define RUN_SENT_H

#include <stddef.h>

/*
 * Write the line into buf: "sent with it: carry a, b, c · stdin 2 lines
 * (12 B)", or "" when nothing but the program went. carry is the carry-in
 * JSON object text (or NULL); names past the room are counted ("+4 more").
 */
void run_sent_line(char *buf, size_t len, const char *carry, size_t carry_len,
		   const char *stdin_data, size_t stdin_len);

#endif
