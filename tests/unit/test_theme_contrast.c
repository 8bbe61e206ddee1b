/* SPDX-License-Identifier: MIT */
/*
 * test_theme_contrast.c - every colour theme is readable on a projector:
 * it paints its own background and frames (no role leaves a colour to
 * the terminal, whose background may be of the other polarity), and each
 * role's text stands out from its background by at least 4.5:1, WCAG
 * 2's level AA for text; the frames by at least 3:1 (AA for the parts of
 * an interface that are not text), at each colour depth a terminal may
 * have (8, 16, 256, true colour): in the colours that depth shows, not
 * those the file names. Contrast is WCAG's: (L1 + 0.05) /
 * (L2 + 0.05) of the relative luminances of the sRGB colours, the 16
 * basic colours taken as xterm shows them. Run from the repository root.
 */
#include "testlib.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "screen/theme.h"

#include "banned.h"

/* The colour themes (monochrome has none: the terminal's own). */
static const char *const coloured[] = { "default", "light", "high-contrast" };

/* The depths a terminal shows: xterm and the Linux console (8), most
 * emulators' basic palette (16), xterm-256color, and true colour. */
static const int depths[] = { 8, 16, 256, CM_DIRECT };

static const char *depth_name(int depth)
{
	return depth == 8 ? "8 colours" : depth == 16 ? "16 colours" :
	       depth == 256 ? "256 colours" : "true colour";
}

static uint32_t rgb_of(int32_t c)
{
	return cm_written_rgb(c);
}

static double contrast(uint32_t a, uint32_t b)
{
	return cm_contrast(a, b);
}

/* The shipped colour theme i, loaded by its path (named in path). */
static void load_coloured(size_t i, struct theme *th, char *path, size_t len)
{
	char err[256] = "";

	snprintf(path, len, "themes/%s.theme", coloured[i]);
	if (theme_load(path, th, err, sizeof err) != 0)
		fail_msg("%s", err);
}

static void test_every_theme_paints_its_own_background(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof coloured / sizeof *coloured; i++) {
		char path[128];
		struct theme th;
		load_coloured(i, &th, path, sizeof path);
		for (int r = 0; r < TR_COUNT; r++) {
			const struct theme_style *s = &th.style[r];
			if (s->fg == THEME_COLOR_DEFAULT || s->bg == THEME_COLOR_DEFAULT)
				fail_msg("%s: %s leaves its %s to the terminal", path,
					 theme_role_key((enum theme_role)r),
					 s->fg == THEME_COLOR_DEFAULT ? "text colour" : "background");
		}
	}
}

/* What the terminal shows for role at depth, on its own background or
 * on the current line's; appends a line to report when it reads below
 * what it needs. */
static size_t check_role(const char *path, const struct theme *th, int r, int depth,
			 bool curline, char *report, size_t n, size_t cap)
{
	bool frame = r == TR_BORDER || r == TR_BORDER_FOCUSED;
	double want = frame ? CM_FRAME_CONTRAST : CM_TEXT_CONTRAST;
	int fg, bg;

	theme_colors_at(th, (enum theme_role)r, depth, curline, &fg, &bg);
	if (fg < 0 || bg < 0)
		return n; /* the test above says so */
	uint32_t f = cm_shown_rgb(fg, depth), b = cm_shown_rgb(bg, depth);
	double got = contrast(f, b);
	if (got < want && n < cap)
		n += (size_t)snprintf(report + n, cap - n,
				      "%s at %s: %s%s %#08x on %#08x is %.2f:1 (wants %.1f)\n",
				      path, depth_name(depth),
				      theme_role_key((enum theme_role)r),
				      curline ? " on the current line" : "", f, b, got, want);
	return n;
}

/* The roles the editor draws over the current line's background: the
 * program's text and its syntax classes (tui/editor/editor_draw.c). */
static int drawn_on_curline(int r)
{
	return r == TR_NORMAL || (r >= TR_KEYWORD && r <= TR_DECORATOR);
}

/* Each role of each theme at each depth, as the terminal shows it (a
 * theme's [basic] section, or the mapping kept readable): the light
 * theme once drew comments white on white at 8 colours. */
static void test_every_role_reads_at_wcag_aa_at_every_depth(void **state)
{
	char report[8192] = "";
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof coloured / sizeof *coloured; i++) {
		char path[128];
		struct theme th;
		load_coloured(i, &th, path, sizeof path);
		for (size_t d = 0; d < sizeof depths / sizeof *depths; d++)
			for (int r = 0; r < TR_COUNT; r++)
				for (int cl = 0; cl < 1 + drawn_on_curline(r); cl++)
					n = check_role(path, &th, r, depths[d], cl, report, n,
						       sizeof report);
	}
	if (report[0])
		fail_msg("too faint:\n%s", report);
}

/* The file's own colours, as written, before any terminal maps them. */
static void test_every_role_as_written_reads_at_wcag_aa(void **state)
{
	char report[4096] = "";
	size_t n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof coloured / sizeof *coloured; i++) {
		char path[128];
		struct theme th;
		load_coloured(i, &th, path, sizeof path);
		for (int r = 0; r < TR_COUNT; r++) {
			const struct theme_style *s = &th.style[r];
			bool frame = r == TR_BORDER || r == TR_BORDER_FOCUSED;
			double want = frame ? 3.0 : 4.5;
			if (s->fg == THEME_COLOR_DEFAULT || s->bg == THEME_COLOR_DEFAULT)
				continue;
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

/* A theme's [basic] section is what 8 and 16 colours draw; at 256 and
 * true colour its own colours are. A faint [basic] colour is kept
 * readable all the same, and a bad [basic] line is named. */
static void test_basic_section_is_how_a_theme_degrades(void **state)
{
	struct theme th;
	char err[256] = "";
	int fg, bg;

	(void)state;
	assert_int_equal(theme_parse_string("[editor]\ntext = #101010 on #f0f0f0\n"
					    "[basic]\neditor.text = blue on white\n"
					    "syntax.comment = white on white\n",
					    "t.theme", &th, err, sizeof err), 0);
	theme_colors_at(&th, TR_NORMAL, 8, false, &fg, &bg);
	assert_int_equal(fg, 4);
	assert_int_equal(bg, 7);
	theme_colors_at(&th, TR_NORMAL, 256, false, &fg, &bg);
	assert_int_equal(cm_shown_rgb(fg, 256), 0x121212);
	theme_colors_at(&th, TR_COMMENT, 16, false, &fg, &bg);
	assert_int_equal(bg, 7);
	assert_true(contrast(cm_shown_rgb(fg, 16), cm_shown_rgb(bg, 16)) >= CM_TEXT_CONTRAST);

	assert_int_equal(theme_parse_string("[basic]\ncomment = red\n", "bad.theme", &th,
					    err, sizeof err), -1);
	assert_non_null(strstr(err, "bad.theme:2:"));
	assert_non_null(strstr(err, "[basic]"));
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
		cmocka_unit_test(test_every_role_as_written_reads_at_wcag_aa),
		cmocka_unit_test(test_every_role_reads_at_wcag_aa_at_every_depth),
		cmocka_unit_test(test_basic_section_is_how_a_theme_degrades),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
