/* SPDX-License-Identifier: MIT */
/*
 * samples.c - the run's usage timeline, kept in a bounded array.
 *
 * A sample comes every 50 ms (sooner near the CPU limit), so a run at a
 * long wall limit makes thousands. The timeline keeps at most
 * SP_MAX_SAMPLES points: when it fills, every other ordinary point is
 * dropped and from then on only every stride-th sample is taken (the
 * stride doubles each time), so a run of any length fits and its points
 * stay evenly spread in time. Three kinds of point are never dropped:
 * the first, the last (the sample taken after the program ended), and
 * every point where a limit was reached, so a graph always shows the
 * start, the end and the moment a limit stopped the run.
 *
 * Limit points are bounded by the kinds of limit (one stop per run, one
 * record per disk or process limit), so they can never fill the array.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "run_impl.h"
#include "buf.h"
#include "banned.h"

/* Drop every other ordinary point (never the first or a limit point) and
 * double the stride. */
static void samples_thin(struct sp_samples *s)
{
	size_t keep = 1, ordinary = 0;

	for (size_t i = 1; i < s->n; i++) {
		bool fixed = s->v[i].limit != 0;
		if (fixed || ordinary++ % 2 == 1)
			s->v[keep++] = s->v[i];
	}
	s->n = keep;
	s->stride *= 2;
}

/* Append p, thinning first when full. Returns -1 when out of memory. */
static int samples_append(struct sp_samples *s, const struct sp_sample *p)
{
	if (!s->v) {
		s->v = malloc(SP_MAX_SAMPLES * sizeof *s->v);
		if (!s->v)
			return -1;
	}
	/* one slot stays free for the held-back last point */
	if (s->n + 1 >= SP_MAX_SAMPLES)
		samples_thin(s);
	s->v[s->n++] = *p;
	return 0;
}

void sp_samples_add(struct sp_samples *s, const struct sp_sample *p)
{
	if (s->stride == 0)
		s->stride = 1;
	s->seen++;
	/* an ordinary point between strides is held back: it is the last
	 * point if no other follows */
	if (!p->limit && s->n > 0 && (s->seen - 1) % s->stride != 0) {
		s->held = *p;
		s->have_held = true;
		return;
	}
	s->have_held = false;
	(void)samples_append(s, p);
}

void sp_samples_mark_limit(struct sp_samples *s, enum sp_violation_kind kind)
{
	struct sp_sample *last;

	if (s->have_held) {
		s->have_held = false;
		if (samples_append(s, &s->held) < 0)
			return;
	}
	if (!s->n)
		return;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].limit == kind + 1)
			return; /* a sample saw it first: that is the moment */
	last = &s->v[s->n - 1];
	if (!last->limit)
		last->limit = (uint8_t)(kind + 1);
}

/* The limit kinds a timeline marks, as sp_sample.limit (kind + 1). */
static uint8_t limit_mark(const struct sp_violation *v)
{
	switch (v->kind) {
	case SP_VIOL_CPU: case SP_VIOL_WALL: case SP_VIOL_MEMORY:
	case SP_VIOL_OUTPUT: case SP_VIOL_DISK: case SP_VIOL_PROCESS:
		/* the program can send runtime records itself */
		return v->from_kernel ? (uint8_t)(v->kind + 1) : 0;
	default:
		return 0;
	}
}

/* A limit no sample measures: the wall's deadline and the output cap are
 * reached between samples, and stop the run. A sample taken after that
 * (the tree is still dying) is not where the limit was; the last point
 * is (docs/architecture.md), marked by sp_timeline_end. */
static bool seen_by_no_sample(const struct sp_violation *v)
{
	return v->kind == SP_VIOL_WALL || v->kind == SP_VIOL_OUTPUT;
}

/* The first limit among the records made since the last look, or 0. The
 * look stops at a limit no sample measures: it and the records after it
 * are left for the last point. */
static uint8_t new_limit(struct sp_run *r)
{
	uint8_t mark = 0;

	for (; r->timeline.seen < r->viol.n; r->timeline.seen++) {
		const struct sp_violation *v = &r->viol.v[r->timeline.seen];
		if (limit_mark(v) && seen_by_no_sample(v))
			break;
		if (!mark)
			mark = limit_mark(v);
	}
	return mark;
}

void sp_timeline_point(struct sp_run *r)
{
	const struct sp_usage *u = &r->res->usage;
	struct sp_sample p = {
		.t_ms = u->wall_ms, .cpu_ms = u->cpu_ms, .memory_bytes = u->memory_bytes,
		.output_bytes = u->output_bytes, .disk_bytes = u->disk_bytes,
		.procs = u->procs, .limit = new_limit(r),
	};
	sp_samples_add(&r->timeline.samples, &p);
}

void sp_timeline_end(struct sp_run *r)
{
	static const struct { enum sp_status st; enum sp_violation_kind k; } stops[] = {
		{ SP_STATUS_CPU_LIMIT, SP_VIOL_CPU }, { SP_STATUS_WALL_LIMIT, SP_VIOL_WALL },
		{ SP_STATUS_MEMORY_LIMIT, SP_VIOL_MEMORY },
		{ SP_STATUS_OUTPUT_LIMIT, SP_VIOL_OUTPUT },
	};

	/* records made at the end (the status's, disk and processes seen
	 * only then) belong to the last point */
	for (; r->timeline.seen < r->viol.n; r->timeline.seen++) {
		uint8_t mark = limit_mark(&r->viol.v[r->timeline.seen]);
		if (mark)
			sp_samples_mark_limit(&r->timeline.samples, (enum sp_violation_kind)(mark - 1));
	}
	for (size_t i = 0; i < SP_ARRAY_SIZE(stops); i++)
		if (r->res->status == stops[i].st)
			sp_samples_mark_limit(&r->timeline.samples, stops[i].k);
	sp_samples_take(&r->timeline.samples, &r->res->samples, &r->res->n_samples);
}

void sp_samples_take(struct sp_samples *s, struct sp_sample **v, size_t *n)
{
	if (s->have_held) {
		s->have_held = false;
		(void)samples_append(s, &s->held);
	}
	*v = s->v;
	*n = s->n;
	memset(s, 0, sizeof *s);
}

void sp_samples_free(struct sp_samples *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

json_t *sp_samples_json(const struct sp_sample *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "t_ms", json_integer((json_int_t)v[i].t_ms));
		json_object_set_new(o, "cpu_ms", json_integer((json_int_t)v[i].cpu_ms));
		json_object_set_new(o, "memory_bytes", json_integer((json_int_t)v[i].memory_bytes));
		json_object_set_new(o, "procs", json_integer(v[i].procs));
		json_object_set_new(o, "output_bytes", json_integer((json_int_t)v[i].output_bytes));
		json_object_set_new(o, "disk_bytes", json_integer((json_int_t)v[i].disk_bytes));
		if (v[i].limit)
			json_object_set_new(o, "limit", json_string(
				sp_violation_kind_name((enum sp_violation_kind)(v[i].limit - 1))));
		json_array_append_new(a, o);
	}
	return a;
}
