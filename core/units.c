/* SPDX-License-Identifier: MIT */
/*
 * units.c - sizes and times as a person reads them, the same everywhere:
 * the gauges, the records, the hints, `sandpit run`'s summary. Sizes are
 * binary (KiB, MiB, as the limits are set), times in seconds, with two
 * decimals below ten seconds.
 */
#include <stdio.h>

#include "base.h"
#include "banned.h"

void sp_format_bytes(uint64_t n, char *buf, size_t len)
{
	static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)n;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)n);
	else if (v < 10 && v != (double)(uint64_t)v)
		snprintf(buf, len, "%.1f %s", v, units[u]);
	else
		snprintf(buf, len, "%.0f %s", v, units[u]);
}

void sp_format_ms(uint64_t ms, char *buf, size_t len)
{
	if (ms < 10000 && ms % 1000)
		snprintf(buf, len, "%.2f s", (double)ms / 1000);
	else if (ms < 120000)
		snprintf(buf, len, "%llu s", (unsigned long long)(ms / 1000));
	else
		snprintf(buf, len, "%.1f min", (double)ms / 60000);
}

const char *sp_bytes_str(uint64_t n, char *buf)
{
	sp_format_bytes(n, buf, 32);
	return buf;
}

const char *sp_ms_str(uint64_t ms, char *buf)
{
	sp_format_ms(ms, buf, 32);
	return buf;
}
