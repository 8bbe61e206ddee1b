/* SPDX-License-Identifier: MIT */
/*
 * prep.h - helpers for the tests of prepared runs (issue 18): make a
 * prepared sandbox and wait until it is ready, release it, drive it to
 * its end. Include after itest.h.
 */
#ifndef SP_PREP_H
#define SP_PREP_H

#include "itest.h"

/* Prepare with limits and preload (n names); wait for SP_EVENT_READY.
 * The sandbox must become ready: a failure is the test's. */
static inline struct sp_run *pt_prepare(const struct sp_limits *l, const char *const *pre,
					size_t n)
{
	struct sp_prepare p;
	struct sp_run *run = NULL;
	struct sp_error err = { "" };
	struct sp_event ev;
	bool ready_event = false;

	memset(&p, 0, sizeof p);
	p.limits = *l;
	p.preload = pre;
	p.n_preload = n;
	if (sp_run_prepare(&p, &run, &err) < 0)
		fail_msg("the sandbox was not prepared: %s", err.msg);
	while (!ready_event) {
		struct pollfd pf = { sp_run_fd(run), POLLIN, 0 };
		int t = sp_run_timeout_ms(run);
		if (t != 0)
			poll(&pf, 1, t);
		while (sp_run_next_event(run, &ev) > 0) {
			if (ev.type == SP_EVENT_READY)
				ready_event = true;
			else if (ev.type == SP_EVENT_FINISHED) {
				it_dump(ev.result);
				fail_msg("preparing failed: %s", ev.result->error);
			} else
				fail_msg("an event of type %d before the release", (int)ev.type);
		}
	}
	assert_true(sp_run_ready(run));
	return run;
}

/* Release run with cfg (must succeed), drive it to its end. */
static inline void pt_release_drive(struct sp_run *run, const struct sp_config *cfg)
{
	struct sp_error err = { "" };
	struct it_seen seen = { 0 };

	if (sp_run_release(run, cfg, &err) < 0)
		fail_msg("the release failed: %s", err.msg);
	assert_false(sp_run_ready(run));
	it_drive(run, &seen, NULL);
	free(seen.out);
	assert_non_null(sp_run_result(run));
}

/* The whole way: prepare for cfg's limits, release cfg, drive. */
static inline struct sp_run *pt_run_cfg(const struct sp_config *cfg, const char *const *pre,
					size_t n)
{
	struct sp_run *run = pt_prepare(&cfg->limits, pre, n);

	pt_release_drive(run, cfg);
	return run;
}

#endif
