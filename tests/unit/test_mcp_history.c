/* SPDX-License-Identifier: MIT */
/*
 * test_mcp_history.c - the MCP history's prune policy and its directory
 * rules (tui/service/mcp_history.c, tui/config/keptdirs.c): runs are
 * dropped by count, by age and by bytes, those with violations kept
 * apart and longer; the newest run always stays; nothing not named as a
 * run dir is touched; a link or another user's dir is refused as root.
 * A run's input files are kept within the cap (and said when over); a
 * byte of output that is not UTF-8 leaves the run listed and shown.
 * (The server's side of it, through `sandpit mcp`, is
 * tests/mcp/test_history_dir.sh.)
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config/keptdirs.h"
#include "service/mcp_history.h"
#include "service/mcp_runs.h"

#define DAY 86400

static char dir[] = "/tmp/sandpit-mcp-history-XXXXXX";
static char runs[sizeof dir + 16];

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(runs, sizeof runs, "%s/runs", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	(void)state;
	mcp_history_close();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A fresh runs dir, the history's root. */
static void fresh_root(void)
{
	char cmd[160], err[1500];

	mcp_history_close();
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir '%s'", runs, runs);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(mcp_history_open_at(runs, err, sizeof err), 0);
}

/* A run dir: bytes of data, the violations mark when viol, its mtime
 * age seconds ago. */
