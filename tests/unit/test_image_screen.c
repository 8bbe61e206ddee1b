/* SPDX-License-Identifier: MIT */
/*
 * test_image_screen.c - pictures onto a real curses screen (newterm on a
 * pipe, so no terminal is needed): the mode each terminal gets from its
 * colours and pair budget, the theme's pairs left as they were, and the
 * cells read back with the colours the picture asked for.
 */
#include "testlib.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "image/image.h"
#include "pane/image_screen.h"
#include "screen/theme.h"

#include "banned.h"

static SCREEN *scr;
static FILE *out, *in;
static struct theme th;

/* A screen for terminal type term, with the default theme applied. */
static void open_screen(const char *term, bool no_color)
{
	if (no_color)
		setenv("NO_COLOR", "1", 1);
	else
		unsetenv("NO_COLOR");
	out = fopen("/dev/null", "w");
	in = fopen("/dev/null", "r");
	assert_non_null(out);
	scr = newterm(term, out, in);
	assert_non_null(scr);
	resizeterm(40, 120);
	if (has_colors()) {
		start_color();
		use_default_colors();
	}
	theme_default(&th);
	theme_apply(&th);
	image_screen_reset();
}

static void close_screen(void)
{
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	image_screen_reset();
}

/* Left half black, right half white: 64 x 32 pixels. */
static struct image two_colour(void)
{
	struct image img = { 64, 32, calloc(64 * 32, 4) };
	assert_non_null(img.rgba);
	for (int i = 0; i < 64 * 32; i++) {
		unsigned char v = i % 64 < 32 ? 0 : 255;
		img.rgba[i * 4] = img.rgba[i * 4 + 1] = img.rgba[i * 4 + 2] = v;
		img.rgba[i * 4 + 3] = 255;
	}
	return img;
}

/* The fg and bg colour numbers of the cell at (y, x). */
static void cell_colours(int y, int x, int *fg, int *bg, wchar_t *ch)
{
	cchar_t cc;
	wchar_t wc[CCHARW_MAX + 1];
	attr_t a;
	short sp;
	int pair = 0;
	assert_int_equal(mvwin_wch(stdscr, y, x, &cc), OK);
	assert_int_equal(getcchar(&cc, wc, &a, &sp, &pair), OK);
	*ch = wc[0];
	assert_int_equal(extended_pair_content(pair, fg, bg), OK);
}

static void test_each_terminal_gets_the_mode_its_pairs_allow(void **state)
{
	(void)state;
	open_screen("xterm-256color", false);
	assert_int_equal(image_screen_mode(&th), IMAGE_MODE_256);
	close_screen();

	/* 8 colours and 64 pairs, 58 of them the theme's: fg-only */
	open_screen("screen", false);
	assert_int_equal(image_screen_mode(&th), IMAGE_MODE_8_FG);
	close_screen();

	open_screen("xterm-256color", true);
	assert_int_equal(image_screen_mode(&th), IMAGE_MODE_MONO);
	close_screen();

	open_screen("vt100", false);
	assert_int_equal(image_screen_mode(&th), IMAGE_MODE_MONO);
	close_screen();
}

static void test_cells_come_back_in_their_colours_and_the_theme_keeps_its_pairs(void **state)
{
	(void)state;
	open_screen("xterm-256color", false);
	int tfg[TR_COUNT], tbg[TR_COUNT];
	for (int r = 0; r < TR_COUNT; r++)
		assert_int_equal(extended_pair_content(th.pair[r], &tfg[r], &tbg[r]), OK);

	struct image img = two_colour();
	struct image_cells c;
	char why[128];
	assert_int_equal(image_render(&img, 8, 4, IMAGE_MODE_256, IMAGE_SYM_BLOCK, &c, why, sizeof why), 0);
	image_screen_frame(&th);
	werase(stdscr);
	image_screen_draw(stdscr, 2, 3, 100, &c, 0, 4, &th);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 8; x++) {
			int fg, bg;
			wchar_t ch;
			cell_colours(2 + y, 3 + x, &fg, &bg, &ch);
			int shown = ch == L' ' ? bg : fg;
			if (x < 4)
				assert_true(shown == 0 || shown == 16);
			else
				assert_true(shown == 15 || shown == 231);
		}
	assert_in_range(image_screen_pairs_used(), 1, 4);
	/* the theme's pairs are as they were */
	for (int r = 0; r < TR_COUNT; r++) {
		int fg, bg;
		assert_int_equal(extended_pair_content(th.pair[r], &fg, &bg), OK);
		assert_int_equal(fg, tfg[r]);
		assert_int_equal(bg, tbg[r]);
	}
	/* drawn again next frame: the same pairs, none more */
	int used = image_screen_pairs_used();
	image_screen_frame(&th);
	image_screen_draw(stdscr, 2, 3, 100, &c, 0, 4, &th);
	assert_int_equal(image_screen_pairs_used(), used);
	image_cells_free(&c);
	image_free(&img);
	close_screen();
}

