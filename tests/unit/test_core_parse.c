/* SPDX-License-Identifier: MIT */
/*
 * test_core_parse.c - the size and duration parsers behind --memory,
 * --output, --disk, --carry-max, --cpu and --wall.
 */
#include "testlib.h"

#include <string.h>

#include "sandpit.h"

static void test_sizes_with_suffixes(void **state)
{
	static const struct { const char *in; uint64_t want; } ok[] = {
		{ "0", 0 }, { "100", 100 }, { "100b", 100 }, { "100B", 100 },
		{ "64k", 64ull << 10 }, { "64K", 64ull << 10 }, { "64KiB", 64ull << 10 },
		{ "512M", 512ull << 20 }, { "512MB", 512ull << 20 }, { "512mib", 512ull << 20 },
		{ "1G", 1ull << 30 }, { "2g", 2ull << 30 }, { "1.5M", 3ull << 19 },
		{ "0.5K", 512 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		uint64_t v = 12345;
		if (sp_parse_size(ok[i].in, &v) != 0)
			fail_msg("'%s' was refused", ok[i].in);
		if (v != ok[i].want)
			fail_msg("'%s' gave %llu, want %llu", ok[i].in,
				 (unsigned long long)v, (unsigned long long)ok[i].want);
	}
}

static void test_bad_sizes_are_refused_and_leave_out_alone(void **state)
{
	static const char *const bad[] = {
		"", " 1M", "-1", "-5M", "M", "12Q", "1T", "1MM", "1 M", "1M ", "lots",
		"nan", "inf", "1e30", "99999999999G", "1KB5",
	};
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		uint64_t v = 777;
		if (sp_parse_size(bad[i], &v) == 0)
			fail_msg("'%s' was accepted as %llu", bad[i], (unsigned long long)v);
		assert_int_equal(v, 777);
	}
	assert_int_equal(sp_parse_size(NULL, &(uint64_t){ 0 }), -1);
}

static void test_seconds_and_milliseconds(void **state)
{
	static const struct { const char *in; uint64_t want; } ok[] = {
		{ "2", 2000 }, { "0.5", 500 }, { "1.5s", 1500 }, { "250ms", 250 },
		{ "0.001", 1 }, { "10", 10000 }, { "0", 0 }, { "3600", 3600000 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		uint64_t v = 12345;
		if (sp_parse_seconds(ok[i].in, &v) != 0)
			fail_msg("'%s' was refused", ok[i].in);
		if (v != ok[i].want)
			fail_msg("'%s' gave %llu ms, want %llu", ok[i].in,
				 (unsigned long long)v, (unsigned long long)ok[i].want);
	}
}

static void test_bad_seconds_are_refused(void **state)
{
	static const char *const bad[] = {
		"", "abc", "-1", "1m", "1h", "5 s", " 5", "1.5x", "inf", "nan", "1e12", "ms",
	};
	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		uint64_t v = 777;
		if (sp_parse_seconds(bad[i], &v) == 0)
			fail_msg("'%s' was accepted as %llu ms", bad[i], (unsigned long long)v);
		assert_int_equal(v, 777);
	}
}

static void test_defaults_are_moderate(void **state)
{
	struct sp_limits l;

	(void)state;
	memset(&l, 0xff, sizeof l);
	sp_limits_default(&l);
	assert_true(l.cpu_ms > 0 && l.cpu_ms <= 60000);
	assert_true(l.wall_ms >= l.cpu_ms);
	assert_true(l.memory_bytes >= (64ull << 20));
	assert_true(l.output_bytes > 0);
	assert_true(l.disk_bytes > 0);
	assert_int_equal(l.carry_bytes, 1ull << 20);
	assert_true(l.procs >= 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_with_suffixes),
		cmocka_unit_test(test_bad_sizes_are_refused_and_leave_out_alone),
		cmocka_unit_test(test_seconds_and_milliseconds),
		cmocka_unit_test(test_bad_seconds_are_refused),
		cmocka_unit_test(test_defaults_are_moderate),
	};

	return cmocka_run_group_tests_name("unit/core_parse", tests, NULL, NULL);
}
