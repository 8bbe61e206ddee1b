/* SPDX-License-Identifier: MIT */
/*
 * options.c - the table of the sandpit command's options (options.h) and
 * the parser each kind of value gets.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "cmd/options.h"
#include "banned.h"

#define RP (OPT_RUN | OPT_PLAY)
#define ALL (OPT_RUN | OPT_PLAY | OPT_CONFIG)
#define PC (OPT_PLAY | OPT_CONFIG)

const struct option_def options[OPT_N] = {
	[OPT_CPU] = { "cpu", "SECONDS", ALL, OPT_LIMIT, LIM_CPU,
		"CPU time of the whole process tree" },
	[OPT_WALL] = { "wall", "SECONDS", ALL, OPT_LIMIT, LIM_WALL, "wall-clock time" },
	[OPT_MEMORY] = { "memory", "SIZE", ALL, OPT_LIMIT, LIM_MEMORY,
		"memory of the whole tree" },
	[OPT_OUTPUT] = { "output", "SIZE", ALL, OPT_LIMIT, LIM_OUTPUT,
		"stdout + stderr bytes kept" },
	[OPT_DISK] = { "disk", "SIZE", ALL, OPT_LIMIT, LIM_DISK,
		"bytes in the work dir, and one file's size" },
	[OPT_PROCS] = { "procs", "N", ALL, OPT_LIMIT, LIM_PROCS, "processes and threads" },
	[OPT_CARRY] = { "carry", "FILE", OPT_RUN, OPT_TEXT, -1,
		"carry-in: a JSON object; names become globals" },
	[OPT_CARRY_OUT] = { "carry-out", "FILE", OPT_RUN, OPT_TEXT, -1,
		"write the run's carry() values there (JSON object)" },
	[OPT_CARRY_MAX] = { "carry-max", "SIZE", OPT_RUN, OPT_SIZE, -1,
		"size cap of carry-in and carry-out" },
	[OPT_STDIN] = { "stdin", "FILE", OPT_RUN, OPT_TEXT, -1,
		"the program's standard input [empty]" },
	[OPT_PYTHON] = { "python", "PATH", ALL, OPT_TEXT, -1,
		"the interpreter [/usr/bin/python3]" },
	[OPT_FILE] = { "file", "[NAME=]PATH", OPT_RUN, OPT_TEXT, -1,
		"copy a host file into the work dir before the run, as\n"
		"NAME or its base name (repeatable; write ./PATH for a\n"
		"path with '=' in its first part)" },
	[OPT_KEEP] = { "keep", "DIR", OPT_RUN, OPT_TEXT, -1,
		"copy the regular files the program left to DIR (created;\n"
		"must be empty), at most the disk limit in all" },
	[OPT_JSON] = { "json", NULL, OPT_RUN, OPT_SWITCH, -1,
		"print the result as one JSON object" },
	[OPT_COLUMNS] = { "columns", "N", OPT_RUN, OPT_COUNT, -1,
		"tell the program its output is N columns wide (COLUMNS,\n"
		"LINES=24, pandas, numpy) [not told: 80x24]" },
	[OPT_HELP] = { "help", NULL, OPT_RUN, OPT_SWITCH, -1, NULL },
	[OPT_THEME] = { "theme", "NAME|FILE", PC, OPT_TEXT, -1, NULL },
	[OPT_MOUSE] = { "mouse", "yes|no", OPT_CONFIG, OPT_BOOL, -1, NULL },
	[OPT_NO_MOUSE] = { "no-mouse", NULL, OPT_PLAY, OPT_SWITCH, -1, NULL },
	[OPT_CONFIG_FILE] = { "config", "FILE", OPT_PLAY, OPT_TEXT, -1, NULL },
	[OPT_LESSONS] = { "lessons", "DIR", OPT_PLAY, OPT_TEXT, -1,
		"a teacher's *.lesson files, after the shipped ones" },
	[OPT_STEP] = { "step", NULL, OPT_PLAY, OPT_SWITCH, -1, NULL },
	[OPT_KEEP_RUNS] = { "keep_runs", "N", OPT_CONFIG, OPT_COUNT, -1, NULL },
	[OPT_KEEP_BYTES] = { "keep_bytes", "SIZE", OPT_CONFIG, OPT_SIZE, -1, NULL },
	[OPT_PREWARM] = { "prewarm", "yes|no", OPT_CONFIG, OPT_BOOL, -1, NULL },
	[OPT_PRELOAD] = { "preload", "MODULES", OPT_CONFIG, OPT_TEXT, -1, NULL },
	[OPT_GRAPHICS] = { "graphics", "auto|kitty|sixel|symbols", OPT_CONFIG, OPT_TEXT, -1, NULL },
};

int option_find(const char *name, unsigned where)
{
	for (int i = 0; i < OPT_N; i++)
		if ((options[i].where & where) && !strcmp(options[i].name, name))
			return i;
	return -1;
}

/* yes/no style booleans. 0 ok, -1 not a boolean. */
static int parse_bool(const char *v, uint64_t *out)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };

	for (size_t i = 0; i < SP_ARRAY_SIZE(yes); i++) {
		if (!strcasecmp(v, yes[i])) { *out = 1; return 0; }
		if (!strcasecmp(v, no[i])) { *out = 0; return 0; }
	}
	return -1;
}

