/* SPDX-License-Identifier: MIT */
/*
 * config.h - the playground's settings: defaults, then the config file
 * ($XDG_CONFIG_HOME/sandpit/config or --config FILE), then flags.
 *
 * Invariants: after config_load() every field holds a usable value, even
 * when the file had errors (bad lines are ignored and reported in
 * `error`); strings are always NUL-terminated.
 */
#ifndef CONFIG_H
#define CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/limit_fields.h"
#include "sandpit.h"

#define CONFIG_PATH_MAX 1024
#define CONFIG_MODULE_MAX 100     /* bytes of one preload module name */
/* The default `preload`, measured (docs/performance.md) */
#define CONFIG_PRELOAD_DEFAULT "numpy, pandas, matplotlib.pyplot"

struct pg_config {
	struct sp_limits limits;
	char python[CONFIG_PATH_MAX];   /* empty: the core's default */
	char theme[CONFIG_PATH_MAX];    /* a name or a path; empty: default */
	bool mouse;
	unsigned keep_runs;             /* runs whose files are kept (runs/) */
	uint64_t keep_bytes;            /* and at most this much in all */
	char config_path[CONFIG_PATH_MAX]; /* the file read, or empty */
	const char *file;               /* FILE argument, or NULL */
	const char *lessons_dir;        /* --lessons DIR: a teacher's lessons */
	bool step;                      /* --step: runs shown at a teacher's pace */
	bool prewarm;                   /* keep a prepared sandbox for F5 */
	/* modules the prepared sandbox imports ahead (`preload =`) */
	char preload[SP_MAX_PRELOAD][CONFIG_MODULE_MAX + 1];
	size_t n_preload;
	char graphics[16];              /* auto, kitty, sixel or symbols */
	char error[CONFIG_PATH_MAX + 256]; /* "FILE:LINE: ..." or empty */
	/* [preset NAME] sections of the file: limits over the defaults */
	struct limit_preset presets[LIMIT_PRESET_MAX];
	size_t n_presets;
};

/*
 * Fill cfg from defaults, the config file and argv (argv[0] skipped).
 * Returns 0, or -1 for a bad command line with usage_err set (the caller
 * prints it and exits 2). Errors in the config file are not fatal: they
 * are left in cfg->error for the playground to show.
 */
int config_load(struct pg_config *cfg, int argc, char **argv,
		char *usage_err, size_t errlen);

/* Apply one `key = value` setting. 0 ok; -1 with err filled. */
int config_set(struct pg_config *cfg, const char *key, const char *value,
	       char *err, size_t errlen);

/*
 * Write l's six limits into the config file at path (config_save.c):
 * every other line is kept, the file is replaced atomically (written
 * aside, synced, renamed). 0, or -1 with err saying why.
 */
int config_save_limits(const char *path, const struct sp_limits *l, char *err,
		       size_t errlen);

/* The default config file path into buf ("" when HOME is unknown). */
void config_default_path(char *buf, size_t len);

/*
 * The sandpit state directory ($XDG_STATE_HOME/sandpit, default
 * ~/.local/state/sandpit) joined with name into buf, creating the
 * directory when create is true. Returns 0, or -1 when no home is known.
 */
int config_state_path(const char *name, char *buf, size_t len, bool create);

#endif
