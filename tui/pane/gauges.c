/* SPDX-License-Identifier: MIT */
/*
 * gauges.c - the Resources pane. Each gauge is a row in a table, as
 * htop's meters are classes: its label (and the label of a peak), its
 * unit, how to read its value and its limit, and its graph's metric; the
 * drawing code knows no gauge by name or place.
 * The colour says how close to the limit it is: ok below 70 %, near
 * below 95 %, full from there (the run is about to be, or was, stopped).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pane/gauges.h"
#include "pane/sparkline.h"
#include "screen/theme.h"
#include "banned.h"

enum unit { U_MS, U_BYTES, U_COUNT };

struct gauge_def {
	const char *label;
	const char *peak_label;  /* after the run, when the value is a peak */
	enum unit unit;
	/* the value shown now: while running the latest, after it the peak */
	uint64_t (*value)(const struct gauges *g);
	uint64_t (*limit)(const struct sp_limits *l);
	enum spark_metric metric; /* its graph beside the bar */
};

static uint64_t cpu_value(const struct gauges *g) { return g->usage.cpu_ms; }
static uint64_t cpu_limit(const struct sp_limits *l) { return l->cpu_ms; }
static uint64_t wall_value(const struct gauges *g) { return g->usage.wall_ms; }
static uint64_t wall_limit(const struct sp_limits *l) { return l->wall_ms; }
static uint64_t memory_value(const struct gauges *g)
{
	return g->running ? g->usage.memory_bytes : g->usage.peak_memory_bytes;
}
static uint64_t memory_limit(const struct sp_limits *l) { return l->memory_bytes; }
static uint64_t procs_value(const struct gauges *g)
{
	return g->running ? g->usage.procs : g->usage.procs_peak;
}
static uint64_t procs_limit(const struct sp_limits *l) { return l->procs; }
static uint64_t output_value(const struct gauges *g) { return g->usage.output_bytes; }
static uint64_t output_limit(const struct sp_limits *l) { return l->output_bytes; }
static uint64_t disk_value(const struct gauges *g) { return g->usage.disk_bytes; }
static uint64_t disk_limit(const struct sp_limits *l) { return l->disk_bytes; }

static const struct gauge_def defs[] = {
	{ "CPU",    "CPU",       U_MS,    cpu_value,    cpu_limit,    SPARK_CPU },
	{ "wall",   "wall",      U_MS,    wall_value,   wall_limit,   SPARK_WALL },
	{ "memory", "mem peak",  U_BYTES, memory_value, memory_limit, SPARK_MEMORY },
	{ "procs",  "proc peak", U_COUNT, procs_value,  procs_limit,  SPARK_PROCS },
	{ "output", "output",    U_BYTES, output_value, output_limit, SPARK_OUTPUT },
	{ "disk",   "disk",      U_BYTES, disk_value,   disk_limit,   SPARK_DISK },
};
_Static_assert(sizeof defs / sizeof defs[0] == GAUGE_COUNT, "one row per gauge");

/* The engine's helper, so a size or time reads the same everywhere. */
void format_bytes(uint64_t n, char *buf, size_t len)
{
	sp_format_bytes(n, buf, len);
}

void format_ms(uint64_t ms, char *buf, size_t len)
{
	sp_format_ms(ms, buf, len);
}

