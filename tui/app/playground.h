/* SPDX-License-Identifier: MIT */
/*
 * playground.h - the interactive playground, entered from tui/cmd/main.c for
 * every command line that is not `run`, `doctor`, `--help` or `--version`.
 *
 * Invariants: the terminal is left as it was found on every return path,
 * including errors; the user's buffer is never lost (saved or written to
 * the recovery file).
 */
#ifndef PLAYGROUND_H
#define PLAYGROUND_H

#include <stddef.h>

/*
 * Run the playground with the full argv (argv[0] is the program name).
 * Returns the process exit status: 0 after a normal quit, 2 for bad usage,
 * 1 when the terminal could not be set up.
 */
int playground_main(int argc, char **argv);
/* The same, opened on the lessons (`sandpit learn`; argv without "learn"). */
int playground_learn(int argc, char **argv);
/*
 * `sandpit view`: the large picture view on its own, for a host PNG or
 * JPEG (tui/pane/image_view.c). Returns 0 when the picture was shown, 1
 * when it was refused, with the reason in why. Needs a terminal on stdin
 * and stdout; leaves it as it was found.
 */
int picture_view_main(const char *path, char *why, size_t whylen);

#endif
