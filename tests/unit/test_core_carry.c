/* SPDX-License-Identifier: MIT */
/*
 * test_core_carry.c - validating a carry-in buffer and merging a run's
 * carry_out into it (the F2 key), without a sandbox.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "sandpit.h"

static int validate(const char *text, uint64_t max, struct sp_error *err)
{
	memset(err, 0, sizeof *err);
	return sp_carry_validate(text, strlen(text), max, err);
}

static void test_valid_buffers(void **state)
{
	static const char *const ok[] = {
		"{}", "{\"total\": 3}", " { \"a\" : [1, 2, {\"b\": null}] } ",
		"{\"_private\": true, \"x1\": 1.5e3, \"CamelCase\": \"s\"}",
		"{\"caf\xc3\xa9\": 1, \"\xe6\x95\xb0\xe6\x8d\xae\": 2, \"\xce\xbb\": 3}",
		"{\"len\": 1, \"print\": 2, \"carry\": 3}",
		"{\"_\": 0, \"__x\": 1, \"x__\": 2}",
	};
	struct sp_error err;

	(void)state;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
		if (validate(ok[i], 1 << 20, &err) != 0)
			fail_msg("refused %s: %s", ok[i], err.msg);
}

static void test_invalid_buffers_say_why(void **state)
{
	static const struct { const char *text, *says; } bad[] = {
		{ "", "JSON" },
		{ "{", "JSON" },
		{ "{\"a\": 1,}", "JSON" },
		{ "[1, 2]", "object" },
		{ "{\"a\": 1, \"a\": 2}", "JSON" },
		{ "{\"not an id\": 1}", "not an id" },
		{ "{\"1x\": 1}", "identifier" },
		{ "{\"a-b\": 1}", "identifier" },
		{ "{\"class\": 1}", "keyword" },
		{ "{\"None\": 1}", "keyword" },
		{ "{\"__builtins__\": 1}", "__builtins__" },
		{ "{\"\": 1}", "empty" },
		{ "{\"a\\u0000b\": 1}", "" },
	};
	struct sp_error err;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (validate(bad[i].text, 1 << 20, &err) == 0)
			fail_msg("accepted %s", bad[i].text);
		if (!err.msg[0] || !strstr(err.msg, bad[i].says))
			fail_msg("%s: message '%s' does not say '%s'", bad[i].text, err.msg, bad[i].says);
	}
}

static void test_size_cap(void **state)
{
	struct sp_error err;
	const char *text = "{\"total\": 123456}";

	(void)state;
	assert_int_equal(validate(text, strlen(text), &err), 0);
	assert_int_equal(validate(text, strlen(text) - 1, &err), -1);
	assert_non_null(strstr(err.msg, "limit"));
}

static void test_merge_adds_and_replaces_and_names_the_changes(void **state)
{
	struct sp_error err = { "" };
	char **changed = NULL;
	char *merged;
	json_t *got, *want;
	size_t n = 0;
	bool has_b = false, has_c = false, has_a = false;

	(void)state;
	merged = sp_carry_merge("{\"a\": 1, \"b\": 2, \"keep\": [1]}",
				"{\"b\": 3, \"c\": {\"d\": true}, \"a\": 1}", &changed, &err);
	assert_non_null(merged);
	got = json_loads(merged, 0, NULL);
	want = json_loads("{\"a\": 1, \"b\": 3, \"keep\": [1], \"c\": {\"d\": true}}", 0, NULL);
	assert_true(json_equal(got, want));
	assert_non_null(changed);
	for (; changed[n]; n++) {
		has_a |= strcmp(changed[n], "a") == 0;
		has_b |= strcmp(changed[n], "b") == 0;
		has_c |= strcmp(changed[n], "c") == 0;
		free(changed[n]);
	}
	free(changed);
	/* "a" came back equal: not a change */
	assert_int_equal(n, 2);
	assert_true(has_b && has_c && !has_a);
	json_decref(got);
	json_decref(want);
	free(merged);
}

