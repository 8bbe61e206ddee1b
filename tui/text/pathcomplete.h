/* SPDX-License-Identifier: MIT */
/*
 * pathcomplete.h - Tab completion of a file path in a prompt, as a shell
 * does it: the longest part all the names that fit share, a '/' after a
 * directory, and a note that lists the candidates when there are several.
 *
 * Only the directory the path names is read (one opendir); names that
 * start with '.' are offered only when the typed part starts with '.'.
 * A leading "~/" means the home directory, in completion and in the
 * answer (path_expand_home).
 */
#ifndef PATHCOMPLETE_H
#define PATHCOMPLETE_H

#include <stddef.h>

/* path[0..len) into out with a leading "~" or "~/" as $HOME, as a shell
 * reads it; other paths are copied as they are. */
void path_expand_home(const char *path, size_t len, char *out, size_t outlen);

/* Completes the path buf[0..*len) (NUL-terminated, room for cap bytes
 * with the NUL). Returns 1 when it added something, 0 when not (note says
 * why: "no match", "3 matches: a.py b.py c.py"), -1 when the directory
 * cannot be read (note says so). */
int path_complete(char *buf, size_t cap, size_t *len, char *note, size_t notelen);

#endif
