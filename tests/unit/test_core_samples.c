/* SPDX-License-Identifier: MIT */
/*
 * test_core_samples.c - the usage timeline (core/samples.c): bounded at
 * SP_MAX_SAMPLES however long the run, evenly thinned, and never losing
 * its first point, its last point or a point where a limit was reached.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "result.h"
#include "run_impl.h"

static struct sp_sample at(uint64_t t)
{
	struct sp_sample p = { .t_ms = t, .cpu_ms = t / 2, .memory_bytes = t * 1000 };
	return p;
}

static void test_a_short_run_keeps_every_sample(void **state)
{
	struct sp_samples s = { 0 };
	struct sp_sample *v;
	size_t n;

	(void)state;
	for (uint64_t t = 0; t < 100; t++) {
		struct sp_sample p = at(t * 50);
		sp_samples_add(&s, &p);
	}
	sp_samples_take(&s, &v, &n);
	assert_int_equal(n, 100);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(v[i].t_ms, i * 50);
	free(v);
}

static void test_a_long_run_is_thinned_keeping_first_last_and_limits(void **state)
{
	struct sp_samples s = { 0 };
	struct sp_sample *v;
	size_t n, hits = 0;
	uint64_t max_gap = 0;
	const uint64_t total = 100000;

	(void)state;
	for (uint64_t t = 0; t < total; t++) {
		struct sp_sample p = at(t);
		if (t == 777 || t == 55555)
			p.limit = SP_VIOL_DISK + 1;
		sp_samples_add(&s, &p);
	}
	sp_samples_mark_limit(&s, SP_VIOL_WALL);
	sp_samples_take(&s, &v, &n);
	assert_true(n <= SP_MAX_SAMPLES);
	assert_true(n >= SP_MAX_SAMPLES / 3); /* thinned, not emptied */
	assert_int_equal(v[0].t_ms, 0);
	assert_int_equal(v[n - 1].t_ms, total - 1);
	assert_int_equal(v[n - 1].limit, SP_VIOL_WALL + 1);
	for (size_t i = 0; i < n; i++) {
		if (v[i].limit == SP_VIOL_DISK + 1) {
			assert_true(v[i].t_ms == 777 || v[i].t_ms == 55555);
			hits++;
		}
		if (i && v[i].t_ms - v[i - 1].t_ms > max_gap)
			max_gap = v[i].t_ms - v[i - 1].t_ms;
		if (i)
			assert_true(v[i].t_ms > v[i - 1].t_ms);
	}
	assert_int_equal(hits, 2);
	/* evenly spread: no hole much wider than the average step */
	assert_true(max_gap <= 4 * total / n);
	free(v);
}

static void test_a_limit_seen_by_a_sample_is_not_marked_twice(void **state)
{
	struct sp_samples s = { 0 };
	struct sp_sample *v;
	size_t n;

	(void)state;
	for (uint64_t t = 0; t < 10; t++) {
		struct sp_sample p = at(t);
		if (t == 5)
			p.limit = SP_VIOL_CPU + 1;
		sp_samples_add(&s, &p);
	}
	sp_samples_mark_limit(&s, SP_VIOL_CPU);
	sp_samples_take(&s, &v, &n);
	assert_int_equal(n, 10);
	assert_int_equal(v[5].limit, SP_VIOL_CPU + 1);
	assert_int_equal(v[9].limit, 0);
	free(v);
}

/* The wall limit stops the run at 1000 ms; a sample comes at 1001 while
 * the tree dies, the last point at 1002: the mark is on the last point,
 * which the docs promise, not on the sample after the stop. A memory limit
 * a sample measured stays on its own sample. */
static void test_a_wall_limit_marks_the_last_point(void **state)
{
	struct sp_run *r = calloc(1, sizeof *r);
	struct sp_result res;
	uint64_t times[] = { 900, 950, 1001, 1002 };

	(void)state;
	assert_non_null(r);
	memset(&res, 0, sizeof res);
	r->res = &res;
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
		if (times[i] == 950)
			assert_non_null(sp_violations_add(&r->viol, SP_VIOL_MEMORY, "memory", true, 0));
		if (times[i] == 1001)
			assert_non_null(sp_violations_add(&r->viol, SP_VIOL_WALL, "wall", true, 0));
		res.usage.wall_ms = times[i];
		sp_timeline_point(r);
	}
	res.status = SP_STATUS_WALL_LIMIT;
	sp_timeline_end(r);
	assert_int_equal(res.n_samples, 4);
	assert_int_equal(res.samples[0].limit, 0);
	assert_int_equal(res.samples[1].limit, SP_VIOL_MEMORY + 1);
	assert_int_equal(res.samples[2].t_ms, 1001);
	assert_int_equal(res.samples[2].limit, 0);
	assert_int_equal(res.samples[3].t_ms, 1002);
	assert_int_equal(res.samples[3].limit, SP_VIOL_WALL + 1);
	free(res.samples);
	sp_violations_free(&r->viol);
	free(r);
}

static void test_the_json_has_the_contracts_fields(void **state)
{
	struct sp_sample v[2] = { at(0), at(50) };
	json_t *a;
	const char *keys[] = { "t_ms", "cpu_ms", "memory_bytes", "procs",
			       "output_bytes", "disk_bytes" };

	(void)state;
	v[1].limit = SP_VIOL_MEMORY + 1;
	a = (json_t *)sp_samples_json(v, 2);
	assert_int_equal(json_array_size(a), 2);
	for (size_t k = 0; k < 6; k++)
		assert_true(json_is_integer(json_object_get(json_array_get(a, 0), keys[k])));
	assert_null(json_object_get(json_array_get(a, 0), "limit"));
	assert_string_equal(json_string_value(json_object_get(json_array_get(a, 1), "limit")),
			    "memory");
	assert_int_equal(json_integer_value(json_object_get(json_array_get(a, 1), "t_ms")), 50);
	json_decref(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_short_run_keeps_every_sample),
		cmocka_unit_test(test_a_long_run_is_thinned_keeping_first_last_and_limits),
		cmocka_unit_test(test_a_limit_seen_by_a_sample_is_not_marked_twice),
		cmocka_unit_test(test_a_wall_limit_marks_the_last_point),
		cmocka_unit_test(test_the_json_has_the_contracts_fields),
	};

	return cmocka_run_group_tests_name("unit/core_samples", tests, NULL, NULL);
}
