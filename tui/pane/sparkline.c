/* SPDX-License-Identifier: MIT */
/*
 * sparkline.c - usage over time in one row of cells.
 *
 * Eight heights fit in a cell with the block elements U+2581..U+2588; a
 * terminal without UTF-8 gets an ASCII twin of four heights (_ - = #),
 * as htop keeps an ASCII twin of each of its glyph tables. A cell with
 * nothing used is a dot, like the bar's empty part, so an idle gauge
 * still shows that it was watched; a cell before the first point is
 * blank. The moment a limit stopped the run is an X in the column where
 * it happened.
 */
#include <stdlib.h>
#include <string.h>

#include "pane/sparkline.h"
#include "banned.h"

void timeline_clear(struct timeline *t)
{
	t->n = 0;
	t->stride = 1;
	t->seen = 0;
	t->last_held = false;
}

void timeline_free(struct timeline *t)
{
	free(t->v);
	memset(t, 0, sizeof *t);
}

static bool timeline_room(struct timeline *t)
{
	if (!t->v) {
		t->v = malloc(SP_MAX_SAMPLES * sizeof *t->v);
		if (!t->v)
			return false;
	}
	return true;
}

void timeline_add_usage(struct timeline *t, const struct sp_usage *u)
{
	struct sp_sample p = {
		.t_ms = u->wall_ms, .cpu_ms = u->cpu_ms, .memory_bytes = u->memory_bytes,
		.output_bytes = u->output_bytes, .disk_bytes = u->disk_bytes,
		.procs = u->procs,
	};

	bool on_stride;

	if (!timeline_room(t))
		return;
	if (t->stride == 0)
		t->stride = 1;
	on_stride = t->seen++ % t->stride == 0;
	/* a point off the stride is kept only until the next one comes, so
	 * the graph always ends at the latest sample */
	if (t->n && t->last_held)
		t->n--;
	if (t->n >= SP_MAX_SAMPLES) {
		size_t k = 1;
		for (size_t i = 2; i < t->n; i += 2)
			t->v[k++] = t->v[i];
		t->n = k;
		t->stride *= 2;
	}
	t->v[t->n++] = p;
	t->last_held = !on_stride;
}

void timeline_adopt(struct timeline *t, const struct sp_sample *v, size_t n)
{
	if (!n || !timeline_room(t))
		return;
	if (n > SP_MAX_SAMPLES)
		n = SP_MAX_SAMPLES;
	memcpy(t->v, v, n * sizeof *v);
	t->n = n;
	t->last_held = false;
}

uint64_t spark_value(const struct sp_sample *p, enum spark_metric m)
{
	switch (m) {
	case SPARK_CPU: return p->cpu_ms;
	case SPARK_WALL: return p->t_ms;
	case SPARK_MEMORY: return p->memory_bytes;
	case SPARK_PROCS: return p->procs;
	case SPARK_OUTPUT: return p->output_bytes;
	default: return p->disk_bytes;
	}
}

/* The violation kind (+ 1, as in sp_sample.limit) of each metric's limit. */
static uint8_t metric_limit_mark(enum spark_metric m)
{
	static const enum sp_violation_kind k[SPARK_COUNT] = {
		SP_VIOL_CPU, SP_VIOL_WALL, SP_VIOL_MEMORY, SP_VIOL_PROCESS,
		SP_VIOL_OUTPUT, SP_VIOL_DISK,
	};
	return (uint8_t)(k[m] + 1);
}

void sparkline_columns(const struct timeline *t, enum spark_metric m,
		       uint64_t limit, struct spark_cell *cells, int w)
{
	uint64_t end;
	size_t i = 0;
	uint8_t mark = metric_limit_mark(m);
	struct spark_cell prev = { 0 };

	memset(cells, 0, (size_t)(w > 0 ? w : 0) * sizeof *cells);
	if (w <= 0 || !t->n)
		return;
	end = t->v[t->n - 1].t_ms;
	for (int c = 0; c < w; c++) {
		/* points with t in (c*end/w, (c+1)*end/w]; the first column
		 * takes t = 0 too */
		uint64_t hi = end * (uint64_t)(c + 1) / (uint64_t)w;
		bool any = false;
		uint64_t top = 0;
		bool stop = false;

		while (i < t->n && (t->v[i].t_ms <= hi || c == w - 1)) {
			uint64_t v = spark_value(&t->v[i], m);
			if (!any || v > top)
				top = v;
			any = true;
			stop |= t->v[i].limit == mark;
			i++;
		}
		if (!any) {
			cells[c] = prev;
			cells[c].stop = false;
			continue;
		}
		cells[c].data = true;
		cells[c].stop = stop;
		if (limit) {
			uint64_t lv = top >= limit ? 8 : (top * 8 + limit - 1) / limit;
			cells[c].level = (uint8_t)lv;
			cells[c].full = top * 100 >= limit * 95;
		}
		prev = cells[c];
	}
}

const char *sparkline_glyph(const struct spark_cell *c, bool utf8)
{
	static const char *const blocks[9] = {
		"·", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█",
	};
	static const char *const ascii[9] = {
		".", "_", "_", "-", "-", "=", "=", "#", "#",
	};

	if (!c->data)
		return " ";
	if (c->stop)
		return utf8 ? "✕" : "X";
	return (utf8 ? blocks : ascii)[c->level > 8 ? 8 : c->level];
}
