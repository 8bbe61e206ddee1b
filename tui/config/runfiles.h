/* SPDX-License-Identifier: MIT */
/*
 * runfiles.h - the playground's host-side copy of each run's files, and
 * "the last run's kept files" as the rest of the playground sees them
 * (the Output pane's listing, the F8 viewer, pictures under the run).
 *
 * Each run keeps what its program left under its own directory,
 * $XDG_STATE_HOME/sandpit/runs/<YYYYmmdd-HHMMSS>-<pid>-<run>/, made by
 * the engine's keep (core/keep.c: regular files only, never through a
 * link, at most the disk limit). The work dir itself is still deleted
 * after every run; these are sandpit's copies, bounded: the newest
 * keep_runs runs and keep_bytes in all (config keys), the oldest dropped.
 *
 * Invariants: a struct run_files owns its strings; n is 0 and dir is ""
 * when the last run kept nothing; every host_path lies under dir, names
 * are the program's (any bytes: sanitize before drawing).
 */
#ifndef RUNFILES_H
#define RUNFILES_H

#include <stddef.h>
#include <stdint.h>

#include "sandpit.h"

#define RUNFILES_DEFAULT_RUNS 20
#define RUNFILES_DEFAULT_BYTES (256ull << 20)

struct run_file {
	char *name;        /* path in the work dir, as the program made it */
	char *host_path;   /* the copy on the host */
	uint64_t bytes;
};

struct run_files {
	int run_no;
	char dir[1024];    /* the run's keep dir, or "" */
	struct run_file *files;
	size_t n;
};

/* The runs root ($XDG_STATE_HOME/sandpit/runs, created) and a fresh name
 * in it for run_no, into dir. 0, or -1 when no state dir is known (err
 * "") or the root is not the user's own directory (err says why:
 * keptdirs.h). */
int runfiles_new_dir(int run_no, char *dir, size_t len, char *err, size_t errlen);

/* Replace rf with the kept files of result r (run run_no, kept in dir). */
void runfiles_take(struct run_files *rf, const struct sp_result *r, int run_no,
		   const char *dir);
void runfiles_free(struct run_files *rf);

/* Drop the oldest run dirs under the runs root until at most max_runs
 * are left and they hold at most max_bytes; keep (a dir path, may be
 * NULL) is never dropped. Only in the user's own directory, never
 * through a link, only dirs named as sandpit names them (keptdirs.h). */
void runfiles_prune(unsigned max_runs, uint64_t max_bytes, const char *keep);

/* Remove a run dir made by runfiles_new_dir that kept nothing. */
void runfiles_drop_if_empty(const char *dir);

#endif
