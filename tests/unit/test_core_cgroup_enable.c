/* SPDX-License-Identifier: MIT */
/*
 * test_core_cgroup_enable.c - the controllers a cgroup v2 directory hands
 * its children (core/cgroup_enable.c), against a fake cgroupfs: a temp
 * dir with cgroup.controllers and cgroup.subtree_control, whose writes
 * behave as the kernel's (a "+name" adds the name) unless the test makes
 * them fail with the errno the kernel gives for that case. Each partial
 * delegation must give the controllers that remain and say why the others
 * are missing.
 */
#include "testlib.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sandbox.h"

static char dir[64];
static char writes[256];        /* every write, "+a|+b|" */
static const char *fail_word;   /* a write of this fails, or NULL: all do */
static int fail_errno;          /* 0: no write fails */

static void put(const char *file, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The kernel's subtree_control, as far as these tests need it. */
static int fake_write(const char *path, const char *text)
{
	char old[256] = "", *name = strrchr(path, '/');
	FILE *f;

	strncat(writes, text, sizeof writes - strlen(writes) - 2);
	strcat(writes, "|");
	if (fail_errno && (!fail_word || strcmp(text, fail_word) == 0)) {
		errno = fail_errno;
		return -1;
	}
	assert_string_equal(name, "/cgroup.subtree_control");
	assert_int_equal(text[0], '+');
	f = fopen(path, "r");
	if (f) {
		if (!fgets(old, sizeof old, f))
			old[0] = '\0';
		fclose(f);
	}
	old[strcspn(old, "\n")] = '\0';
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "%s%s%s\n", old, old[0] ? " " : "", text + 1);
	fclose(f);
	return 0;
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/sp-fakecg.XXXXXX");
	assert_non_null(mkdtemp(dir));
	writes[0] = '\0';
	fail_word = NULL;
	fail_errno = 0;
	put("cgroup.controllers", "cpuset cpu io memory pids\n");
	put("cgroup.subtree_control", "");
	return 0;
}

static int teardown(void **state)
{
	char path[128];

	(void)state;
	snprintf(path, sizeof path, "%s/cgroup.controllers", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/cgroup.subtree_control", dir);
	unlink(path);
	rmdir(dir);
	return 0;
}

static void test_a_full_delegation_gives_all_three_one_write_each(void **state)
{
	char why[256];
	unsigned got;

	(void)state;
	got = sp_cgroup_enable(dir, SP_CG_ALL, fake_write, why, sizeof why);
	assert_int_equal(got, SP_CG_ALL);
	assert_string_equal(why, "");
	/* never the all-or-nothing "+memory +pids +cpu" */
	assert_string_equal(writes, "+memory|+pids|+cpu|");
	assert_int_equal(sp_cgroup_list_bits(dir, "cgroup.subtree_control", NULL), SP_CG_ALL);
}

static void test_cpu_not_delegated_costs_cpu_alone(void **state)
{
	char why[256], names[32];
	unsigned got;

	(void)state;
	put("cgroup.controllers", "memory pids\n");
	got = sp_cgroup_enable(dir, SP_CG_ALL, fake_write, why, sizeof why);
	assert_int_equal(got, SP_CG_MEMORY | SP_CG_PIDS);
	assert_string_equal(why, "cpu: not delegated (the parent cgroup does not give it)");
	assert_string_equal(writes, "+memory|+pids|");
	sp_cgroup_bits_text(got, names, sizeof names);
	assert_string_equal(names, "memory pids");
}

static void test_a_cgroup_with_processes_of_its_own_gets_none_and_says_so(void **state)
{
	char why[512];
	unsigned got;

	(void)state;
	fail_errno = EBUSY;
	got = sp_cgroup_enable(dir, SP_CG_ALL, fake_write, why, sizeof why);
	assert_int_equal(got, 0);
	assert_non_null(strstr(why, "memory: refused: the cgroup holds processes of its own"));
	assert_non_null(strstr(why, "; pids: refused: the cgroup holds processes"));
	assert_non_null(strstr(why, "; cpu: refused: the cgroup holds processes"));
}

static void test_a_refused_cpu_keeps_memory_and_pids(void **state)
{
	char why[256];
	unsigned got;

	(void)state;
	fail_word = "+cpu";
	fail_errno = EINVAL;
	got = sp_cgroup_enable(dir, SP_CG_ALL, fake_write, why, sizeof why);
	assert_int_equal(got, SP_CG_MEMORY | SP_CG_PIDS);
	assert_string_equal(why, "cpu: refused (EINVAL; for cpu: a real-time thread in the cgroup)");
}

static void test_a_file_not_ours_is_named_not_delegated(void **state)
{
	char why[512];

	(void)state;
	fail_errno = EACCES;
	assert_int_equal(sp_cgroup_enable(dir, SP_CG_MEMORY, fake_write, why, sizeof why), 0);
	assert_string_equal(why, "memory: refused: cgroup.subtree_control is not this user's "
			    "(not delegated)");
	assert_string_equal(writes, "+memory|");
}

static void test_controllers_already_enabled_need_no_write(void **state)
{
	char why[256];

	(void)state;
	put("cgroup.subtree_control", "memory pids cpu\n");
	fail_errno = EBUSY; /* a write now would fail: none may be made */
	assert_int_equal(sp_cgroup_enable(dir, SP_CG_ALL, fake_write, why, sizeof why), SP_CG_ALL);
	assert_string_equal(why, "");
	assert_string_equal(writes, "");
}

static void test_an_unreadable_cgroup_gives_none_and_names_the_file(void **state)
{
	char why[256], path[128];

	(void)state;
	snprintf(path, sizeof path, "%s/cgroup.controllers", dir);
	unlink(path);
	assert_int_equal(sp_cgroup_enable(dir, SP_CG_ALL, fake_write, why, sizeof why), 0);
	assert_non_null(strstr(why, "cannot read "));
	assert_non_null(strstr(why, "/cgroup.controllers"));
	assert_string_equal(writes, "");
}

static void test_a_short_reason_buffer_stays_terminated(void **state)
{
	char why[24];

	(void)state;
	fail_errno = EBUSY;
	assert_int_equal(sp_cgroup_enable(dir, SP_CG_ALL, fake_write, why, sizeof why), 0);
	assert_int_equal(strlen(why), sizeof why - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_a_full_delegation_gives_all_three_one_write_each, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_not_delegated_costs_cpu_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_cgroup_with_processes_of_its_own_gets_none_and_says_so, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_refused_cpu_keeps_memory_and_pids, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_file_not_ours_is_named_not_delegated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_controllers_already_enabled_need_no_write, setup, teardown),
		cmocka_unit_test_setup_teardown(test_an_unreadable_cgroup_gives_none_and_names_the_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_short_reason_buffer_stays_terminated, setup, teardown),
	};
	return cmocka_run_group_tests_name("core cgroup_enable", tests, NULL, NULL);
}
