/* SPDX-License-Identifier: MIT */
/*
 * test_core_config_abi.c - a caller's struct sp_config of another
 * sandpit.h: shorter (older) is read with the tail as zero, longer
 * (newer) only when what this library does not know is zero, and an
 * uninitialized one (size 0) is refused before anything runs.
 */
#include <string.h>

#include "testlib.h"
#include "base.h"

static void a_config_from_sp_config_init_is_taken_as_it_is(void **state)
{
	struct sp_config in, out;
	struct sp_error err = { { 0 } };

	(void)state;
	sp_config_init(&in);
	assert_int_equal(in.size, sizeof in);
	in.code = "print(1)";
	in.code_len = 8;
	assert_int_equal(sp_config_take(&in, &out, &err), 0);
	assert_ptr_equal(out.code, in.code);
	assert_int_equal(out.limits.cpu_ms, in.limits.cpu_ms);
	assert_int_equal(out.size, sizeof out);
}

static void a_config_never_initialized_is_refused_with_the_way_out(void **state)
{
	struct sp_config in, out;
	struct sp_error err = { { 0 } };
	struct sp_run *run = (struct sp_run *)&err;

	(void)state;
	memset(&in, 0, sizeof in);
	sp_limits_default(&in.limits);
	in.code = "print(1)";
	in.code_len = 8;
	assert_int_equal(sp_config_take(&in, &out, &err), -1);
	assert_non_null(strstr(err.msg, "sp_config_init()"));
	/* and the public entries refuse it before starting anything */
	err.msg[0] = '\0';
	assert_int_equal(sp_run_start(&in, &run, &err), -1);
	assert_null(run);
	assert_non_null(strstr(err.msg, "sp_config_init()"));
	err.msg[0] = '\0';
	assert_int_equal(sp_files_in_check(&in, &err), -1);
	assert_non_null(strstr(err.msg, "sp_config_init()"));
}

static void an_older_shorter_config_reads_its_missing_tail_as_zero(void **state)
{
	struct sp_config in, out;
	struct sp_error err = { { 0 } };

	(void)state;
	sp_config_init(&in);
	in.keep_dir = "kept";
	/* an older caller's struct ends with keep_dir (the 0.1.0 layout) */
	in.size = offsetof(struct sp_config, keep_dir) + sizeof in.keep_dir;
	memset(&out, 0xa5, sizeof out);
	assert_int_equal(sp_config_take(&in, &out, &err), 0);
	assert_string_equal(out.keep_dir, "kept");
	for (size_t i = in.size; i < sizeof out; i++)
		assert_int_equal(((unsigned char *)&out)[i], 0);
	in.size = offsetof(struct sp_config, code);
	assert_int_equal(sp_config_take(&in, &out, &err), -1);
	assert_non_null(strstr(err.msg, "shorter"));
}

static void a_newer_longer_config_is_taken_only_when_its_new_fields_are_zero(void **state)
{
	struct { struct sp_config c; uint64_t newer[2]; } in;
	struct sp_config out;
	struct sp_error err = { { 0 } };

	(void)state;
	memset(&in, 0, sizeof in);
	sp_config_init(&in.c);
	in.c.size = sizeof in;
	assert_int_equal(sp_config_take(&in.c, &out, &err), 0);
	in.newer[1] = 1;  /* a request this library would silently ignore */
	assert_int_equal(sp_config_take(&in.c, &out, &err), -1);
	assert_non_null(strstr(err.msg, "newer"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_config_from_sp_config_init_is_taken_as_it_is),
		cmocka_unit_test(a_config_never_initialized_is_refused_with_the_way_out),
		cmocka_unit_test(an_older_shorter_config_reads_its_missing_tail_as_zero),
		cmocka_unit_test(a_newer_longer_config_is_taken_only_when_its_new_fields_are_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
