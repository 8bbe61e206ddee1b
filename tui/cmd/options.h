/* SPDX-License-Identifier: MIT */
/*
 * options.h - every option of the sandpit command in one table: its
 * name (the --flag and, where it has one, the config file's key), where
 * it is taken (`sandpit run`, the playground's flags, the config file),
 * its kind, which gives the parser, and its line of --help. cmd_run.c's
 * flags, config.c's flags and keys and the usage text are all read from
 * it, so an option or a limit is added here once (a limit's unit and
 * floor are in limit_fields.c, which the table points into).
 *
 * Invariants: names are unique; an OPT_LIMIT row names a limit_fields
 * entry of the same name, and every limit has such a row (a unit test
 * checks both).
 */
#ifndef OPTIONS_H
#define OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/limit_fields.h"
#include "sandpit.h"

/* where an option is taken */
#define OPT_RUN    1u   /* sandpit run --NAME */
#define OPT_PLAY   2u   /* sandpit [learn] --NAME (the playground) */
#define OPT_CONFIG 4u   /* NAME = VALUE in the config file */

enum opt_kind {
	OPT_LIMIT,   /* one of the six limits: limit_parse() */
	OPT_SIZE,    /* bytes with K/M/G: sp_parse_size() */
	OPT_COUNT,   /* a whole number from 1 to 1000000 */
	OPT_BOOL,    /* yes/no, true/false, on/off, 1/0 */
	OPT_TEXT,    /* a path or a name, as given */
	OPT_SWITCH,  /* a flag without a value */
};

enum opt_id {
	OPT_CPU, OPT_WALL, OPT_MEMORY, OPT_OUTPUT, OPT_DISK, OPT_PROCS,
	OPT_CARRY, OPT_CARRY_OUT, OPT_CARRY_MAX, OPT_STDIN, OPT_PYTHON,
	OPT_FILE, OPT_KEEP, OPT_JSON, OPT_COLUMNS, OPT_HELP,
	OPT_THEME, OPT_MOUSE, OPT_NO_MOUSE, OPT_CONFIG_FILE, OPT_LESSONS,
	OPT_STEP, OPT_KEEP_RUNS, OPT_KEEP_BYTES, OPT_PREWARM, OPT_PRELOAD, OPT_GRAPHICS,
	OPT_N
};

struct option_def {
	const char *name;   /* "memory": --memory and the key memory */
	const char *arg;    /* "SIZE" in the usage text; NULL for a switch */
	unsigned where;     /* OPT_RUN | OPT_PLAY | OPT_CONFIG */
	enum opt_kind kind;
	int limit;          /* enum limit_id of an OPT_LIMIT, else -1 */
	const char *help;   /* --help's description; "\n" starts another line */
};

/* Indexed by enum opt_id. */
extern const struct option_def options[OPT_N];

/* The option called name that is taken where (any bit of it): its id,
 * or -1. */
int option_find(const char *name, unsigned where);

/* A parsed value: n for sizes, counts and booleans, s for text. */
struct opt_value {
	uint64_t n;
	const char *s;
};

/*
 * Parse text as option id. A limit goes straight into l (through
 * limit_parse(), so only a value a run accepts is stored); any other
 * value into v. 0, or -1 with err saying what is wrong and what to give,
 * and l untouched.
 */
int option_parse(enum opt_id id, const char *text, struct sp_limits *l,
		 struct opt_value *v, char *err, size_t errlen);

/* The names of the options taken where, as "cpu, wall, ..." into buf. */
void option_names(unsigned where, char *buf, size_t len);

/* The usage lines of the options taken where, with the defaults of d
 * in brackets for limits and sizes, onto f (a FILE *). */
void option_print_help(void *f, unsigned where, const struct sp_limits *d);

/* The playground's options on a few lines: those of `sandpit run` by
 * name ("as above"), the others with their argument. */
void option_print_playground(void *f);

/* A command's option that will not do, on stderr: "COMMAND: what is
 * wrong" and where its help is ("(see 'COMMAND --help')"). Returns 2,
 * the exit status of a usage error. */
int option_usage_error(const char *command, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* --jobs: how many runs at once, 1 to 256. 0 and *jobs set, or -1 (and
 * *jobs untouched) when text is not such a number. */
int option_jobs(const char *text, unsigned *jobs);

#endif
