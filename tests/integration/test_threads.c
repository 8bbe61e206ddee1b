/* SPDX-License-Identifier: MIT */
/*
 * test_threads.c - runs on several threads at once, as sandpit.h allows:
 * each run is driven by its own thread, and the library's shared state
 * (the cgroup names, the cache of denied system calls' names, the JSON
 * escaper) must not mix them up. Each program makes a different denied
 * call in a loop, and each result must name its own call only.
 */
#include "itest.h"

#include <pthread.h>

#define THREADS 4
#define ROUNDS 3

struct job {
	int which;
	int failures;
	char why[512];
};

static const char *const programs[] = {
	"import ctypes\n"
	"libc = ctypes.CDLL(None, use_errno=True)\n"
	"for i in range(300):\n"
	"    libc.ptrace(16, 1, 0, 0)\n"
	"import os\n"
	"os.write(1, b'done ptrace \\xff\\n')\n",
	"import socket\n"
	"for i in range(300):\n"
	"    try:\n"
	"        socket.socket(socket.AF_INET, socket.SOCK_STREAM)\n"
	"    except OSError:\n"
	"        pass\n"
	"print('done socket')\n",
};
static const char *const own[] = { "ptrace", "socket" };

static void *drive(void *arg)
{
	struct job *j = arg;

	for (int round = 0; round < ROUNDS; round++) {
		struct sp_config cfg = it_config(programs[j->which], "threads.py");
		struct sp_result *r = NULL;
		struct sp_error err = { "" };
		char *json;

		if (sp_run_blocking(&cfg, &r, &err) < 0) {
			j->failures++;
			snprintf(j->why, sizeof j->why, "did not start: %s", err.msg);
			continue;
		}
		if (r->status != SP_STATUS_OK || !it_contains(r->out, "done")) {
			j->failures++;
			snprintf(j->why, sizeof j->why, "status %s: %s", sp_status_name(r->status),
				 r->error);
		}
		for (size_t i = 0; i < r->n_violations; i++)
			if (!it_contains(r->violations[i].what, own[j->which])) {
				j->failures++;
				snprintf(j->why, sizeof j->why, "%s run has a record '%s'",
					 own[j->which], r->violations[i].what);
			}
		if (r->n_violations == 0) {
			j->failures++;
			snprintf(j->why, sizeof j->why, "%s run has no record", own[j->which]);
		}
		json = sp_result_to_json(r);
		if (!json || (j->which == 0 && !it_contains(json, "done ptrace \\udcff"))) {
			j->failures++;
			snprintf(j->why, sizeof j->why, "JSON: %.400s", json ? json : "(none)");
		}
		free(json);
		sp_result_free(r);
	}
	return NULL;
}

static void test_runs_on_several_threads_keep_apart(void **state)
{
	pthread_t t[THREADS];
	struct job jobs[THREADS];

	(void)state;
	for (int i = 0; i < THREADS; i++) {
		memset(&jobs[i], 0, sizeof jobs[i]);
		jobs[i].which = i % 2;
		assert_int_equal(pthread_create(&t[i], NULL, drive, &jobs[i]), 0);
	}
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < THREADS; i++)
		if (jobs[i].failures)
			fail_msg("thread %d: %d failures, the last: %s", i, jobs[i].failures,
				 jobs[i].why);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs_on_several_threads_keep_apart),
	};
	return cmocka_run_group_tests_name("threads", tests, NULL, NULL);
}
