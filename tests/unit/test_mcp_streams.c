/* SPDX-License-Identifier: MIT */
/*
 * test_mcp_streams.c - a run's streams shared out among an MCP result's
 * parts (tui/service/mcp_streams.c): a cut never splits a character, the
 * JSON block holds what the text left out and nothing twice, a cut
 * stream says how and where it is whole, and JSON text for a terminal
 * host carries no control a terminal would obey.
 */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "service/mcp_streams.h"

static void test_a_head_or_a_tail_never_splits_a_character(void **state)
{
	const char s[] = "ab\xe2\x82\xac" "cd"; /* a b EURO c d: the euro is 3 bytes */

	(void)state;
	assert_int_equal(mcp_head_bytes(s, 7, 3), 2);
	assert_int_equal(mcp_head_bytes(s, 7, 5), 5);
	assert_int_equal(mcp_head_bytes(s, 7, 9), 7);
	assert_int_equal(mcp_tail_bytes(s, 7, 4), 2);
	assert_int_equal(mcp_tail_bytes(s, 7, 5), 5);
	/* bytes that are not UTF-8 are cut where asked */
	assert_int_equal(mcp_head_bytes("\x80\x80\x80\x80\x80", 5, 2), 2);
}

static void test_json_for_a_terminal_escapes_what_a_terminal_would_obey(void **state)
{
	/* ESC, CSI as U+009B, RIGHT-TO-LEFT OVERRIDE, DEL, U+110BD (a
	 * prepended mark past the BMP), and an e acute that stays itself */
	const char s[] = "\x1b[2J\xc2\x9b" "31m\xe2\x80\xae" "exe\x7f\xf0\x91\x82\xbd\xc3\xa9";
	json_t *v = json_pack("{s:s}", "stdout", s), *back;
	char *text = mcp_json_visible(v);

	(void)state;
	assert_non_null(text);
	assert_null(strchr(text, 0x1b));
	assert_null(strchr(text, 0x7f));
	assert_null(strstr(text, "\xc2\x9b"));
	assert_null(strstr(text, "\xe2\x80\xae"));
	assert_null(strstr(text, "\xf0\x91\x82\xbd"));
	assert_non_null(strstr(text, "\\u009B31m\\u202Eexe\\u007F\\uD804\\uDCBD\xc3\xa9"));
	back = json_loads(text, 0, NULL);
	assert_non_null(back);
	assert_true(json_equal(v, back));
	json_decref(back);
	json_decref(v);
	free(text);
}

static struct sp_result result_printing(char *out, size_t n, struct sp_limits *lim)
{
	struct sp_result r;

	memset(&r, 0, sizeof r);
	sp_limits_default(lim);
	r.status = SP_STATUS_OK;
	r.limits = *lim;
	r.out = out;
	r.out_len = n;
	return r;
}

static void test_the_json_block_holds_what_the_text_cut_once(void **state)
{
	struct sp_limits lim;
	char *out = malloc(40000);
	struct sp_result r;
	struct mcp_cut cut = { 16384, 0, 40000, 0 };
	json_t *obj, *blk;

	(void)state;
	memset(out, 'x', 40000);
	r = result_printing(out, 40000, &lim);
	obj = mcp_streams_object(&r, &cut, "sandpit://output/R/");
	blk = mcp_streams_block(obj, &r, &cut, false);
	assert_int_equal(json_string_length(json_object_get(obj, "stdout")), 40000);
	assert_null(json_object_get(obj, "stdout_cut"));
	assert_null(json_object_get(blk, "stdout"));
	assert_int_equal(json_string_length(json_object_get(blk, "stdout_rest")), 40000 - 16384);
	assert_null(json_object_get(blk, "stderr_rest"));
	json_decref(obj);
	json_decref(blk);

	/* over the budget: kept in part, saying how much and where it is */
	cut.out_kept = 20000;
	obj = mcp_streams_object(&r, &cut, "sandpit://output/R/");
	blk = mcp_streams_block(obj, &r, &cut, false);
	assert_int_equal(json_string_length(json_object_get(obj, "stdout")), 20000);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(obj, "stdout_cut"), "bytes")),
			 40000);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(obj, "stdout_cut"), "kept")),
			 20000);
	assert_string_equal(json_string_value(json_object_get(json_object_get(obj, "stdout_cut"), "uri")),
			    "sandpit://output/R/stdout");
	assert_int_equal(json_string_length(json_object_get(blk, "stdout_rest")), 20000 - 16384);
	json_decref(obj);
	json_decref(blk);
	free(out);
}

static void test_the_streams_fit_the_room_they_are_given(void **state)
{
	struct sp_limits lim;
	char *out = malloc(500000);
	struct sp_result r;
	struct mcp_cut cut = { 16384, 0, 0, 0 };
	json_t *obj = NULL;
	char *block = NULL;
	size_t cost;

	(void)state;
	memset(out, 'y', 500000);
	r = result_printing(out, 500000, &lim);
	cost = mcp_streams_fit(&r, 200000, 0, &cut, false, NULL, &obj, &block);
	assert_true(cost <= 200000);
	assert_true(cut.out_kept > 16384 && cut.out_kept < 200000);
	assert_int_equal(json_string_length(json_object_get(obj, "stdout")), cut.out_kept);
	json_decref(obj);
	free(block);
	obj = NULL;
	block = NULL;
	/* room for all of it: all of it */
	cost = mcp_streams_fit(&r, 4u << 20, 0, &cut, false, NULL, &obj, &block);
	assert_int_equal(cut.out_kept, 500000);
	assert_null(json_object_get(obj, "stdout_cut"));
	assert_non_null(strstr(block, "\"status\":\"ok\""));
	json_decref(obj);
	free(block);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_head_or_a_tail_never_splits_a_character),
		cmocka_unit_test(test_json_for_a_terminal_escapes_what_a_terminal_would_obey),
		cmocka_unit_test(test_the_json_block_holds_what_the_text_cut_once),
		cmocka_unit_test(test_the_streams_fit_the_room_they_are_given),
	};
	return cmocka_run_group_tests_name("mcp_streams", tests, NULL, NULL);
}
