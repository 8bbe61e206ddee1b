/* SPDX-License-Identifier: MIT */
/*
 * test_cgroup_join.c - on a cgroup v1 host, as root, the sandbox's init
 * joins the run's memory, pids and cpuacct cgroups itself
 * (core/cgroup_join.h) rather than being moved there: looked at from the
 * host while the program runs, init and the program are each in all
 * three of the run's cgroups, and the run says the cgroup layer is on.
 * A run that ends by itself, in cgroups made while init built the root:
 * its figures are the cgroups', the cgroups are gone when the run says
 * it is finished, and the free leaves no process, not even a zombie.
 * Elsewhere (cgroup v2, an ordinary user) there is nothing to join this
 * way and the test says so and passes.
 */
#include "itest.h"

#include <sys/statfs.h>
#include <linux/magic.h>

/* The run's cgroup in each v1 controller: "/sandpit-PID-TOKEN" at the end
 * of the memory, pids and cpuacct lines of /proc/PID/cgroup; memdir (may
 * be NULL) gets the memory one's directory. */
static unsigned in_run_cgroups(long pid, char *memdir, size_t len)
{
	char path[64], *text, *line, *save = NULL;
	unsigned got = 0;

	snprintf(path, sizeof path, "/proc/%ld/cgroup", pid);
	text = it_slurp(path, NULL);
	if (!text)
		return 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *ctl = strchr(line, ':'), *where = strrchr(line, ':');
		bool run = where && strstr(where, "/sandpit-") != NULL;
		if (!ctl || !run)
			continue;
		if (strstr(ctl, ":memory:") == ctl || strstr(ctl, ",memory") || strstr(ctl, "memory,")) {
			got |= 1;
			if (memdir)
				snprintf(memdir, len, "/sys/fs/cgroup/memory%s", where + 1);
		}
		if (strstr(ctl, ":pids:") == ctl)
			got |= 2;
		if (strstr(ctl, "cpuacct"))
			got |= 4;
	}
	free(text);
	return got;
}

/* Root on a cgroup v1 host, where there is something to join this way. */
static bool root_on_v1(void)
{
	struct statfs fs;

	if (geteuid() == 0 && statfs("/sys/fs/cgroup", &fs) == 0 &&
	    fs.f_type != CGROUP2_SUPER_MAGIC && access("/sys/fs/cgroup/memory", W_OK) == 0)
		return true;
	printf("# not root on a cgroup v1 host: nothing to join this way\n");
	return false;
}

static void test_init_and_the_program_are_in_the_runs_v1_cgroups(void **state)
{
	char *name;
	struct sp_config cfg;
	struct it_seen seen = { 0 };
	struct sp_run *run;
	const struct sp_layer *l;
	long pids[8];
	size_t n;

	(void)state;
	if (!root_on_v1())
		return;
	name = it_name("cgjoin");
	cfg = it_config("import time\nprint('up', flush=True)\ntime.sleep(30)\n", name);
	run = it_start(&cfg);
	assert_true(it_drive(run, &seen, "up"));
	n = it_host_pids_with(name, pids, 8);
	/* init (its blanked command line keeps the program's name) and the
	 * interpreter */
	if (n < 2)
		fail_msg("found %zu of the run's processes on the host", n);
	for (size_t i = 0; i < n; i++)
		if (in_run_cgroups(pids[i], NULL, 0) != 7)
			fail_msg("process %ld is not in all of the run's memory, pids and cpuacct "
				 "cgroups (mask %u)", pids[i], in_run_cgroups(pids[i], NULL, 0));
	sp_run_cancel(run);
	it_drive(run, &seen, NULL);
	l = it_layer(sp_run_result(run), "cgroup");
	assert_non_null(l);
	assert_true(l->active);
	it_free_leaves_nothing(run, name);
	free(seen.out);
	free(name);
}

static void test_a_run_that_ends_is_finished_with_its_cgroups_gone(void **state)
{
	char *name;
	struct sp_config cfg;
	struct it_seen seen = { 0 };
	struct sp_run *run;
	const struct sp_result *res;
	char dir[PATH_MAX];
	long pids[8];

	(void)state;
	if (!root_on_v1())
		return;
	name = it_name("cgend");
	cfg = it_config("import time\nprint('up', flush=True)\ntime.sleep(0.3)\n"
			"x = bytearray(8 << 20)\n", name);
	run = it_start(&cfg);
	assert_true(it_drive(run, &seen, "up"));
	assert_true(it_host_pids_with(name, pids, 8) >= 1);
	assert_true(in_run_cgroups(pids[0], dir, sizeof dir) & 1);
	assert_int_equal(access(dir, F_OK), 0);
	it_drive(run, &seen, NULL);          /* to SP_EVENT_FINISHED */
	res = sp_run_result(run);
	assert_int_equal(res->status, SP_STATUS_OK);
	assert_string_equal(res->peak_memory_source, "cgroup");
	if (res->usage.peak_memory_bytes < (8u << 20))
		fail_msg("peak memory %llu, under the program's 8 MiB",
			 (unsigned long long)res->usage.peak_memory_bytes);
	if (access(dir, F_OK) == 0)
		fail_msg("%s is still there when the run is finished", dir);
	it_free_leaves_nothing(run, name);
	free(seen.out);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_and_the_program_are_in_the_runs_v1_cgroups),
		cmocka_unit_test(test_a_run_that_ends_is_finished_with_its_cgroups_gone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
