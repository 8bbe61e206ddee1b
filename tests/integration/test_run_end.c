/* SPDX-License-Identifier: MIT */
/*
 * test_run_end.c - the figures of a run that ends by itself. Without a
 * cgroup they come from the 50 ms samples and, at the end, from init's
 * rusage (it covers every process init reaped): a peak reached just
 * before the program's end, between two samples, still counts. With the
 * host's cgroups the run ends the same. The free leaves no process and
 * no child. Run as root and as an ordinary user; SANDPIT_NO_CGROUP makes
 * the cgroup-less path on any host.
 */
#include "itest.h"

/* 32 MiB touched at the very end, after 0.3 s of rest: the 50 ms samples
 * see the program small; only the rusage of what init reaped has the peak */
static const char late_peak[] =
	"import time\n"
	"print('up', flush=True)\n"
	"time.sleep(0.3)\n"
	"x = bytearray(32 << 20)\n"
	"for i in range(0, len(x), 4096):\n"
	"    x[i] = 1\n";

/* The late-peak program to its end; its peak must be counted, from the
 * figures source says (NULL: whichever the host gives). */
static void finish_and_check(const char *tag, const char *source)
{
	char *name = it_name(tag);
	struct sp_config cfg = it_config(late_peak, name);
	struct it_seen seen = { 0 };
	struct sp_run *run;
	const struct sp_result *res;

	run = it_start(&cfg);
	assert_true(it_drive(run, &seen, "up"));
	it_drive(run, &seen, NULL);          /* to SP_EVENT_FINISHED */
	res = sp_run_result(run);
	assert_int_equal(res->status, SP_STATUS_OK);
	assert_int_equal(res->exit_code, 0);
	if (source)
		assert_string_equal(res->peak_memory_source, source);
	if (res->usage.peak_memory_bytes < (32u << 20))
		fail_msg("peak memory %llu (%s): under the program's 32 MiB",
			 (unsigned long long)res->usage.peak_memory_bytes,
			 res->peak_memory_source);
	it_free_leaves_nothing(run, name);
	free(seen.out);
	free(name);
}

static void test_without_a_cgroup_a_late_peak_comes_from_inits_rusage(void **state)
{
	(void)state;
	setenv("SANDPIT_NO_CGROUP", "1", 1);
	finish_and_check("endnocg", "rss_samples");
	unsetenv("SANDPIT_NO_CGROUP");
}

static void test_with_the_hosts_cgroups_the_run_ends_the_same(void **state)
{
	(void)state;
	finish_and_check("endcg", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_without_a_cgroup_a_late_peak_comes_from_inits_rusage),
		cmocka_unit_test(test_with_the_hosts_cgroups_the_run_ends_the_same),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
