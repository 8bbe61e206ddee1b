/* SPDX-License-Identifier: MIT */
/*
 * limit_fields.c - one table for the limits a person sets, read the same
 * way by the command line, the config file and the F4 dialog. Times are
 * seconds ("2", "0.5", "250ms"), sizes bytes with K/M/G ("512M"), the
 * process count a plain number; each has the floor below which a run
 * could not start (the engine's SP_MIN_* in sandpit.h: Python needs its
 * memory, the work dir one page); every message shows the floor made
 * from that value, so a floor is written once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/limit_fields.h"
#include "banned.h"

#define PROCS_MAX 100000u

/* The lesson maxima: a few times the defaults (core/limits.c), room for
 * any exercise, never the whole machine. The shipped lessons stay far
 * below them (their highest: 12 s of wall time). */
const struct limit_field limit_fields[LIM_COUNT] = {
	[LIM_CPU]    = { "cpu",    "CPU time",  LU_SECONDS, 1, 60 * 1000 },
	[LIM_WALL]   = { "wall",   "Wall time", LU_SECONDS, 1, 120 * 1000 },
	[LIM_MEMORY] = { "memory", "Memory",    LU_SIZE, SP_MIN_MEMORY_BYTES, 2ull << 30 },
	[LIM_PROCS]  = { "procs",  "Processes", LU_COUNT, 1, 256 },
	[LIM_OUTPUT] = { "output", "Output",    LU_SIZE, 1, 16ull << 20 },
	[LIM_DISK]   = { "disk",   "Disk",      LU_SIZE, SP_MIN_DISK_BYTES, 256ull << 20 },
};

int limit_find(const char *key)
{
	for (int i = 0; i < LIM_COUNT; i++)
		if (!strcmp(limit_fields[i].key, key))
			return i;
	return -1;
}

static uint64_t *field_u64(struct sp_limits *l, enum limit_id id)
{
	switch (id) {
	case LIM_CPU: return &l->cpu_ms;
	case LIM_WALL: return &l->wall_ms;
	case LIM_MEMORY: return &l->memory_bytes;
	case LIM_OUTPUT: return &l->output_bytes;
	case LIM_DISK: return &l->disk_bytes;
	default: return NULL;
	}
}

uint64_t limit_get(const struct sp_limits *l, enum limit_id id)
{
	if (id == LIM_PROCS)
		return l->procs;
	return *field_u64((struct sp_limits *)l, id);
}

int limit_parse(enum limit_id id, const char *text, struct sp_limits *l,
		char *err, size_t errlen)
{
	const struct limit_field *f = &limit_fields[id];
	uint64_t v = 0;

	while (*text == ' ')
		text++;
	switch (f->unit) {
	case LU_SECONDS:
		if (sp_parse_seconds(text, &v) < 0) {
			snprintf(err, errlen, "bad time '%s': give seconds, like 2 or 0.5", text);
			return -1;
		}
		break;
	case LU_SIZE:
		if (sp_parse_size(text, &v) < 0) {
			snprintf(err, errlen, "bad size '%s': give bytes with an optional "
				 "K, M or G, like 64M", text);
			return -1;
		}
		break;
	case LU_COUNT: {
		char *end;
		unsigned long n;
		errno = 0;
		n = strtoul(text, &end, 10);
		if (errno || end == text || *end || text[0] == '-' || n > PROCS_MAX) {
			snprintf(err, errlen, "bad process count '%s': give a number "
				 "from 1 to %u", text, PROCS_MAX);
			return -1;
		}
		v = n;
		break;
	}
	}
	if (v < f->floor) {
		char floor[32];
		limit_floor_text(id, floor, sizeof floor);
		snprintf(err, errlen, "'%s' is too small: give at least %s", text, floor);
		return -1;
	}
	if (id == LIM_PROCS)
		l->procs = (uint32_t)v;
	else
		*field_u64(l, id) = v;
	return 0;
}

/* v in unit's notation, as limit_parse() reads it. */
static void format_value(enum limit_unit unit, uint64_t v, char *buf, size_t len)
{
	switch (unit) {
	case LU_SECONDS:
		if (v % 1000 == 0)
			snprintf(buf, len, "%llu", (unsigned long long)(v / 1000));
		else
			snprintf(buf, len, "%llums", (unsigned long long)v);
		break;
	case LU_SIZE:
		if (v && v % (1ull << 30) == 0)
			snprintf(buf, len, "%lluG", (unsigned long long)(v >> 30));
		else if (v && v % (1ull << 20) == 0)
			snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
		else if (v && v % 1024 == 0)
			snprintf(buf, len, "%lluK", (unsigned long long)(v >> 10));
		else
			snprintf(buf, len, "%llu", (unsigned long long)v);
		break;
	case LU_COUNT:
		snprintf(buf, len, "%llu", (unsigned long long)v);
		break;
	}
}

void limit_format(enum limit_id id, const struct sp_limits *l, char *buf,
		  size_t len)
{
	format_value(limit_fields[id].unit, limit_get(l, id), buf, len);
}

bool limit_lesson_cap(enum limit_id id, const char *asked, uint64_t *v, char *said,
		      size_t len)
{
	const struct limit_field *f = &limit_fields[id];
	size_t at = strlen(said);
	char max[32];

	if (*v <= f->lesson_max)
		return false;
	*v = f->lesson_max;
	format_value(f->unit, f->lesson_max, max, sizeof max);
	if (at < len)
		snprintf(said + at, len - at, "%s%s = %s lowered to %s", at ? "; " : "",
			 f->key, asked, max);
	return true;
}

void limit_floor_text(enum limit_id id, char *buf, size_t len)
{
	const struct limit_field *f = &limit_fields[id];

	format_value(f->unit, f->floor, buf, len);
	/* a bare number of bytes says what it counts */
	if (f->unit == LU_SIZE && f->floor < 1024)
		snprintf(buf, len, "%llu byte%s", (unsigned long long)f->floor,
			 f->floor == 1 ? "" : "s");
}

void limit_builtin_preset(size_t i, struct limit_preset *p)
{
	memset(p, 0, sizeof *p);
	sp_limits_default(&p->limits);
	if (i == 0) {
		snprintf(p->name, sizeof p->name, "defaults");
		return;
	}
	/* small enough that every limit is quick to reach in a demo */
	snprintf(p->name, sizeof p->name, "tight");
	p->limits.cpu_ms = 1000;
	p->limits.wall_ms = 2000;
	p->limits.memory_bytes = 64ull << 20;
	p->limits.procs = 8;
	p->limits.output_bytes = 64ull << 10;
	p->limits.disk_bytes = 1ull << 20;
}