/* A whole number from 1 to 1000000. 0 ok, -1 not one. */
static int parse_count(const char *v, uint64_t *out)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || end == v || *end || v[0] == '-' || n == 0 || n > 1000000)
		return -1;
	*out = n;
	return 0;
}

int option_parse(enum opt_id id, const char *text, struct sp_limits *l,
		 struct opt_value *v, char *err, size_t errlen)
{
	const struct option_def *o = &options[id];
	int bad = 0;

	memset(v, 0, sizeof *v);
	switch (o->kind) {
	case OPT_LIMIT:
		return limit_parse((enum limit_id)o->limit, text, l, err, errlen);
	case OPT_SIZE:
		if (sp_parse_size(text, &v->n) < 0) {
			snprintf(err, errlen, "bad size '%s': give bytes with an optional "
				 "K, M or G", text);
			return -1;
		}
		return 0;
	case OPT_COUNT:
		bad = parse_count(text, &v->n) < 0;
		break;
	case OPT_BOOL:
		bad = parse_bool(text, &v->n) < 0;
		break;
	case OPT_TEXT:
	case OPT_SWITCH:
		v->s = text;
		break;
	}
	if (bad) {
		snprintf(err, errlen, "bad value '%s' for %s", text, o->name);
		return -1;
	}
	return 0;
}

void option_names(unsigned where, char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (int i = 0; i < OPT_N && used < len; i++) {
		int n;
		if (!(options[i].where & where) || !options[i].arg)
			continue;
		n = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", options[i].name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* The default of a limit or a size, as the usage text shows it. */
static void default_text(const struct option_def *o, const struct sp_limits *d,
			 char *buf, size_t len)
{
	buf[0] = '\0';
	if (o->kind == OPT_LIMIT && limit_fields[o->limit].unit == LU_SECONDS)
		snprintf(buf, len, " [%.1f]", (double)limit_get(d, (enum limit_id)o->limit) / 1000.0);
	else if (o->kind == OPT_LIMIT) {
		char v[32];
		limit_format((enum limit_id)o->limit, d, v, sizeof v);
		snprintf(buf, len, " [%s]", v);
	} else if (o->kind == OPT_SIZE && o->where & OPT_RUN) {
		struct sp_limits one = *d;
		char v[32];
		one.output_bytes = d->carry_bytes; /* formatted as a size */
		limit_format(LIM_OUTPUT, &one, v, sizeof v);
		snprintf(buf, len, " [%s]", v);
	}
}

void option_print_help(void *out, unsigned where, const struct sp_limits *d)
{
	FILE *f = out;

	for (int i = 0; i < OPT_N; i++) {
		const struct option_def *o = &options[i];
		char flag[64], def[48];
		const char *h = o->help, *nl;

		if (!(o->where & where) || !h)
			continue;
		snprintf(flag, sizeof flag, "--%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
		default_text(o, d, def, sizeof def);
		/* the description's lines, the default after the last */
		fprintf(f, "  %-18s ", flag);
		while ((nl = strchr(h, '\n'))) {
			fprintf(f, "%.*s\n%21s", (int)(nl - h), h, "");
			h = nl + 1;
		}
		fprintf(f, "%s%s\n", h, def);
	}
}

/* Add word to the line in b, starting a new indented line past 76. */
static void wrap_add(FILE *f, struct sp_buf *b, const char *word)
{
	if (b->len && b->len + 1 + strlen(word) > 76) {
		fprintf(f, "%s\n", b->data);
		b->len = 0;
		sp_buf_adds(b, " ");
	}
	if (b->len)
		sp_buf_adds(b, " ");
	sp_buf_adds(b, word);
}

void option_print_playground(void *out)
{
	FILE *f = out;
	struct sp_buf b = SP_BUF_INIT;
	char word[160];
	int last = -1;

	for (int i = 0; i < OPT_N; i++)
		if (options[i].where & OPT_PLAY)
			last = i;
	sp_buf_adds(&b, "playground options:");
	for (int i = 0; i < OPT_N; i++) {
		const struct option_def *o = &options[i];
		if (!(o->where & OPT_PLAY) || !(o->where & OPT_RUN))
			continue;
		snprintf(word, sizeof word, "--%s", o->name);
		wrap_add(f, &b, word);
	}
	wrap_add(f, &b, "(as above),");
	for (int i = 0; i < OPT_N; i++) {
		const struct option_def *o = &options[i];
		if (!(o->where & OPT_PLAY) || (o->where & OPT_RUN))
			continue;
		snprintf(word, sizeof word, "--%s%s%s%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "", o->help ? " (" : "", o->help ? o->help : "",
			 o->help ? ")" : "");
		if (i != last)
			snprintf(word + strlen(word), sizeof word - strlen(word), ",");
		wrap_add(f, &b, word);
	}
	if (b.len)
		fprintf(f, "%s\n", b.data);
	sp_buf_free(&b);
}

int option_usage_error(const char *command, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: ", command);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see '%s --help')\n", command);
	return 2;
}

int option_jobs(const char *text, unsigned *jobs)
{
	char *end;
	long n = strtol(text, &end, 10);

	if (end == text || *end || n < 1 || n > 256)
		return -1;
	*jobs = (unsigned)n;
	return 0;
}
