/* SPDX-License-Identifier: MIT */
/*
 * test_limit_fields.c - the one table of limits (tui/config/limit_fields.c) that
 * the command line, the config file and the F4 dialog share: values parse
 * and format back to themselves, floors refuse what a run cannot use with
 * a message saying what to give, and [preset NAME] sections of the config
 * file become presets.
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "config/config.h"
#include "config/limit_fields.h"

static void test_values_format_back_to_themselves(void **state)
{
	static const char *const texts[LIM_COUNT][3] = {
		[LIM_CPU] = { "2", "0.5", "250ms" },
		[LIM_WALL] = { "10", "1.5s", "3" },
		[LIM_MEMORY] = { "64M", "1G", "20000000" },
		[LIM_PROCS] = { "1", "64", "100000" },
		[LIM_OUTPUT] = { "1", "64K", "1M" },
		[LIM_DISK] = { "4K", "64M", "5000" },
	};

	(void)state;
	for (int id = 0; id < LIM_COUNT; id++)
		for (int k = 0; k < 3; k++) {
			struct sp_limits l, back;
			char err[256], text[64];
			sp_limits_default(&l);
			assert_int_equal(limit_parse(id, texts[id][k], &l, err, sizeof err), 0);
			limit_format(id, &l, text, sizeof text);
			sp_limits_default(&back);
			assert_int_equal(limit_parse(id, text, &back, err, sizeof err), 0);
			assert_int_equal(limit_get(&l, id), limit_get(&back, id));
		}
}

static void test_floors_refuse_with_what_to_give(void **state)
{
	static const struct { enum limit_id id; const char *text, *says; } bad[] = {
		{ LIM_MEMORY, "8M", "give at least 16M" },
		{ LIM_DISK, "100", "give at least 4K" },
		{ LIM_CPU, "0", "give at least" },
		{ LIM_WALL, "soon", "give seconds" },
		{ LIM_PROCS, "0", "give at least 1" },
		{ LIM_PROCS, "-3", "give a number from 1" },
		{ LIM_PROCS, "9999999", "give a number from 1" },
		{ LIM_OUTPUT, "0", "give at least 1 byte" },
		{ LIM_MEMORY, "0x100", "give bytes" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct sp_limits l, before;
		char err[256] = "";
		sp_limits_default(&l);
		before = l;
		assert_int_equal(limit_parse(bad[i].id, bad[i].text, &l, err, sizeof err), -1);
		if (!strstr(err, bad[i].says))
			fail_msg("'%s' for %s: message '%s' lacks '%s'", bad[i].text,
				 limit_fields[bad[i].id].key, err, bad[i].says);
		assert_memory_equal(&l, &before, sizeof l);
	}
}

/* The floors are the engine's (SP_MIN_*), and the text every message
 * shows for a floor reads back to exactly it: a floor is written once. */
static void test_floors_are_the_engines_and_their_text_reads_back(void **state)
{
	(void)state;
	assert_int_equal(limit_fields[LIM_MEMORY].floor, SP_MIN_MEMORY_BYTES);
	assert_int_equal(limit_fields[LIM_DISK].floor, SP_MIN_DISK_BYTES);
	for (int id = 0; id < LIM_COUNT; id++) {
		struct sp_limits l;
		char text[32], err[256], *unit;
		sp_limits_default(&l);
		limit_floor_text(id, text, sizeof text);
		if ((unit = strstr(text, " byte")))
			*unit = '\0';
		if (limit_parse(id, text, &l, err, sizeof err) < 0)
			fail_msg("%s: floor text '%s' refused: %s", limit_fields[id].key, text, err);
		assert_int_equal(limit_get(&l, id), limit_fields[id].floor);
	}
}

static void test_config_presets_and_the_same_floors(void **state)
{
	char path[] = "/tmp/sandpit-limits-XXXXXX";
	int fd = mkstemp(path);
	static const char text[] =
		"memory = 256M\n"
		"[preset demo]\n"
		"memory = 64M\n"
		"cpu = 1\n"
		"[preset big]\n"
		"wall = 60\n";
	char arg[64], err[256];
	char *argv[] = { "sandpit", "--config", arg, NULL };
	struct pg_config cfg;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
	close(fd);
	snprintf(arg, sizeof arg, "%s", path);
	assert_int_equal(config_load(&cfg, 3, argv, err, sizeof err), 0);
	assert_string_equal(cfg.error, "");
	assert_int_equal(cfg.limits.memory_bytes, 256u << 20);
	assert_int_equal(cfg.n_presets, 2);
	assert_string_equal(cfg.presets[0].name, "demo");
	assert_int_equal(cfg.presets[0].limits.memory_bytes, 64u << 20);
	assert_int_equal(cfg.presets[0].limits.cpu_ms, 1000);
	assert_int_equal(cfg.presets[0].limits.wall_ms, 10000); /* the default */
	assert_string_equal(cfg.presets[1].name, "big");
	assert_int_equal(cfg.presets[1].limits.wall_ms, 60000);

	/* a flag under the floor is refused with the table's words */
	{
		char *bad[] = { "sandpit", "--memory", "1M", NULL };
		assert_int_equal(config_load(&cfg, 3, bad, err, sizeof err), -1);
		assert_non_null(strstr(err, "give at least 16M"));
	}
	/* and so is a file's line, named by line */
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "[preset x]\nmemory = 2M\n", 23), 23);
	close(fd);
	assert_int_equal(config_load(&cfg, 3, argv, err, sizeof err), 0);
	assert_non_null(strstr(cfg.error, ":2: memory: '2M' is too small"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values_format_back_to_themselves),
		cmocka_unit_test(test_floors_refuse_with_what_to_give),
		cmocka_unit_test(test_floors_are_the_engines_and_their_text_reads_back),
		cmocka_unit_test(test_config_presets_and_the_same_floors),
	};

	return cmocka_run_group_tests_name("unit/limit_fields", tests, NULL, NULL);
}