static void run(const char *name, bool viol, size_t bytes, time_t age)
{
	char path[300];
	struct timespec ts[2] = { { time(NULL) - age, 0 }, { time(NULL) - age, 0 } };

	snprintf(path, sizeof path, "%s/%s", runs, name);
	assert_int_equal(mkdir(path, 0700), 0);
	if (bytes) {
		char *data = calloc(1, bytes), file[320];
		FILE *f;
		snprintf(file, sizeof file, "%s/code.py", path);
		assert_non_null(f = fopen(file, "w"));
		memset(data, 'x', bytes);
		fwrite(data, 1, bytes, f);
		fclose(f);
		free(data);
	}
	if (viol) {
		char mark[320];
		FILE *f;
		snprintf(mark, sizeof mark, "%s/violations", path);
		assert_non_null(f = fopen(mark, "w"));
		fputs("1\n", f);
		fclose(f);
	}
	assert_int_equal(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static bool kept(const char *name)
{
	char path[300];
	struct stat st;

	snprintf(path, sizeof path, "%s/%s", runs, name);
	return lstat(path, &st) == 0;
}

static void test_runs_go_by_age_and_those_with_violations_stay_longer(void **state)
{
	const struct mcp_history_policy p = MCP_HISTORY_POLICY;

	(void)state;
	fresh_root();
	run("20200101-000000-1-00001", false, 0, 31 * DAY);
	run("20200101-000000-1-00002", true, 0, 40 * DAY);
	run("20200101-000000-1-00003", true, 0, 91 * DAY);
	run("20200101-000000-1-00004", false, 0, 29 * DAY);
	run("20200101-000000-1-00009", false, 0, 0);
	mcp_history_prune_by(&p, time(NULL));
	assert_false(kept("20200101-000000-1-00001"));
	assert_true(kept("20200101-000000-1-00002"));
	assert_false(kept("20200101-000000-1-00003"));
	assert_true(kept("20200101-000000-1-00004"));
	assert_true(kept("20200101-000000-1-00009"));
}

static void test_a_violation_run_outlives_the_count_of_trivial_ones(void **state)
{
	const struct mcp_history_policy p = { 3, 30, 2, 90, 1ull << 40 };
	char name[64];

	(void)state;
	fresh_root();
	run("20200101-000000-1-00000", true, 0, 0);
	for (int i = 1; i <= 6; i++) {
		snprintf(name, sizeof name, "20200102-000000-1-%05d", i);
		run(name, false, 0, 0);
	}
	mcp_history_prune_by(&p, time(NULL));
	assert_true(kept("20200101-000000-1-00000"));
	for (int i = 1; i <= 6; i++) {
		snprintf(name, sizeof name, "20200102-000000-1-%05d", i);
		assert_int_equal(kept(name), i > 3);
	}
}

static void test_over_the_bytes_the_oldest_trivial_runs_go_first(void **state)
{
	const struct mcp_history_policy p = { 100, 30, 100, 90, 100 << 10 };

	(void)state;
	fresh_root();
	run("20200101-000000-1-00001", true, 40 << 10, 0);
	run("20200101-000000-1-00002", false, 40 << 10, 0);
	run("20200101-000000-1-00003", false, 40 << 10, 0);
	mcp_history_prune_by(&p, time(NULL));
	assert_true(kept("20200101-000000-1-00001"));
	assert_false(kept("20200101-000000-1-00002"));
	assert_true(kept("20200101-000000-1-00003"));
}

static void test_the_newest_run_stays_whatever_its_size(void **state)
{
	const struct mcp_history_policy p = { 0, 0, 0, 0, 1 };

	(void)state;
	fresh_root();
	run("20200101-000000-1-00001", false, 8 << 10, DAY);
	run("20200101-000000-1-00002", false, 8 << 10, DAY);
	mcp_history_prune_by(&p, time(NULL));
	assert_false(kept("20200101-000000-1-00001"));
	assert_true(kept("20200101-000000-1-00002"));
}

static void test_only_run_dirs_are_removed_and_links_in_them_not_followed(void **state)
{
	const struct mcp_history_policy p = { 0, 30, 0, 90, 1ull << 40 };
	char path[300], target[300];
	FILE *f;

	(void)state;
	fresh_root();
	snprintf(target, sizeof target, "%s/precious", dir);
	assert_non_null(f = fopen(target, "w"));
	fputs("mine\n", f);
	fclose(f);
	run("20200101-000000-1-00001", false, 0, 0);
	snprintf(path, sizeof path, "%s/20200101-000000-1-00001/link", runs);
	assert_int_equal(symlink(target, path), 0);
	run("2020-not-a-run", false, 0, 0);
	run("notes", false, 0, 0);
	run("20200101-000000-1-00002", false, 0, 0);
	mcp_history_prune_by(&p, time(NULL));
	assert_false(kept("20200101-000000-1-00001"));
	assert_true(kept("20200101-000000-1-00002"));
	assert_true(kept("2020-not-a-run"));
	assert_true(kept("notes"));
	assert_int_equal(access(target, F_OK), 0);
}

static void test_a_link_or_another_users_dir_is_refused_with_why(void **state)
{
	char link[300], err[1500];

	(void)state;
	mcp_history_close();
	snprintf(link, sizeof link, "%s/link", dir);
	mkdir(runs, 0700);
	assert_int_equal(symlink(runs, link), 0);
	assert_int_equal(mcp_history_open_at(link, err, sizeof err), -1);
	assert_non_null(strstr(err, "is a symbolic link"));
	assert_int_equal(keptdirs_open(link, err, sizeof err), -1);
	if (geteuid() == 0) {
		assert_int_equal(chown(runs, 65534, 65534), 0);
		assert_int_equal(mcp_history_open_at(runs, err, sizeof err), -1);
		assert_non_null(strstr(err, "belongs to uid 65534"));
		assert_int_equal(chown(runs, 0, 0), 0);
	}
	assert_int_equal(mcp_history_open_at(runs, err, sizeof err), 0);
}

static void test_input_files_are_kept_within_the_cap_and_said_when_over(void **state)
{
	struct request rq;
	struct mcp_run_entry e;
	char run_dir[1100], kept_path[1300], **paths, *detail, *pic;
	size_t not_kept, n;

	(void)state;
	fresh_root();
	/* the request holds its files' bytes (request.c), as the server
	 * hands them over */
	char *bigdata = calloc(1, MCP_HISTORY_IN_BYTES + 1);
	assert_non_null(bigdata);
	memset(&rq, 0, sizeof rq);
	rq.files[0] = (struct sp_file_bytes){ "big.bin", bigdata, MCP_HISTORY_IN_BYTES + 1 };
	rq.files[1] = (struct sp_file_bytes){ "a.csv", "a,b\n", 4 };
	rq.n_files = 2;
	assert_int_equal(mcp_history_new(1, run_dir, sizeof run_dir), 0);
	mcp_history_save(run_dir, "print(1)\n", 9, "{\"status\": \"ok\"}", 0);
	mcp_history_save_request(run_dir, &rq);
	snprintf(kept_path, sizeof kept_path, "%s/in/a.csv", run_dir);
	assert_int_equal(access(kept_path, F_OK), 0);
	snprintf(kept_path, sizeof kept_path, "%s/in/big.bin", run_dir);
	assert_int_equal(access(kept_path, F_OK), -1);

	memset(&e, 0, sizeof e);
	snprintf(e.dir, sizeof e.dir, "%s", run_dir);
	n = mcp_runs_inputs(&e, &paths, &not_kept);
	assert_int_equal(n, 1);
	assert_int_equal(not_kept, 1);
	assert_non_null(strstr(paths[0], "/in/a.csv"));
	free(paths[0]);
	free(paths);
	detail = mcp_runs_detail(&e, &pic);
	assert_non_null(detail);
	assert_non_null(strstr(detail, "big.bin  16 MiB, not kept: over the history's cap of 16 MiB"));
	assert_non_null(strstr(detail, "a.csv  4 B, kept (e attaches it)"));
	free(detail);
	free(bigdata);
}

static void test_a_byte_that_is_not_utf8_does_not_hide_a_run(void **state)
{
	struct mcp_run_entry *v, e;
	char run_dir[1100], why[600], *detail, *pic;
	size_t n;

	(void)state;
	fresh_root();
	assert_int_equal(mcp_history_new(1, run_dir, sizeof run_dir), 0);
	/* --json's text for output b"bad \xff byte": the byte as \udcff */
	mcp_history_save(run_dir, "print(1)\n", 9,
			 "{\"status\": \"ok\", \"stdout\": \"bad \\udcff byte\\n\", "
			 "\"violations\": []}", 0);
	n = mcp_runs_list(runs, &v, why, sizeof why);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].status, "ok");
	e = v[0];
	free(v);
	detail = mcp_runs_detail(&e, &pic);
	assert_non_null(detail);
	assert_non_null(strstr(detail, "bad \xef\xbf\xbd byte"));
	free(detail);
}

