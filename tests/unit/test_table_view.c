/* SPDX-License-Identifier: MIT */
/*
 * test_table_view.c - the table the Variables tab and the F8 CSV view
 * share: a preview the prelude sent is taken only in its shape, cells are
 * sanitized, a CSV's header is not a row, a column of numbers is numeric,
 * and the shape reads at a glance.
 */
#include "testlib.h"

#include <string.h>

#include "pane/table_view.h"
#include "image/graphics.h"

#include "banned.h"

static void test_a_preview_is_read_whole(void **state)
{
	struct table t;
	char why[128], shape[160];

	(void)state;
	assert_int_equal(table_from_preview(&t,
		"{\"shape\": [5000, 3], \"columns\": [\"a\", \"city\", \"x\"],"
		" \"index\": [\"0\", \"1\"], \"numeric\": [true, false, true],"
		" \"rows\": [[\"166.05\", \"Oslo\", \"1\"], [\"1400.6178\", \"Ro\\u001b[2Jme\", \"2\"]]}",
		why, sizeof why), 0);
	assert_int_equal(t.rows, 2);
	assert_int_equal(t.cols, 3);
	assert_true(t.numeric[0] && !t.numeric[1] && t.numeric[2]);
	assert_string_equal(t.cells[3], "1400.6178");
	assert_null(strchr(t.cells[4], '\x1b'));  /* program text: inert */
	assert_int_equal(t.width[0], 9);
	table_shape_text(&t, shape, sizeof shape);
	assert_string_equal(shape, "5,000 rows x 3 columns, the first 2 rows shown");
	table_free(&t);
}

static void test_a_preview_of_another_shape_is_refused(void **state)
{
	static const char *const bad[] = {
		"", "[]", "{}",
		"{\"shape\": [1], \"columns\": [], \"index\": [], \"numeric\": [], \"rows\": []}",
		"{\"shape\": [1, 1], \"columns\": [\"a\"], \"index\": [\"0\"], \"numeric\": [true],"
		" \"rows\": [[\"1\", \"2\"]]}",
		"{\"shape\": [1, 1], \"columns\": [\"a\"], \"index\": [], \"numeric\": [true],"
		" \"rows\": [[\"1\"]]}",
		"{\"shape\": [1, 1], \"columns\": [1], \"index\": [\"0\"], \"numeric\": [true],"
		" \"rows\": [[\"1\"]]}",
		"{\"shape\": [-1, 1], \"columns\": [\"a\"], \"index\": [\"0\"], \"numeric\": [1],"
		" \"rows\": [[\"1\"]]}",
	};
	char why[128];

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct table t;
		if (table_from_preview(&t, bad[i], why, sizeof why) == 0)
			fail_msg("took %s", bad[i]);
		assert_string_equal(why, "its preview is not a table");
	}
}

static void test_a_csv_has_a_header_and_numeric_columns(void **state)
{
	static const char csv[] = "city,temp,note\r\nOslo,3.0,\"cold, dark\"\nRome,15,\n";
	struct table t;
	char shape[160];

	(void)state;
	assert_int_equal(table_from_csv(&t, csv, strlen(csv), ',', 100), 0);
	assert_int_equal(t.rows, 2);  /* the header is not a row */
	assert_int_equal(t.cols, 3);
	assert_string_equal(t.header[2], "note");
	assert_string_equal(t.cells[2], "cold, dark");
	assert_true(!t.numeric[0] && t.numeric[1] && !t.numeric[2]);
	table_shape_text(&t, shape, sizeof shape);
	assert_string_equal(shape, "2 rows x 3 columns");
	/* scrolling stays inside the table */
	assert_true(table_key(&t, KEY_RIGHT, 10));
	assert_true(table_key(&t, KEY_RIGHT, 10));
	assert_true(table_key(&t, KEY_RIGHT, 10));
	assert_int_equal(t.left, 2);
	assert_true(table_key(&t, KEY_END, 10));
	assert_int_equal(t.top, 1);
	table_free(&t);
}

static void test_graphics_names(void **state)
{
	enum gfx_mode m;
	int is_auto;

	(void)state;
	assert_int_equal(gfx_parse("auto", &m, &is_auto), 0);
	assert_true(is_auto);
	assert_int_equal(gfx_parse("Kitty", &m, &is_auto), 0);
	assert_true(m == GFX_KITTY && !is_auto);
	assert_int_equal(gfx_parse("sixel", &m, &is_auto), 0);
	assert_true(m == GFX_SIXEL);
	assert_int_equal(gfx_parse("symbols", &m, &is_auto), 0);
	assert_true(m == GFX_SYMBOLS);
	assert_int_equal(gfx_parse("iterm", &m, &is_auto), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_preview_is_read_whole),
		cmocka_unit_test(test_a_preview_of_another_shape_is_refused),
		cmocka_unit_test(test_a_csv_has_a_header_and_numeric_columns),
		cmocka_unit_test(test_graphics_names),
	};
	return cmocka_run_group_tests_name("unit/table_view", tests, NULL, NULL);
}
