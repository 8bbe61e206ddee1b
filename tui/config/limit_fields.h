/* SPDX-License-Identifier: MIT */
/*
 * limit_fields.h - the six limits a person sets (CPU, wall, memory,
 * processes, output, disk) as one table: their names, how their text is
 * parsed, their floors and the message a bad value gets. The command line
 * (`sandpit run`, the playground's flags), the config file and the F4
 * limits dialog all go through it, so a value means the same everywhere.
 *
 * Invariants: limit_parse() stores only a value a run accepts (above its
 * floor), and leaves the limits as they were otherwise; limit_format()
 * gives text that limit_parse() reads back to the same value.
 */
#ifndef LIMIT_FIELDS_H
#define LIMIT_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sandpit.h"

enum limit_id { LIM_CPU, LIM_WALL, LIM_MEMORY, LIM_PROCS, LIM_OUTPUT,
		LIM_DISK, LIM_COUNT };

enum limit_unit { LU_SECONDS, LU_SIZE, LU_COUNT };

struct limit_field {
	const char *key;        /* config key and --flag name: "memory" */
	const char *label;      /* in the dialog: "Memory" */
	enum limit_unit unit;
	uint64_t floor;         /* the smallest value a run accepts: the
				 * engine's own (SP_MIN_*), never retyped */
	uint64_t lesson_max;    /* the most a lesson file may set: lessons
				 * come from someone else (a colleague's
				 * directory), so they are input, and a
				 * higher value is lowered to this and said */
};

extern const struct limit_field limit_fields[LIM_COUNT];

/* The field named key, or -1. */
int limit_find(const char *key);

/* The value of field id in l (ms, bytes or a count). */
uint64_t limit_get(const struct sp_limits *l, enum limit_id id);

/*
 * Parse text for field id into l. 0 ok; -1 with err saying what is wrong
 * and what to give instead ("'8M' is too small: give at least 16M"), and
 * l untouched.
 */
int limit_parse(enum limit_id id, const char *text, struct sp_limits *l,
		char *err, size_t errlen);

/* The value of field id as text limit_parse() reads back: "2.5", "64M". */
void limit_format(enum limit_id id, const struct sp_limits *l, char *buf,
		  size_t len);

/* The lesson maxima of l's limits lowered to (limit_fields[].lesson_max):
 * true when one was, with what appended to said ("cpu = 1e9 lowered to
 * 60", "; " between) as far as it fits. */
bool limit_lesson_cap(enum limit_id id, const char *asked, uint64_t *v, char *said,
		      size_t len);

/* Field id's floor as a person writes it, made from the floor itself:
 * "16M", "4K", "1ms", "1 byte". */
void limit_floor_text(enum limit_id id, char *buf, size_t len);

/* Named sets of limits: the defaults, a tight one for demos, and those of
 * the config file ([preset NAME] sections). */
#define LIMIT_PRESET_MAX 16
struct limit_preset {
	char name[32];
	struct sp_limits limits;
};

/* The two built-in presets: 0 the defaults, 1 "tight". */
#define LIMIT_BUILTIN_PRESETS 2
void limit_builtin_preset(size_t i, struct limit_preset *p);

#endif
