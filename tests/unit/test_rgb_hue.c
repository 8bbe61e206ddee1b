/* SPDX-License-Identifier: MIT */
/*
 * test_rgb_hue.c - the hue sector of a colour (tui/image/rgb_hue.c), which the
 * theme's basic colours and a picture's ink on 8 colours both use: each
 * basic colour is its own sector, a colour 30 degrees either side of one
 * still belongs to it, and a grey (too little colour) has none.
 */
#include "testlib.h"

#include "image/rgb_hue.h"

static void test_each_basic_colour_is_its_own_sector(void **state)
{
	(void)state;
	assert_int_equal(rgb_hue_sector(255, 0, 0), HUE_RED);
	assert_int_equal(rgb_hue_sector(255, 255, 0), HUE_YELLOW);
	assert_int_equal(rgb_hue_sector(0, 255, 0), HUE_GREEN);
	assert_int_equal(rgb_hue_sector(0, 255, 255), HUE_CYAN);
	assert_int_equal(rgb_hue_sector(0, 0, 255), HUE_BLUE);
	assert_int_equal(rgb_hue_sector(255, 0, 255), HUE_MAGENTA);
}

static void test_a_soft_colour_finds_its_hue_not_its_nearest_rgb(void **state)
{
	(void)state;
	/* a pink: by RGB distance nearer magenta's corner than red's */
	assert_int_equal(rgb_hue_sector(255, 100, 170), HUE_RED);
	/* 330 degrees (red-violet) wraps round to red; 20 degrees is red */
	assert_int_equal(rgb_hue_sector(255, 0, 128), HUE_RED);
	assert_int_equal(rgb_hue_sector(255, 85, 0), HUE_RED);
	/* orange at 40 degrees is nearer yellow */
	assert_int_equal(rgb_hue_sector(255, 170, 0), HUE_YELLOW);
	assert_int_equal(rgb_hue_sector(40, 90, 200), HUE_BLUE);
}

static void test_greys_have_no_hue(void **state)
{
	(void)state;
	assert_int_equal(rgb_hue_sector(0, 0, 0), -1);
	assert_int_equal(rgb_hue_sector(128, 128, 128), -1);
	assert_int_equal(rgb_hue_sector(255, 255, 255), -1);
	/* channels 39 apart: too close to name a hue */
	assert_int_equal(rgb_hue_sector(100, 61, 61), -1);
	/* 60 apart but under a quarter of the strongest: a tinted white */
	assert_int_equal(rgb_hue_sector(255, 195, 195), -1);
	/* 40 apart and a quarter of 160: a hue after all */
	assert_int_equal(rgb_hue_sector(160, 120, 120), HUE_RED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_basic_colour_is_its_own_sector),
		cmocka_unit_test(test_a_soft_colour_finds_its_hue_not_its_nearest_rgb),
		cmocka_unit_test(test_greys_have_no_hue),
	};
	return cmocka_run_group_tests_name("rgb_hue", tests, NULL, NULL);
}
