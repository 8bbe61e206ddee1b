/*
 * limits.c - the default limits and the parsers for sizes and durations.
 * Defaults follow the spirit of a code-runner sandbox: a few seconds of
 * work, moderate memory, small output.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "banned.h"

void sp_limits_default(struct sp_limits *l)
{
	l->cpu_ms = 5000;
	l->wall_ms = 10000;
	l->memory_bytes = 512ull << 20;
	l->output_bytes = 1ull << 20;
	l->disk_bytes = 64ull << 20;
	l->carry_bytes = 1ull << 20;
	l->procs = 64;
}

int sp_parse_size(const char *s, uint64_t *out)
{
	char *end;
	double v;
	uint64_t mult = 1;

	/* decimal only: strtod would also take hex, inf and nan */
	if (!s || !isdigit((unsigned char)*s) || strpbrk(s, "xXpP"))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	switch (tolower((unsigned char)*end)) {
	case '\0': break;
	case 'b': mult = 1; end++; break;
	case 'k': mult = 1ull << 10; end++; break;
	case 'm': mult = 1ull << 20; end++; break;
	case 'g': mult = 1ull << 30; end++; break;
	default: return -1;
	}
	/* accept "64M", "64MB", "64MiB" */
	if (mult > 1 && (*end == 'i' || *end == 'I'))
		end++;
	if (mult > 1 && (*end == 'b' || *end == 'B'))
		end++;
	if (*end)
		return -1;
	if (v * (double)mult > 9.0e18)
		return -1;
	*out = (uint64_t)(v * (double)mult);
	return 0;
}

int sp_parse_seconds(const char *s, uint64_t *out_ms)
{
	char *end;
	double v;

	if (!s || !(isdigit((unsigned char)*s) || *s == '.') || strpbrk(s, "xXpP"))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	if (strcmp(end, "ms") == 0)
		v /= 1000.0;
	else if (*end && strcmp(end, "s") != 0)
		return -1;
	if (v > 1.0e9)
		return -1;
	*out_ms = (uint64_t)(v * 1000.0 + 0.5); /* 0 <= v <= 1e9: rounds */
	return 0;
}

const char *sp_status_name(enum sp_status s)
{
	static const char *const names[] = {
		[SP_STATUS_OK] = "ok",
		[SP_STATUS_ERROR] = "error",
		[SP_STATUS_CPU_LIMIT] = "cpu_limit",
		[SP_STATUS_WALL_LIMIT] = "wall_limit",
		[SP_STATUS_MEMORY_LIMIT] = "memory_limit",
		[SP_STATUS_OUTPUT_LIMIT] = "output_limit",
		[SP_STATUS_KILLED] = "killed",
		[SP_STATUS_SANDBOX_ERROR] = "sandbox_error",
	};
	if ((unsigned)s >= sizeof names / sizeof names[0])
		return "unknown";
	return names[s];
}
