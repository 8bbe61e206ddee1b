/* SPDX-License-Identifier: MIT */
/*
 * keptdirs.h - the directories where sandpit keeps runs for later (the
 * playground's runs/, `sandpit mcp`'s mcp-runs/) and the one safe way to
 * drop runs from them.
 *
 * Such a directory lives in a home that another user or a program may
 * have touched: a symbolic link planted in its place, or a directory of
 * someone else's, would have sandpit delete what is there (a server run
 * as root with another user's HOME deletes anything). So the directory
 * is opened once, by descriptor, never through a link, and only when it
 * belongs to the effective user; everything below goes by that
 * descriptor (openat, unlinkat), never following a link; and only
 * entries whose names sandpit gives a run ("20261201-211502-PID-N") are
 * ever removed.
 *
 * Invariants: keptdirs_remove and keptdirs_bytes never leave the tree
 * under their parent descriptor; a name keptdirs_list gives is one
 * keptdirs_name_ours accepts.
 */
#ifndef KEPTDIRS_H
#define KEPTDIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Open path, a directory sandpit keeps runs in: a directory, not a link,
 * owned by the effective user. The fd (O_CLOEXEC), or -1 with err saying
 * what is wrong and what to do. */
int keptdirs_open(const char *path, char *err, size_t errlen);

/* Is name one sandpit gives a run's dir: YYYYmmdd-HHMMSS-PID-N? */
bool keptdirs_name_ours(const char *name);

/* The run dirs under fd (names ours only), sorted oldest first: their
 * count, *names malloc'd (each name too; keptdirs_names_free). */
size_t keptdirs_list(int fd, char ***names);
void keptdirs_names_free(char **names, size_t n);

/* The disk space name under fd takes (its blocks, links not followed). */
uint64_t keptdirs_bytes(int fd, const char *name);

/* Remove name under fd and all it holds, by descriptors, never following
 * a link (a link is unlinked itself). */
void keptdirs_remove(int fd, const char *name);

#endif