static void test_a_frame_of_distinct_colours_never_runs_out_of_pairs(void **state)
{
	(void)state;
	open_screen("xterm-256color", false);
	/* a full screen of cells, each its own (fg, bg): 120 x 40 = 4800 */
	struct image_cells c = { 120, 40, IMAGE_MODE_256, calloc(4800, sizeof *c.cell) };
	assert_non_null(c.cell);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int frame = 0; frame < 30; frame++) {
		for (int i = 0; i < 4800; i++) {
			c.cell[i].ch = 0x2580;
			c.cell[i].fg = (i + frame * 4800) % 256;
			c.cell[i].bg = (i + frame * 4800) / 256 % 256;
		}
		image_screen_frame(&th);
		werase(stdscr);
		image_screen_draw(stdscr, 0, 0, 120, &c, 0, 40, &th);
		/* every cell of this frame has the colours it asked for */
		for (int i = 0; i < 4800; i += 97) {
			int fg, bg;
			wchar_t ch;
			cell_colours(i / 120, i % 120, &fg, &bg, &ch);
			assert_int_equal(fg, c.cell[i].fg);
			assert_int_equal(bg, c.cell[i].bg);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	print_message("a screenful of distinct pairs: %.2f ms a frame (30 frames)\n",
		      ((double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6) / 30);
	/* the same picture again, as each frame redraws it: pairs are found */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int frame = 0; frame < 30; frame++) {
		image_screen_frame(&th);
		image_screen_draw(stdscr, 0, 0, 120, &c, 0, 40, &th);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	print_message("the same screenful again: %.2f ms a frame\n",
		      ((double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6) / 30);
	free(c.cell);
	close_screen();
}

static void test_no_color_draws_symbols_in_the_themes_colours(void **state)
{
	(void)state;
	open_screen("xterm-256color", true);
	struct image img = two_colour();
	struct image_cells c;
	char why[128];
	assert_int_equal(image_render(&img, 8, 4, image_screen_mode(&th), IMAGE_SYM_BLOCK, &c,
				      why, sizeof why), 0);
	image_screen_frame(&th);
	image_screen_draw(stdscr, 0, 0, 100, &c, 0, 4, &th);
	assert_int_equal(image_screen_pairs_used(), 0);
	cchar_t cc;
	wchar_t wc[CCHARW_MAX + 1];
	attr_t a;
	short sp;
	int pair = -1;
	assert_int_equal(mvwin_wch(stdscr, 0, 0, &cc), OK);
	assert_int_equal(getcchar(&cc, wc, &a, &sp, &pair), OK);
	assert_int_equal(pair, 0);
	image_cells_free(&c);
	image_free(&img);
	close_screen();
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_terminal_gets_the_mode_its_pairs_allow),
		cmocka_unit_test(test_cells_come_back_in_their_colours_and_the_theme_keeps_its_pairs),
		cmocka_unit_test(test_a_frame_of_distinct_colours_never_runs_out_of_pairs),
		cmocka_unit_test(test_no_color_draws_symbols_in_the_themes_colours),
	};
	return cmocka_run_group_tests_name("image_screen", tests, NULL, NULL);
}
