/* SPDX-License-Identifier: MIT */
/*
 * sparkline.h - a run's usage timeline as the Resources pane keeps it, and
 * its drawing as one row of cells per gauge (a graph meter, in htop's
 * sense: the same value the bar shows, over time).
 *
 * Invariants: a timeline never holds more than SP_MAX_SAMPLES points and
 * its points are in time order; it lives until the next run clears it, so
 * the graph stays after the run ends. Live points come from the run's
 * usage events; when the run finishes they are replaced by the result's
 * own timeline, which also marks where a limit was reached.
 */
#ifndef SPARKLINE_H
#define SPARKLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sandpit.h"

struct timeline {
	struct sp_sample *v;   /* SP_MAX_SAMPLES slots once the first comes */
	size_t n;
	unsigned stride;       /* live: keep every stride-th sample */
	uint64_t seen;
	bool last_held;        /* the last point is off the stride: replaced next */
};

/* What a gauge graphs: the order of the gauges (CPU, wall, memory,
 * processes, output, disk). */
enum spark_metric { SPARK_CPU, SPARK_WALL, SPARK_MEMORY, SPARK_PROCS,
		    SPARK_OUTPUT, SPARK_DISK, SPARK_COUNT };

/* One column of a graph. */
struct spark_cell {
	bool data;            /* some point falls in or before this column */
	uint8_t level;        /* 0 (nothing used) .. 8 (at the limit) */
	bool full;            /* at 95 % of the limit or more */
	bool stop;            /* this metric's limit was reached here */
};

void timeline_clear(struct timeline *t);
void timeline_free(struct timeline *t);
/* Add a live usage sample (thinned by half when full). */
void timeline_add_usage(struct timeline *t, const struct sp_usage *u);
/* Replace the points with the result's timeline (copied). */
void timeline_adopt(struct timeline *t, const struct sp_sample *v, size_t n);

/* The value of metric m at point p. */
uint64_t spark_value(const struct sp_sample *p, enum spark_metric m);

/*
 * Fill w cells for metric m against limit: column c covers the c-th of w
 * equal slices of the run's time, shows the highest value in it (a slice
 * with no point repeats the one before), scaled so the top is the limit.
 */
void sparkline_columns(const struct timeline *t, enum spark_metric m,
		       uint64_t limit, struct spark_cell *cells, int w);

/* The glyph of a cell: blocks in UTF-8, an ASCII twin otherwise. */
const char *sparkline_glyph(const struct spark_cell *c, bool utf8);

#endif
