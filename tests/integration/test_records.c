/* SPDX-License-Identifier: MIT */
/*
 * test_records.c - violation records as a front end sees them (issue 12):
 * each has a stable id, the run sends an event for every record whose
 * count changed (not just the first repeated one), and a runtime record
 * the program forges never merges into (or hides) the kernel's record of
 * the same call.
 */
#include "itest.h"

/* The last count the events announced for each id (index id - 1). */
struct seen_ids {
	unsigned last[64];
	unsigned events[64];
	size_t max_id;
};

/* Drive a run to its end, noting every violation event by id. */
static const struct sp_result *drive(struct sp_run *run, struct seen_ids *s)
{
	const struct sp_result *res = NULL;

	for (;;) {
		struct pollfd p = { sp_run_fd(run), POLLIN, 0 };
		struct sp_event ev;
		int t;

		while (sp_run_next_event(run, &ev) > 0) {
			if (ev.type == SP_EVENT_VIOLATION) {
				unsigned id = ev.violation->id;
				assert_true(id >= 1 && id <= 64);
				/* counts only grow, and each event says something new */
				assert_true(ev.violation->count > s->last[id - 1]);
				s->last[id - 1] = ev.violation->count;
				s->events[id - 1]++;
				if (id > s->max_id)
					s->max_id = id;
			} else if (ev.type == SP_EVENT_FINISHED) {
				res = ev.result;
			}
		}
		if (sp_run_finished(run))
			return res;
		t = sp_run_timeout_ms(run);
		if (t != 0)
			poll(&p, 1, t);
	}
}

static void test_every_grown_record_is_announced_with_its_count(void **state)
{
	char *name = it_name("grown");
	/* socket() twice from one line, then ptrace() five times from
	 * another: two records; the second grows after the first did */
	struct sp_config cfg = it_config(
		"import ctypes, socket\n"
		"for i in range(2):\n"
		"    try: socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
		"    except OSError: pass\n"
		"libc = ctypes.CDLL(None, use_errno=True)\n"
		"for i in range(5):\n"
		"    libc.ptrace(16, 1, 0, 0)\n"
		"print('done')\n", name);
	struct seen_ids s;
	struct sp_run *run;
	const struct sp_result *r;

	(void)state;
	memset(&s, 0, sizeof s);
	run = it_start(&cfg);
	r = drive(run, &s);
	assert_non_null(r);
	IT_CHECK(r, r->n_violations == 2);
	for (size_t i = 0; i < r->n_violations; i++) {
		const struct sp_violation *v = &r->violations[i];
		/* ids are 1..n in order of first sight */
		IT_CHECK(r, v->id == i + 1);
		/* the events' last word on each record is its final count */
		IT_CHECK(r, s.events[v->id - 1] >= 1);
		IT_CHECK(r, s.last[v->id - 1] == v->count);
	}
	IT_CHECK(r, r->violations[0].kind == SP_VIOL_NETWORK && r->violations[0].count == 2);
	IT_CHECK(r, r->violations[1].kind == SP_VIOL_SYSCALL && r->violations[1].count == 5);
	IT_CHECK(r, s.max_id == 2);
	sp_run_free(run);
	free(name);
}

static void test_ids_are_in_the_json(void **state)
{
	char *name = it_name("jsonid");
	struct sp_result *r = it_run(
		"import socket\n"
		"try: socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
		"except OSError: pass\n"
		"try: socket.socket(socket.AF_INET6, socket.SOCK_STREAM)\n"
		"except OSError: pass\n", name);
	char *text = sp_result_to_json(r);
	json_error_t e;
	json_t *j = json_loads(text, 0, &e), *vs;

	(void)state;
	assert_non_null(j);
	vs = json_object_get(j, "violations");
	IT_CHECK(r, json_array_size(vs) == 2);
	for (size_t i = 0; i < json_array_size(vs); i++) {
		json_t *id = json_object_get(json_array_get(vs, i), "id");
		IT_CHECK(r, json_is_integer(id) && json_integer_value(id) == (json_int_t)i + 1);
	}
	json_decref(j);
	free(text);
	sp_result_free(r);
	free(name);
}

static void test_a_forged_record_stands_beside_the_kernel_one(void **state)
{
	char *name = it_name("forged");
	/* the program writes, on the prelude's channel, a runtime record
	 * word for word like the kernel's record of its own socket() call */
	struct sp_result *r = it_run(
		"import os, socket\n"
		"try: socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
		"except OSError: pass\n"
		"os.write(3, b'{\"t\": \"ev\", \"k\": \"network\", \"line\": 2, '\n"
		"            b'\"what\": \"socket(AF_INET, SOCK_STREAM)\"}\\n')\n", name);
	const struct sp_violation *k = NULL, *f = NULL;

	(void)state;
	IT_CHECK(r, r->n_violations == 2);
	for (size_t i = 0; i < r->n_violations; i++) {
		if (r->violations[i].from_kernel)
			k = &r->violations[i];
		else
			f = &r->violations[i];
	}
	IT_CHECK(r, k && f);
	IT_CHECK(r, strcmp(k->what, f->what) == 0 && k->line == f->line);
	IT_CHECK(r, k->id != f->id);
	IT_CHECK(r, k->count == 1 && f->count == 1);
	sp_result_free(r);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_grown_record_is_announced_with_its_count),
		cmocka_unit_test(test_ids_are_in_the_json),
		cmocka_unit_test(test_a_forged_record_stands_beside_the_kernel_one),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