static void format_value(enum unit u, uint64_t v, char *buf, size_t len)
{
	if (u == U_MS)
		format_ms(v, buf, len);
	else if (u == U_BYTES)
		format_bytes(v, buf, len);
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

void gauges_reset(struct gauges *g, const struct sp_limits *limits, bool running)
{
	memset(&g->usage, 0, sizeof g->usage);
	g->limits = *limits;
	g->running = running;
	if (running)
		timeline_clear(&g->tl);
}

void gauges_set_timeline(struct gauges *g, const struct sp_sample *v, size_t n)
{
	timeline_adopt(&g->tl, v, n);
}

void gauges_free(struct gauges *g)
{
	timeline_free(&g->tl);
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

void gauges_update(struct gauges *g, const struct sp_usage *u)
{
	struct sp_usage *p = &g->usage;

	p->cpu_ms = max64(p->cpu_ms, u->cpu_ms);
	p->wall_ms = max64(p->wall_ms, u->wall_ms);
	p->memory_bytes = u->memory_bytes;
	p->peak_memory_bytes = max64(max64(p->peak_memory_bytes, u->peak_memory_bytes),
				     u->memory_bytes);
	p->procs = u->procs;
	p->procs_peak = (uint32_t)max64(max64(p->procs_peak, u->procs_peak), u->procs);
	p->output_bytes = max64(p->output_bytes, u->output_bytes);
	p->disk_bytes = max64(p->disk_bytes, u->disk_bytes);
	g->have_run = true;
	if (g->running)
		timeline_add_usage(&g->tl, u);
}

void gauges_finish(struct gauges *g, const struct sp_usage *u)
{
	if (u)
		gauges_update(g, u);
	g->running = false;
}

/* The graph of gauge d in w cells at y, x. */
static void draw_spark(const struct gauges *g, const struct gauge_def *d, uint64_t lim, WINDOW *win,
		       int y, int x, int w, bool utf8, const struct theme *th)
{
	struct spark_cell cells[256];

	if (w > 256)
		w = 256;
	sparkline_columns(&g->tl, d->metric, lim, cells, w);
	for (int k = 0; k < w; k++) {
		const char *glyph = sparkline_glyph(&cells[k], utf8);
		enum theme_role r = cells[k].stop || cells[k].full ? TR_GAUGE_FULL :
				    cells[k].level >= 6 ? TR_GAUGE_NEAR :
				    cells[k].level ? TR_GAUGE_OK : TR_BORDER;
		text_draw(win, y, x + k, 1, glyph, strlen(glyph), theme_attr(th, r));
	}
}

/* One gauge in a cell of width w: label, bar, graph, "value / limit". The
 * figures get FIG_W cells so bars and graphs line up row under row. */
#define FIG_W 17
static void draw_gauge(const struct gauges *g, const struct gauge_def *d, WINDOW *win,
		       int y, int x, int w, const struct theme *th)
{
	bool utf8 = MB_CUR_MAX > 1;
	char val[32], lim_s[32], fig[80], label[16];
	uint64_t v = d->value(g), lim = d->limit(&g->limits);
	double ratio;
	enum theme_role role;
	int lw, fw, bw, sw = 0, filled, rest;

	format_value(d->unit, v, val, sizeof val);
	format_value(d->unit, lim, lim_s, sizeof lim_s);
	snprintf(fig, sizeof fig, "%s/%s", val, lim_s);
	snprintf(label, sizeof label, "%-9s",
		 g->running || !g->have_run ? d->label : d->peak_label);
	ratio = lim ? (double)v / (double)lim : 0;
	role = ratio >= 0.95 ? TR_GAUGE_FULL : ratio >= 0.7 ? TR_GAUGE_NEAR : TR_GAUGE_OK;

	lw = w >= 30 ? 10 : 5;
	fw = (int)strlen(fig);
	rest = w - lw - (fw > FIG_W ? fw : FIG_W) - 1;
	if (rest >= 12) {
		/* room for both: the graph gets the larger share */
		sw = rest * 3 / 5;
		bw = rest - sw - 1;
	} else {
		bw = w - lw - fw - 2;
	}
	if (bw < 3) { /* too narrow for a bar: label and figure only */
		bw = 0;
		sw = 0;
	}
	text_draw(win, y, x, lw - 1, label, strlen(label), theme_attr(th, TR_NORMAL));
	filled = bw ? (int)(ratio * bw + 0.5) : 0;
	if (filled > bw) filled = bw;
	for (int k = 0; k < bw; k++) {
		const char *glyph = k < filled ? (utf8 ? "█" : "#") : (utf8 ? "·" : "-");
		attr_t a = k < filled ? theme_attr(th, role) : theme_attr(th, TR_BORDER);
		text_draw(win, y, x + lw + k, 1, glyph, strlen(glyph), a);
	}
	if (sw)
		draw_spark(g, d, lim, win, y, x + lw + bw + 1, sw, utf8, th);
	rest = lw + bw + (bw ? 1 : 0) + (sw ? sw + 1 : 0);
	text_draw(win, y, x + rest, w - rest, fig,
		  strlen(fig), theme_attr(th, role == TR_GAUGE_OK ? TR_NORMAL : role));
}

void gauges_draw(const struct gauges *g, WINDOW *win, struct rect in,
		 const struct theme *th)
{
	int rows, cols, cw;

	layout_clear(win, in, theme_attr(th, TR_NORMAL));
	if (in.h < 1 || in.w < 4)
		return;
	rows = in.h < GAUGE_COUNT ? in.h : GAUGE_COUNT;
	cols = (GAUGE_COUNT + rows - 1) / rows;
	cw = in.w / cols;
	for (int i = 0; i < GAUGE_COUNT; i++) {
		int c = i / rows, r = i % rows;
		draw_gauge(g, &defs[i], win, in.y + r, in.x + c * cw, cw - (c + 1 < cols), th);
	}
}
