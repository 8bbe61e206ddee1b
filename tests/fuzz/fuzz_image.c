/* SPDX-License-Identifier: MIT */
/* fuzz-sources: tui/image/image_decode.c tui/image/image_draw.c tui/image/rgb_hue.c */
/* fuzz-pkgs: libpng libjpeg chafa */
/*
 * fuzz_image.c - any bytes through the picture path a run's file takes:
 * decode (PNG or JPEG, bounded), shrink, and render to cells.
 *
 * Whatever the bytes: no crash, no leak, no read out of bounds; a
 * refusal always has a reason; a decoded picture is within the caps
 * (the fuzzer's caps are small, so it explores the edges quickly and a
 * bomb shows up as a timeout or an rss overrun).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/image.h"

#include "banned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define CHECK(cond) do { if (!(cond)) abort(); } while (0)

/* chafa and glib set up their tables and worker threads on first use,
 * once for the process: do it here, so leak checks see only per-input
 * allocations. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	unsigned char px[16 * 16 * 4];
	struct image img = { 16, 16, px };
	struct image_cells cells;
	char why[256];

	(void)argc;
	(void)argv;
	memset(px, 0x80, sizeof px);
	for (int m = 0; m <= IMAGE_MODE_MONO; m++)
		for (int s = 0; s < 2; s++)
			if (image_render(&img, 8, 4, (enum image_mode)m, (enum image_symbols)s,
					 &cells, why, sizeof why) == 0)
				image_cells_free(&cells);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct image_limits lim = { 1u << 20, 1024, 1024, 1u << 18 };
	struct image img, small;
	struct image_cells cells;
	char why[256];

	if (image_decode(data, size, &lim, &img, why, sizeof why) != 0) {
		CHECK(img.rgba == NULL && why[0] != '\0');
		return 0;
	}
	CHECK(img.w >= 1 && img.h >= 1 && img.w <= lim.max_w && img.h <= lim.max_h);
	CHECK((uint64_t)img.w * img.h <= lim.max_pixels);
	/* touch every pixel: the buffer must be all there */
	unsigned sum = 0;
	for (size_t i = 0; i < (size_t)img.w * img.h * 4; i++)
		sum += img.rgba[i];
	CHECK(image_shrink(&img, 64, 64, &small) == 0);
	CHECK(small.w <= 64 && small.h <= 64);
	int cols;
	int rows = image_fit(&small, 20, 6, &cols);
	CHECK(rows >= 1 && rows <= 6 && cols >= 1 && cols <= 20);
	enum image_mode mode = (enum image_mode)(sum % (IMAGE_MODE_MONO + 1));
	if (image_render(&small, cols, rows, mode, sum & 1 ? IMAGE_SYM_ASCII : IMAGE_SYM_BLOCK,
			 &cells, why, sizeof why) == 0) {
		for (int i = 0; i < cols * rows; i++)
			CHECK(cells.cell[i].ch >= 0x20);
		image_cells_free(&cells);
	}
	/* in pixels too, as the large view sends it: one string, kitty's
	 * carrying its id once, sixel's a DCS ended by ST */
	rows = image_fit_pixels(&small, 20, 6, 10, 20, &cols);
	CHECK(rows >= 1 && rows <= 6 && cols >= 1 && cols <= 20);
	size_t len;
	char *seq = image_pixels(&small, sum & 2, 7, cols, rows, 10, 20, &len);
	if (seq) {
		CHECK(len > 4 && seq[0] == '\033' && seq[len - 2] == '\033' && seq[len - 1] == '\\');
		static const char kitty_head[] = "\033_Gi=7,q=2,a=T,";
		CHECK(sum & 2 ? len > sizeof kitty_head &&
				!memcmp(seq, kitty_head, sizeof kitty_head - 1) : seq[1] == 'P');
		free(seq);
	}
	image_free(&small);
	image_free(&img);
	return 0;
}
