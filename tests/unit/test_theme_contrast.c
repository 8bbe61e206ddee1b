/* SPDX-License-Identifier: MIT */
/*
 * test_theme_contrast.c - every colour theme is readable on a projector:
 * it paints its own background and frames (no role leaves a colour to
 * the terminal, whose background may be of the other polarity), and each
 * role's text stands out from its background by at least 4.5:1, WCAG
 * 2's level AA for text; the frames by at least 3:1 (AA for the parts of
 * an interface that are not text). Contrast is WCAG's: (L1 + 0.05) /
 * (L2 + 0.05) of the relative luminances of the sRGB colours, the 16
 * basic colours taken as xterm shows them. Run from the repository root.
 */
#include "testlib.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "screen/theme.h"

#include "banned.h"

/* The colour themes (monochrome has none: the terminal's own). */
static const char *const coloured[] = { "default", "light", "high-contrast" };

static const uint32_t basic_rgb[16] = {
	0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
	0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};

/* #rrggbb of a colour as a theme stores it (xterm's 256-colour palette). */
static uint32_t rgb_of(int32_t c)
{
	static const int level[6] = { 0, 95, 135, 175, 215, 255 };

	if (c & THEME_RGB)
		return (uint32_t)c & 0xffffff;
	if (c < 16)
		return basic_rgb[c];
	if (c < 232) {
		int i = c - 16;
		return (uint32_t)(level[i / 36] << 16 | level[i / 6 % 6] << 8 | level[i % 6]);
	}
	int g = 8 + (c - 232) * 10;
	return (uint32_t)(g << 16 | g << 8 | g);
}

static double channel(unsigned v)
{
	double s = v / 255.0;
	return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
}

static double luminance(uint32_t rgb)
{
	return 0.2126 * channel(rgb >> 16 & 255) + 0.7152 * channel(rgb >> 8 & 255) +
	       0.0722 * channel(rgb & 255);
}

static double contrast(uint32_t a, uint32_t b)
{
	double la = luminance(a), lb = luminance(b);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

static void test_every_theme_paints_its_own_background(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof coloured / sizeof *coloured; i++) {
		char path[128], err[256] = "";
		struct theme th;
		snprintf(path, sizeof path, "themes/%s.theme", coloured[i]);
		if (theme_load(path, &th, err, sizeof err) != 0)
			fail_msg("%s", err);
		for (int r = 0; r < TR_COUNT; r++) {
			const struct theme_style *s = &th.style[r];
			if (s->fg == THEME_COLOR_DEFAULT || s->bg == THEME_COLOR_DEFAULT)
				fail_msg("%s: %s leaves its %s to the terminal", path,
					 theme_role_key((enum theme_role)r),
					 s->fg == THEME_COLOR_DEFAULT ? "text colour" : "background");
		}
	}
}

static void test_every_role_reads_at_wcag_aa(void **state)
{
	char report[4096] = "";
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof coloured / sizeof *coloured; i++) {
		char path[128], err[256] = "";
		struct theme th;
		snprintf(path, sizeof path, "themes/%s.theme", coloured[i]);
		if (theme_load(path, &th, err, sizeof err) != 0)
			fail_msg("%s", err);
		for (int r = 0; r < TR_COUNT; r++) {
			const struct theme_style *s = &th.style[r];
			bool frame = r == TR_BORDER || r == TR_BORDER_FOCUSED;
			double want = frame ? 3.0 : 4.5;
			if (s->fg == THEME_COLOR_DEFAULT || s->bg == THEME_COLOR_DEFAULT)
				continue; /* the test above says so */
			double got = contrast(rgb_of(s->fg), rgb_of(s->bg));
			if (got < want && n < sizeof report)
				n += (size_t)snprintf(report + n, sizeof report - n,
						      "%s: %s %#06x on %#06x is %.2f:1 (wants %.1f)\n",
						      path, theme_role_key((enum theme_role)r),
						      rgb_of(s->fg), rgb_of(s->bg), got, want);
		}
	}
	if (report[0])
		fail_msg("too faint for a projector:\n%s", report);
}

/* The measure itself: black on white is 21:1, a colour on itself 1:1,
 * and the light-theme status key (#4078f2 on #e5e5e6) 3.2:1. */
static void test_the_measure_is_wcags(void **state)
{
	(void)state;
	assert_true(fabs(contrast(0x000000, 0xffffff) - 21.0) < 0.01);
	assert_true(fabs(contrast(0x4078f2, 0x4078f2) - 1.0) < 0.001);
	assert_true(fabs(contrast(0x4078f2, 0xe5e5e6) - 3.2) < 0.1);
	assert_int_equal(rgb_of(196), 0xff0000);
	assert_int_equal(rgb_of(15), 0xffffff);
	assert_int_equal(rgb_of(244), 0x808080);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_measure_is_wcags),
		cmocka_unit_test(test_every_theme_paints_its_own_background),
		cmocka_unit_test(test_every_role_reads_at_wcag_aa),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
