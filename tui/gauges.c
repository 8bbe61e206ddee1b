/*
 * gauges.c - the Resources pane. Each gauge is a row in a table: how to
 * read its value and limit from usage/limits, and how to print figures.
 * The colour says how close to the limit it is: ok below 70 %, near
 * below 95 %, full from there (the run is about to be, or was, stopped).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gauges.h"
#include "theme.h"
#include "banned.h"

enum unit { U_MS, U_BYTES, U_COUNT };

struct gauge_def {
	const char *label;
	const char *peak_label;  /* after the run, when the value is a peak */
	enum unit unit;
};

static const struct gauge_def defs[GAUGE_COUNT] = {
	{ "CPU",    "CPU",       U_MS },
	{ "wall",   "wall",      U_MS },
	{ "memory", "mem peak",  U_BYTES },
	{ "procs",  "proc peak", U_COUNT },
	{ "output", "output",    U_BYTES },
	{ "disk",   "disk",      U_BYTES },
};

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
}

void gauges_finish(struct gauges *g, const struct sp_usage *u)
{
	if (u)
		gauges_update(g, u);
	g->running = false;
}

/* Value and limit of gauge i as shown now. */
static void gauge_values(const struct gauges *g, int i, uint64_t *v, uint64_t *lim)
{
	const struct sp_usage *u = &g->usage;
	const struct sp_limits *l = &g->limits;

	switch (i) {
	case 0: *v = u->cpu_ms; *lim = l->cpu_ms; break;
	case 1: *v = u->wall_ms; *lim = l->wall_ms; break;
	case 2: *v = g->running ? u->memory_bytes : u->peak_memory_bytes;
		*lim = l->memory_bytes; break;
	case 3: *v = g->running ? u->procs : u->procs_peak; *lim = l->procs; break;
	case 4: *v = u->output_bytes; *lim = l->output_bytes; break;
	default: *v = u->disk_bytes; *lim = l->disk_bytes; break;
	}
}

/* One gauge in a cell of width w: label, bar, "value / limit". */
static void draw_gauge(const struct gauges *g, int i, WINDOW *win, int y, int x,
		       int w, const struct theme *th)
{
	const struct gauge_def *d = &defs[i];
	bool utf8 = MB_CUR_MAX > 1;
	char val[32], lim_s[32], fig[80], label[16];
	uint64_t v, lim;
	double ratio;
	enum theme_role role;
	int lw, fw, bw, filled;

	gauge_values(g, i, &v, &lim);
	format_value(d->unit, v, val, sizeof val);
	format_value(d->unit, lim, lim_s, sizeof lim_s);
	snprintf(fig, sizeof fig, "%s/%s", val, lim_s);
	snprintf(label, sizeof label, "%-9s",
		 g->running || !g->have_run ? d->label : d->peak_label);
	ratio = lim ? (double)v / (double)lim : 0;
	role = ratio >= 0.95 ? TR_GAUGE_FULL : ratio >= 0.7 ? TR_GAUGE_NEAR : TR_GAUGE_OK;

	lw = w >= 30 ? 10 : 5;
	fw = (int)strlen(fig);
	bw = w - lw - fw - 2;
	if (bw < 3) { /* too narrow for a bar: label and figure only */
		bw = 0;
	}
	text_draw(win, y, x, lw - 1, label, strlen(label), theme_attr(th, TR_NORMAL));
	filled = bw ? (int)(ratio * bw + 0.5) : 0;
	if (filled > bw) filled = bw;
	for (int k = 0; k < bw; k++) {
		const char *glyph = k < filled ? (utf8 ? "█" : "#") : (utf8 ? "·" : "-");
		attr_t a = k < filled ? theme_attr(th, role) : theme_attr(th, TR_BORDER);
		text_draw(win, y, x + lw + k, 1, glyph, strlen(glyph), a);
	}
	text_draw(win, y, x + lw + bw + (bw ? 1 : 0), w - lw - bw - 1, fig,
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
		draw_gauge(g, i, win, in.y + r, in.x + c * cw, cw - (c + 1 < cols), th);
	}
}
