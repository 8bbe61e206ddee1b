/* SPDX-License-Identifier: MIT */
/*
 * test_mcp_picture.c - a picture made fit for an MCP image block
 * (tui/service/mcp_picture.c): sent as its own bytes when it decodes and
 * fits, shrunk to 8000 pixels a side when wider, shrunk to its share of
 * the budget when bigger, refused with a reason when broken.
 */
#include "testlib.h"

#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "service/mcp_picture.h"
#include "text/base64.h"

/* A w x h PNG of noise (so that it does not compress away): malloc'd. */
static unsigned char *png_of(int w, int h, size_t *len)
{
	png_image pi;
	png_alloc_size_t size = 0;
	unsigned char *px = malloc((size_t)w * h * 4), *mem;

	memset(&pi, 0, sizeof pi);
	pi.version = PNG_IMAGE_VERSION;
	pi.width = (png_uint_32)w;
	pi.height = (png_uint_32)h;
	pi.format = PNG_FORMAT_RGBA;
	srand(7);
	for (size_t i = 0; i < (size_t)w * h * 4; i++)
		px[i] = (unsigned char)rand();
	assert_true(png_image_write_to_memory(&pi, NULL, &size, 0, px, 0, NULL));
	mem = malloc(size);
	assert_true(png_image_write_to_memory(&pi, mem, &size, 0, px, 0, NULL));
	free(px);
	*len = size;
	return mem;
}

/* The width and height in the IHDR of the base64 PNG b64. */
static void sent_size(const char *b64, int *w, int *h)
{
	size_t n, bad;
	unsigned char *d = base64_decode(b64, strlen(b64), &n, &bad);

	assert_non_null(d);
	assert_true(n > 24);
	*w = d[16] << 24 | d[17] << 16 | d[18] << 8 | d[19];
	*h = d[20] << 24 | d[21] << 16 | d[22] << 8 | d[23];
	free(d);
}

static void test_a_picture_that_fits_goes_as_its_own_bytes(void **state)
{
	size_t n;
	unsigned char *png = png_of(64, 48, &n);
	struct mcp_picture p;
	char *own = base64_encode(png, n);

	(void)state;
	assert_int_equal(mcp_picture_make(png, n, 1u << 20, &p), 0);
	assert_string_equal(p.base64, own);
	assert_string_equal(p.mime, "image/png");
	assert_false(p.shrunk);
	assert_string_equal(mcp_picture_type(png, n), "image/png");
	mcp_picture_free(&p);
	free(own);
	free(png);
}

static void test_a_picture_over_8000_pixels_wide_is_shrunk(void **state)
{
	size_t n;
	unsigned char *png = png_of(10000, 30, &n);
	struct mcp_picture p;
	int w, h;

	(void)state;
	assert_int_equal(mcp_picture_make(png, n, 8u << 20, &p), 0);
	assert_true(p.shrunk);
	assert_int_equal(p.file_w, 10000);
	sent_size(p.base64, &w, &h);
	assert_int_equal(w, 8000);
	assert_int_equal(h, 24);
	/* served by resources/read as bytes, not as an image */
	assert_null(mcp_picture_type(png, n));
	mcp_picture_free(&p);
	free(png);
}

static void test_a_picture_over_its_share_is_shrunk_to_it(void **state)
{
	size_t n;
	unsigned char *png = png_of(400, 400, &n);
	struct mcp_picture p;
	int w, h;

	(void)state;
	assert_int_equal(mcp_picture_make(png, n, 100000, &p), 0);
	assert_true(p.shrunk);
	assert_true(strlen(p.base64) <= 100000);
	sent_size(p.base64, &w, &h);
	assert_true(w < 400 && w == h);
	mcp_picture_free(&p);
	/* a share nothing fits in: not sent, and why */
	assert_int_equal(mcp_picture_make(png, n, 100, &p), 1);
	assert_null(p.base64);
	assert_non_null(strstr(p.why, "too big for what is left of the result's size budget"));
	free(png);
}

static void test_a_broken_picture_is_refused_with_its_reason(void **state)
{
	size_t n;
	unsigned char *png = png_of(64, 48, &n);
	struct mcp_picture p;
	/* a header claiming 40000 x 40000 pixels */
	unsigned char bomb[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H',
				 'D', 'R', 0, 0, 0x9c, 0x40, 0, 0, 0x9c, 0x40, 8, 0, 0, 0, 0,
				 0x7d, 0x3e, 0x2a, 0x86 };

	(void)state;
	assert_int_equal(mcp_picture_make(png, n / 2, 1u << 20, &p), -1);
	assert_null(p.base64);
	assert_non_null(strstr(p.why, "a broken picture, not shown"));
	assert_null(mcp_picture_type(png, n / 2));
	assert_int_equal(mcp_picture_make(bomb, sizeof bomb, 1u << 20, &p), -1);
	assert_non_null(strstr(p.why, "40000x40000"));
	free(png);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_picture_that_fits_goes_as_its_own_bytes),
		cmocka_unit_test(test_a_picture_over_8000_pixels_wide_is_shrunk),
		cmocka_unit_test(test_a_picture_over_its_share_is_shrunk_to_it),
		cmocka_unit_test(test_a_broken_picture_is_refused_with_its_reason),
	};
	return cmocka_run_group_tests_name("mcp_picture", tests, NULL, NULL);
}