static void test_merge_into_empty_and_from_nothing(void **state)
{
	struct sp_error err = { "" };
	char *merged;
	json_t *got, *want;

	(void)state;
	merged = sp_carry_merge("", "{\"x\": 1}", NULL, &err);
	assert_non_null(merged);
	got = json_loads(merged, 0, NULL);
	want = json_loads("{\"x\": 1}", 0, NULL);
	assert_true(json_equal(got, want));
	json_decref(got);
	json_decref(want);
	free(merged);

	merged = sp_carry_merge("{\"x\": 1}", NULL, NULL, &err);
	assert_non_null(merged);
	got = json_loads(merged, 0, NULL);
	want = json_loads("{\"x\": 1}", 0, NULL);
	assert_true(json_equal(got, want));
	json_decref(got);
	json_decref(want);
	free(merged);
}

static void test_merge_refuses_broken_input(void **state)
{
	struct sp_error err = { "" };
	char **changed = (char **)1;

	(void)state;
	assert_null(sp_carry_merge("{broken", "{\"x\": 1}", &changed, &err));
	assert_null(changed);
	assert_true(err.msg[0] != '\0');
	memset(&err, 0, sizeof err);
	assert_null(sp_carry_merge("{}", "[1]", NULL, &err));
	assert_true(err.msg[0] != '\0');
	memset(&err, 0, sizeof err);
	assert_null(sp_carry_merge("[]", "{}", NULL, &err));
	assert_true(err.msg[0] != '\0');
}

/* A float is written in the fewest digits that read back to the same
 * double (534039.6, not jansson's 534039.59999999998), in the same
 * layout json_dumps gives the rest. */
static void test_merged_floats_are_shortest_and_read_back_exactly(void **state)
{
	struct sp_error err;
	char *merged, out[96];
	json_t *j;

	(void)state;
	memset(&err, 0, sizeof err);
	merged = sp_carry_merge("{\"n\": [1, {\"s\": \"x\"}], \"e\": {}, \"l\": []}",
				"{\"mean\": 534039.6, \"third\": 0.3333333333333333, "
				"\"big\": 1e22, \"small\": 1e-05, \"whole\": 100.0, "
				"\"neg\": -0.0}", NULL, &err);
	assert_non_null(merged);
	assert_string_equal(merged,
		"{\n  \"n\": [\n    1,\n    {\n      \"s\": \"x\"\n    }\n  ],\n"
		"  \"e\": {},\n  \"l\": [],\n  \"mean\": 534039.6,\n"
		"  \"third\": 0.3333333333333333,\n  \"big\": 1e22,\n"
		"  \"small\": 1e-5,\n  \"whole\": 100.0,\n  \"neg\": -0.0\n}");
	free(merged);

	srand(29);
	for (int i = 0; i < 10000; i++) {
		union { uint64_t u; double d; } bits;
		double back;

		do {
			bits.u = (uint64_t)rand() << 62 ^ (uint64_t)rand() << 31 ^ (uint64_t)rand();
		} while (bits.d - bits.d != 0.0); /* NaN and the infinities are not JSON */
		if (i % 2)
			bits.d = (double)rand() / 997.0; /* numbers of everyday size too */
		snprintf(out, sizeof out, "{\"v\": %.17g}", bits.d);
		merged = sp_carry_merge("{}", out, NULL, &err);
		if (!merged)
			fail_msg("%s: %s", out, err.msg);
		j = json_loads(merged, 0, NULL);
		assert_non_null(j);
		back = json_number_value(json_object_get(j, "v"));
		if (memcmp(&back, &bits.d, sizeof back) != 0)
			fail_msg("%.17g came back as %.17g (%s)", bits.d, back, merged);
		json_decref(j);
		free(merged);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_buffers),
		cmocka_unit_test(test_invalid_buffers_say_why),
		cmocka_unit_test(test_size_cap),
		cmocka_unit_test(test_merge_adds_and_replaces_and_names_the_changes),
		cmocka_unit_test(test_merge_into_empty_and_from_nothing),
		cmocka_unit_test(test_merge_refuses_broken_input),
		cmocka_unit_test(test_merged_floats_are_shortest_and_read_back_exactly),
	};

	return cmocka_run_group_tests_name("unit/core_carry", tests, NULL, NULL);
}
