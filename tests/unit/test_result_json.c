/* SPDX-License-Identifier: MIT */
/*
 * test_result_json.c - the services' forms of the engine's JSON result
 * (tui/service/result_json.c): a --batch line is `sandpit run --json`'s
 * text on one line, every string's bytes as there (white space, quotes,
 * backslashes, the escapes of bytes that are not UTF-8); the jansson value
 * an MCP message holds takes such a byte as U+FFFD instead of failing.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "service/result_json.h"

static const char tricky[] = "a  \"b\" \\udc80 {c: [1, 2]}\n\ttab\xff\xfe";

static struct sp_result result_with_output(struct sp_limits *lim)
{
	struct sp_result r;

	memset(&r, 0, sizeof r);
	sp_limits_default(lim);
	r.status = SP_STATUS_OK;
	r.limits = *lim;
	r.out = (char *)tricky;
	r.out_len = sizeof tricky - 1;
	return r;
}

static void test_a_batch_line_is_the_json_text_on_one_line(void **state)
{
	struct sp_limits lim;
	struct sp_result r = result_with_output(&lim);
	char *full = sp_result_to_json(&r), *line = result_json_line(&r, NULL, &lim);
	json_t *a, *b;

	(void)state;
	assert_non_null(full);
	assert_non_null(line);
	assert_null(strchr(line, '\n'));
	/* the program's bytes, escapes and all, as --json writes them */
	assert_non_null(strstr(line, "\"a  \\\"b\\\" \\\\udc80 {c: [1, 2]}\\n\\ttab\\udcff\\udcfe\""));
	assert_non_null(strstr(full, "\"a  \\\"b\\\" \\\\udc80 {c: [1, 2]}\\n\\ttab\\udcff\\udcfe\""));
	/* and the same object: with the lone surrogates out of both, jansson
	 * reads them alike */
	for (char *p; (p = strstr(full, "\\udcf")) != NULL;)
		memcpy(p + 1, "u0041", 5);
	for (char *p; (p = strstr(line, "\\udcf")) != NULL;)
		memcpy(p + 1, "u0041", 5);
	a = json_loads(full, 0, NULL);
	b = json_loads(line, 0, NULL);
	assert_non_null(a);
	assert_non_null(b);
	assert_true(json_equal(a, b));
	json_decref(a);
	json_decref(b);
	free(full);
	free(line);
}

static void test_the_value_takes_a_byte_that_is_not_utf8_as_fffd(void **state)
{
	struct sp_limits lim;
	struct sp_result r = result_with_output(&lim);
	json_t *o = result_json(&r, NULL, &lim);

	(void)state;
	assert_non_null(o);
	/* the escaped backslash before "udc80" is the program's text, kept */
	assert_string_equal(json_string_value(json_object_get(o, "stdout")),
			    "a  \"b\" \\udc80 {c: [1, 2]}\n\ttab\xef\xbf\xbd\xef\xbf\xbd");
	json_decref(o);
	o = result_json(NULL, "the pool is closed", &lim);
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "status")), "sandbox_error");
	json_decref(o);
}

static void test_the_value_keeps_a_nul_byte(void **state)
{
	struct sp_limits lim;
	struct sp_result r = result_with_output(&lim);
	json_t *o;

	(void)state;
	r.out = "a\0b\n";
	r.out_len = 4;
	o = result_json(&r, NULL, &lim);
	/* NULL here lost the whole MCP result (no structuredContent) */
	assert_non_null(o);
	assert_int_equal(json_string_length(json_object_get(o, "stdout")), 4);
	assert_memory_equal(json_string_value(json_object_get(o, "stdout")), "a\0b\n", 4);
	json_decref(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_batch_line_is_the_json_text_on_one_line),
		cmocka_unit_test(test_the_value_takes_a_byte_that_is_not_utf8_as_fffd),
		cmocka_unit_test(test_the_value_keeps_a_nul_byte),
	};
	return cmocka_run_group_tests_name("result_json", tests, NULL, NULL);
}
