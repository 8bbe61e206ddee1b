/* SPDX-License-Identifier: MIT */
/*
 * test_options.c - the one option table (tui/cmd/options.c) that the
 * command line and the config file share: every limit has its row under
 * its own name, names are unique, a flag and a config key set the same
 * value through the same parser, and the usage text and the unknown-key
 * message are made from the table.
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "cmd/options.h"

static void test_every_limit_has_its_row_and_names_are_unique(void **state)
{
	(void)state;
	for (int l = 0; l < LIM_COUNT; l++) {
		int id = option_find(limit_fields[l].key, OPT_RUN | OPT_PLAY | OPT_CONFIG);
		if (id < 0)
			fail_msg("limit %s has no option row", limit_fields[l].key);
		assert_int_equal(options[id].kind, OPT_LIMIT);
		assert_int_equal(options[id].limit, l);
		assert_int_equal(options[id].where, OPT_RUN | OPT_PLAY | OPT_CONFIG);
	}
	for (int i = 0; i < OPT_N; i++) {
		assert_non_null(options[i].name);
		assert_true(options[i].where != 0);
		if (options[i].kind == OPT_LIMIT)
			assert_string_equal(options[i].name, limit_fields[options[i].limit].key);
		for (int j = i + 1; j < OPT_N; j++)
			if (!strcmp(options[i].name, options[j].name))
				fail_msg("option %s twice", options[i].name);
	}
}

/* --memory 300M and `memory = 300M` in the file: the same value; a bad
 * one refused by both with the same words. */
static void test_a_flag_and_a_config_key_parse_alike(void **state)
{
	char path[] = "/tmp/sandpit-options-XXXXXX", err[256];
	struct pg_config from_flag, from_file;
	char *argv_flag[] = { "sandpit", "--config", path, "--memory", "300M",
			      "--keep_runs", "3", NULL };
	char *argv_file[] = { "sandpit", "--config", path, NULL };
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	(void)state;
	assert_non_null(f);
	fputs("memory = 300M\nkeep_runs = 3\nkeep_bytes = lots\ncolour = red\n"
	      "[preset p]\nnope = 1\n", f);
	fclose(f);
	/* keep_runs is a config key only: as a flag it is unknown */
	assert_int_equal(config_load(&from_flag, 7, argv_flag, err, sizeof err), -1);
	assert_non_null(strstr(err, "unknown option '--keep_runs'"));
	assert_int_equal(config_load(&from_flag, 5, argv_flag, err, sizeof err), 0);
	assert_int_equal(config_load(&from_file, 3, argv_file, err, sizeof err), 0);
	assert_int_equal(from_flag.limits.memory_bytes, 300ull << 20);
	assert_int_equal(from_file.limits.memory_bytes, 300ull << 20);
	assert_int_equal(from_file.keep_runs, 3);
	assert_non_null(strstr(from_file.error, "bad size 'lots'"));
	/* the known keys are the table's */
	assert_non_null(strstr(from_file.error, "unknown key 'colour' (known: cpu, wall, memory, "
			       "output, disk, procs, python, theme, mouse, keep_runs, keep_bytes, prewarm, preload, "
			  "graphics)"));
	/* and a preset's, the limits' */
	assert_non_null(strstr(from_file.error, "unknown key 'nope' in a preset (known: cpu, wall, "
			       "memory, procs, output, disk)"));
	{
		char *bad[] = { "sandpit", "--config", path, "--memory", "8M", NULL };
		assert_int_equal(config_load(&from_flag, 5, bad, err, sizeof err), -1);
		assert_string_equal(err, "--memory: '8M' is too small: give at least 16M");
	}
	unlink(path);
}

static void test_the_usage_lines_come_from_the_table(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct sp_limits d;

	(void)state;
	sp_limits_default(&d);
	option_print_help(f, OPT_RUN, &d);
	option_print_playground(f);
	fclose(f);
	for (int i = 0; i < OPT_N; i++) {
		char flag[64];
		if (!options[i].help && !(options[i].where & OPT_PLAY))
			continue;
		if (!(options[i].where & (OPT_RUN | OPT_PLAY)))
			continue;
		snprintf(flag, sizeof flag, "--%s", options[i].name);
		if (!strstr(text, flag))
			fail_msg("%s is missing from the usage:\n%s", flag, text);
	}
	assert_non_null(strstr(text, "  --memory SIZE      memory of the whole tree ["));
	assert_non_null(strstr(text, "playground options: --cpu --wall"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_limit_has_its_row_and_names_are_unique),
		cmocka_unit_test(test_a_flag_and_a_config_key_parse_alike),
		cmocka_unit_test(test_the_usage_lines_come_from_the_table),
	};
	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
