/* SPDX-License-Identifier: MIT */
/*
 * gauges.h - the Resources pane: one bar per limited resource (CPU, wall,
 * memory, processes, output, disk), each against its limit with figures.
 *
 * Invariants: figures only grow during a run except "now" values (memory,
 * processes), whose peaks are kept; after the run the pane shows the
 * run's peaks until the next run starts. Limits are always shown, even
 * before the first run, so the user sees what a run may use. Where the
 * row is wide enough, a sparkline beside the bar shows the value over the
 * run's time (tui/pane/sparkline.c); it too stays until the next run.
 */
#ifndef GAUGES_H
#define GAUGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <curses.h>

#include "screen/layout.h"
#include "sandpit.h"
#include "pane/sparkline.h"

#define GAUGE_COUNT 6

struct gauges {
	struct sp_limits limits;
	struct sp_usage usage;   /* latest sample, peaks folded in */
	bool running;
	bool have_run;           /* some run has reported usage */
	struct timeline tl;      /* this run's (or the last run's) history */
};

/* Show limits with empty bars (start-up, or a new run). */
void gauges_reset(struct gauges *g, const struct sp_limits *limits, bool running);

/* Fold in a usage sample (SP_EVENT_USAGE). */
void gauges_update(struct gauges *g, const struct sp_usage *u);

/* The run ended: fold in the final usage and show peaks. */
void gauges_finish(struct gauges *g, const struct sp_usage *u);
/* The finished run's own timeline replaces the live one (copied). */
void gauges_set_timeline(struct gauges *g, const struct sp_sample *v, size_t n);
void gauges_free(struct gauges *g);

/* Draw all gauges in inner, as a grid of as many columns as needed. */
void gauges_draw(const struct gauges *g, WINDOW *win, struct rect inner,
		 const struct theme *th);

/* "512 B", "1.5 KiB", "64 MiB" into buf. */
void format_bytes(uint64_t n, char *buf, size_t len);
/* "0.25 s", "12 s", "2 min" into buf. */
void format_ms(uint64_t ms, char *buf, size_t len);

#endif