static void test_run_dir_names_are_sandpits_own(void **state)
{
	(void)state;
	assert_true(keptdirs_name_ours("20261201-211502-123-00007"));
	assert_true(keptdirs_name_ours("20261201-211502-1-1"));
	assert_false(keptdirs_name_ours("20261201-211502-123"));
	assert_false(keptdirs_name_ours("20261201-211502-123-7x"));
	assert_false(keptdirs_name_ours("2026120-211502-1-1"));
	assert_false(keptdirs_name_ours(".."));
	assert_false(keptdirs_name_ours("notes.txt"));
	assert_false(keptdirs_name_ours(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs_go_by_age_and_those_with_violations_stay_longer),
		cmocka_unit_test(test_a_violation_run_outlives_the_count_of_trivial_ones),
		cmocka_unit_test(test_over_the_bytes_the_oldest_trivial_runs_go_first),
		cmocka_unit_test(test_the_newest_run_stays_whatever_its_size),
		cmocka_unit_test(test_only_run_dirs_are_removed_and_links_in_them_not_followed),
		cmocka_unit_test(test_a_link_or_another_users_dir_is_refused_with_why),
		cmocka_unit_test(test_input_files_are_kept_within_the_cap_and_said_when_over),
		cmocka_unit_test(test_a_byte_that_is_not_utf8_does_not_hide_a_run),
		cmocka_unit_test(test_run_dir_names_are_sandpits_own),
	};
	return cmocka_run_group_tests_name("mcp_history", tests, setup, teardown);
}
