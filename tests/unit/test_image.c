/* SPDX-License-Identifier: MIT */
/*
 * test_image.c - the picture path: bounded decoding of PNG and JPEG
 * (sizes refused before decoding, truncated files, decompression bombs,
 * files that are not regular), exact pixels of a tiny valid file, and the
 * cells libchafa makes of a two-colour picture in each colour mode.
 * Files are crafted here byte by byte (zlib for the compressed parts).
 */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include <jpeglib.h>

#include "image/image.h"

#include "banned.h"

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		assert_non_null(b->p);
	}
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void put32(struct buf *b, uint32_t v)
{
	unsigned char x[4] = { v >> 24, v >> 16 & 255, v >> 8 & 255, v & 255 };
	put(b, x, 4);
}

/* One PNG chunk with its length and CRC. */
static void chunk(struct buf *b, const char *type, const void *data, size_t n)
{
	put32(b, (uint32_t)n);
	size_t at = b->len;
	put(b, type, 4);
	if (n)
		put(b, data, n);
	uLong crc = crc32(0, b->p + at, (uInt)(n + 4));
	put32(b, (uint32_t)crc);
}

static void png_head(struct buf *b, uint32_t w, uint32_t h, int depth, int ctype)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	unsigned char ihdr[13];
	put(b, sig, 8);
	ihdr[0] = w >> 24; ihdr[1] = w >> 16; ihdr[2] = w >> 8; ihdr[3] = (unsigned char)w;
	ihdr[4] = h >> 24; ihdr[5] = h >> 16; ihdr[6] = h >> 8; ihdr[7] = (unsigned char)h;
	ihdr[8] = (unsigned char)depth;
	ihdr[9] = (unsigned char)ctype;
	ihdr[10] = ihdr[11] = ihdr[12] = 0;
	chunk(b, "IHDR", ihdr, 13);
}

/* zlib-compress raw into an IDAT chunk. */
static void idat(struct buf *b, const void *raw, size_t n)
{
	uLongf clen = compressBound((uLong)n);
	unsigned char *c = malloc(clen);
	assert_non_null(c);
	assert_int_equal(compress2(c, &clen, raw, (uLong)n, 9), Z_OK);
	chunk(b, "IDAT", c, clen);
	free(c);
}

/* A w x h RGBA8 PNG of the given pixels. */
static struct buf png_rgba(int w, int h, const unsigned char *px)
{
	struct buf b = { 0 }, raw = { 0 };
	png_head(&b, (uint32_t)w, (uint32_t)h, 8, 6);
	for (int y = 0; y < h; y++) {
		unsigned char filter = 0;
		put(&raw, &filter, 1);
		put(&raw, px + (size_t)y * w * 4, (size_t)w * 4);
	}
	idat(&b, raw.p, raw.len);
	chunk(&b, "IEND", NULL, 0);
	free(raw.p);
	return b;
}

static const unsigned char four[16] = {
	255, 0, 0, 255,    0, 255, 0, 255,
	0, 0, 255, 255,    255, 255, 255, 0,
};

static void test_a_tiny_png_decodes_to_its_exact_pixels(void **state)
{
	(void)state;
	struct buf b = png_rgba(2, 2, four);
	struct image img;
	char why[256] = "";
	assert_int_equal(image_decode(b.p, b.len, NULL, &img, why, sizeof why), 0);
	assert_int_equal(img.w, 2);
	assert_int_equal(img.h, 2);
	assert_memory_equal(img.rgba, four, 16);
	image_free(&img);
	free(b.p);
}

static void test_palette_and_grey_pngs_come_out_as_rgba(void **state)
{
	(void)state;
	/* 3x1, 2-bit palette: red, green, blue; the blue one half transparent */
	struct buf b = { 0 };
	png_head(&b, 3, 1, 2, 3);
	const unsigned char plte[9] = { 255, 0, 0, 0, 255, 0, 0, 0, 255 };
	chunk(&b, "PLTE", plte, 9);
	const unsigned char trns[3] = { 255, 255, 128 };
	chunk(&b, "tRNS", trns, 3);
	const unsigned char raw[2] = { 0, 0x00 << 6 | 0x01 << 4 | 0x02 << 2 };
	idat(&b, raw, 2);
	chunk(&b, "IEND", NULL, 0);
	struct image img;
	char why[256] = "";
	assert_int_equal(image_decode(b.p, b.len, NULL, &img, why, sizeof why), 0);
	const unsigned char want[12] = { 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 128 };
	assert_memory_equal(img.rgba, want, 12);
	image_free(&img);
	free(b.p);

	/* 2x1 16-bit grey: black and white */
	struct buf g = { 0 };
	png_head(&g, 2, 1, 16, 0);
	const unsigned char graw[5] = { 0, 0, 0, 0xff, 0xff };
	idat(&g, graw, 5);
	chunk(&g, "IEND", NULL, 0);
	assert_int_equal(image_decode(g.p, g.len, NULL, &img, why, sizeof why), 0);
	const unsigned char gwant[8] = { 0, 0, 0, 255, 255, 255, 255, 255 };
	assert_memory_equal(img.rgba, gwant, 8);
	image_free(&img);
	free(g.p);
}

static void test_huge_dimensions_in_ihdr_are_refused_before_decoding(void **state)
{
	(void)state;
	/* a valid header and a tiny IDAT: nothing may be allocated for 1.6 Gpx */
	struct buf b = { 0 };
	png_head(&b, 40000, 40000, 8, 6);
	unsigned char zero[64] = { 0 };
	idat(&b, zero, sizeof zero);
	chunk(&b, "IEND", NULL, 0);
	struct image img;
	char why[256] = "";
	assert_int_equal(image_decode(b.p, b.len, NULL, &img, why, sizeof why), -1);
	assert_null(img.rgba);
	assert_non_null(strstr(why, "image too large: 40000x40000"));
	assert_non_null(strstr(why, "limit 8192x8192"));
	free(b.p);

	/* each side within the cap, the product not: 8000 x 8000 = 64 Mpx */
	b = (struct buf){ 0 };
	png_head(&b, 8000, 8000, 8, 6);
	idat(&b, zero, sizeof zero);
	chunk(&b, "IEND", NULL, 0);
	assert_int_equal(image_decode(b.p, b.len, NULL, &img, why, sizeof why), -1);
	assert_non_null(strstr(why, "image too large: 8000x8000"));
	free(b.p);

	/* a zero side */
	b = (struct buf){ 0 };
	png_head(&b, 0, 5, 8, 6);
	chunk(&b, "IEND", NULL, 0);
	assert_int_equal(image_decode(b.p, b.len, NULL, &img, why, sizeof why), -1);
	assert_non_null(strstr(why, "no pixels"));
	free(b.p);
}

static void test_a_truncated_png_is_refused_at_every_cut(void **state)
{
	(void)state;
	unsigned char px[64 * 64 * 4];
	for (size_t i = 0; i < sizeof px; i++)
		px[i] = (unsigned char)(i * 7 + i / 256);
	struct buf b = png_rgba(64, 64, px);
	struct image img;
	char why[256];
	/* every cut before the end of IDAT's data loses pixels */
	size_t idat_end = b.len - 12 - 4;
	for (size_t cut = 0; cut < idat_end; cut += 1 + cut / 16) {
		why[0] = '\0';
		assert_int_equal(image_decode(b.p, cut, NULL, &img, why, sizeof why), -1);
		assert_null(img.rgba);
		assert_true(why[0] != '\0');
	}
	b.len = b.len / 2;
	assert_int_equal(image_decode(b.p, b.len, NULL, &img, why, sizeof why), -1);
	assert_non_null(strstr(why, "truncated"));
	free(b.p);
}

/* A zlib stream of n zero bytes (compresses about 1000:1). */
static unsigned char *zeros_z(size_t n, uLongf *clen)
{
	unsigned char *raw = calloc(1, n);
	assert_non_null(raw);
	*clen = compressBound((uLong)n);
	unsigned char *c = malloc(*clen);
	assert_non_null(c);
	assert_int_equal(compress2(c, clen, raw, (uLong)n, 9), Z_OK);
	free(raw);
	return c;
}

static void test_decompression_bombs_are_bounded(void **state)
{
	(void)state;
	struct image img;
	char why[256] = "";
	struct image_limits lim;
	image_limits_default(&lim);

	/* 1: a small zlib stream claiming a huge image: 8192x8192 RGBA is
	 * 256 MiB of rows from a ~260 KiB file; refused at IHDR */
	uLongf clen;
	unsigned char *z = zeros_z((size_t)8192 * 4 + 1, &clen);
	struct buf b = { 0 };
	png_head(&b, 8192, 8192, 8, 6);
	chunk(&b, "IDAT", z, clen);
	chunk(&b, "IEND", NULL, 0);
	free(z);
	clock_t t0 = clock();
	assert_int_equal(image_decode(b.p, b.len, NULL, &img, why, sizeof why), -1);
	assert_non_null(strstr(why, "image too large: 8192x8192"));
	assert_true((double)(clock() - t0) / CLOCKS_PER_SEC < 0.1);
	free(b.p);

	/* 2: 200 zTXt chunks, each inflating to 64 MiB, in front of a valid
	 * picture: skipped uninflated, the picture still shows, at once */
	z = zeros_z(64u << 20, &clen);
	struct buf t = { 0 };
	put(&t, "Comment", 8); /* keyword, NUL */
	unsigned char method = 0;
	put(&t, &method, 1);
	put(&t, z, clen);
	free(z);
	struct buf p = png_rgba(2, 2, four);
	struct buf q = { 0 };
	put(&q, p.p, 33);                   /* signature and IHDR */
	for (int i = 0; i < 200; i++)
		chunk(&q, i % 2 ? "zTXt" : "iCCP", t.p, t.len);
	put(&q, p.p + 33, p.len - 33);      /* IDAT, IEND */
	t0 = clock();
	assert_int_equal(image_decode(q.p, q.len, NULL, &img, why, sizeof why), 0);
	double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	assert_true(secs < 0.5);
	assert_memory_equal(img.rgba, four, 16);
	image_free(&img);
	free(t.p);
	free(p.p);
	free(q.p);

	/* 2b: the largest picture the caps allow, 4096 x 4096 from a 65 KiB
	 * stream: decoded, in bounded time (this is the worst a run can make
	 * the playground wait) */
	{
		size_t row = 4096 * 4 + 1;
		z = zeros_z(row * 4096, &clen);
		struct buf m = { 0 };
		png_head(&m, 4096, 4096, 8, 6);
		chunk(&m, "IDAT", z, clen);
		chunk(&m, "IEND", NULL, 0);
		free(z);
		struct timespec a, e;
		clock_gettime(CLOCK_MONOTONIC, &a);
		assert_int_equal(image_decode(m.p, m.len, NULL, &img, why, sizeof why), 0);
		clock_gettime(CLOCK_MONOTONIC, &e);
		secs = (double)(e.tv_sec - a.tv_sec) + (double)(e.tv_nsec - a.tv_nsec) / 1e9;
		SP_TIMING(secs < 3.0, "0.1 s", "4096x4096 from %zu bytes: decoded in %.3f s", m.len, secs);
		image_free(&img);
		free(m.p);
	}

	/* 3: IDAT that inflates to far more than the rows hold: an error or
	 * the stated rows, never more memory */
	z = zeros_z(16u << 20, &clen);
	b = (struct buf){ 0 };
	png_head(&b, 4, 4, 8, 6);
	chunk(&b, "IDAT", z, clen);
	chunk(&b, "IEND", NULL, 0);
	free(z);
	int rc = image_decode(b.p, b.len, NULL, &img, why, sizeof why);
	if (rc == 0) {
		assert_int_equal(img.w, 4);
		assert_int_equal(img.h, 4);
		image_free(&img);
	}
	free(b.p);

	/* 4: a file over the byte cap is not even looked at */
	lim.max_bytes = 40;
	p = png_rgba(8, 8, (unsigned char[256]){ 0 });
	assert_true(p.len > 40);
	assert_int_equal(image_decode(p.p, p.len, &lim, &img, why, sizeof why), -1);
	assert_non_null(strstr(why, "image file too large"));
	free(p.p);
}

static void test_thousands_of_ancillary_chunks_are_bounded(void **state)
{
	(void)state;
	struct buf p = png_rgba(2, 2, four), q = { 0 };
	put(&q, p.p, 33);
	for (int i = 0; i < 5000; i++)
		chunk(&q, "tEXt", "k\0v", 3);
	put(&q, p.p + 33, p.len - 33);
	struct image img;
	char why[256] = "";
	int rc = image_decode(q.p, q.len, NULL, &img, why, sizeof why);
	/* libpng stops keeping them at the chunk cache cap: refused or shown */
	if (rc == 0) {
		assert_memory_equal(img.rgba, four, 16);
		image_free(&img);
	} else {
		assert_true(why[0] != '\0');
	}
	free(p.p);
	free(q.p);
}

/* A w x h JPEG of one colour, quality 95. */
static struct buf jpeg_solid(int w, int h, unsigned char r, unsigned char g, unsigned char bl,
			     bool progressive)
{
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr err;
	unsigned char *out = NULL;
	unsigned long outlen = 0;
	c.err = jpeg_std_error(&err);
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, &out, &outlen);
	c.image_width = (JDIMENSION)w;
	c.image_height = (JDIMENSION)h;
	c.input_components = 3;
	c.in_color_space = JCS_RGB;
	jpeg_set_defaults(&c);
	jpeg_set_quality(&c, 95, TRUE);
	if (progressive)
		jpeg_simple_progression(&c);
	jpeg_start_compress(&c, TRUE);
	unsigned char *row = malloc((size_t)w * 3);
	for (int x = 0; x < w; x++) {
		row[x * 3] = r;
		row[x * 3 + 1] = g;
		row[x * 3 + 2] = bl;
	}
	while (c.next_scanline < c.image_height)
		jpeg_write_scanlines(&c, &row, 1);
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	free(row);
	return (struct buf){ out, outlen, outlen };
}

static void test_jpeg_decodes_and_its_caps_hold(void **state)
{
	(void)state;
	struct image img;
	char why[256] = "";
	struct buf j = jpeg_solid(16, 8, 200, 40, 40, false);
	assert_int_equal(image_sniff(j.p, j.len), IMAGE_JPEG);
	assert_int_equal(image_decode(j.p, j.len, NULL, &img, why, sizeof why), 0);
	assert_int_equal(img.w, 16);
	assert_int_equal(img.h, 8);
	for (int i = 0; i < 16 * 8; i++) {
		assert_in_range(img.rgba[i * 4], 190, 210);
		assert_in_range(img.rgba[i * 4 + 1], 30, 50);
		assert_int_equal(img.rgba[i * 4 + 3], 255);
	}
	image_free(&img);

	/* the SOF0 frame header made to say 40000 x 40000 */
	struct buf big = { 0 };
	put(&big, j.p, j.len);
	size_t i;
	for (i = 2; i + 9 < big.len; i++)
		if (big.p[i] == 0xff && (big.p[i + 1] == 0xc0 || big.p[i + 1] == 0xc2))
			break;
	assert_true(i + 9 < big.len);
	big.p[i + 5] = 40000 >> 8; big.p[i + 6] = 40000 & 255;
	big.p[i + 7] = 40000 >> 8; big.p[i + 8] = 40000 & 255;
	assert_int_equal(image_decode(big.p, big.len, NULL, &img, why, sizeof why), -1);
	assert_non_null(strstr(why, "image too large: 40000x40000"));
	free(big.p);

	/* truncated in the middle of the entropy-coded data */
	assert_int_equal(image_decode(j.p, j.len - 40, NULL, &img, why, sizeof why), -1);
	assert_non_null(strstr(why, "truncated"));
	/* cut inside the headers */
	assert_int_equal(image_decode(j.p, 30, NULL, &img, why, sizeof why), -1);
	assert_true(why[0] != '\0');
	free(j.p);

	/* a progressive one decodes too */
	j = jpeg_solid(32, 32, 10, 10, 240, true);
	assert_int_equal(image_decode(j.p, j.len, NULL, &img, why, sizeof why), 0);
	assert_in_range(img.rgba[2], 230, 250);
	image_free(&img);
	free(j.p);
}

static void test_a_cmyk_jpeg_comes_out_as_rgb(void **state)
{
	(void)state;
	/* red as Adobe stores CMYK, inverted: C 255, M 0, Y 0, K 255 */
	struct jpeg_compress_struct c;
	struct jpeg_error_mgr err;
	unsigned char *out = NULL, row[8 * 4];
	unsigned long outlen = 0;
	c.err = jpeg_std_error(&err);
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, &out, &outlen);
	c.image_width = 8;
	c.image_height = 8;
	c.input_components = 4;
	c.in_color_space = JCS_CMYK;
	jpeg_set_defaults(&c);
	jpeg_set_quality(&c, 100, TRUE);
	jpeg_start_compress(&c, TRUE);
	for (int x = 0; x < 8; x++) {
		row[x * 4] = 255; row[x * 4 + 1] = 0; row[x * 4 + 2] = 0; row[x * 4 + 3] = 255;
	}
	JSAMPROW rp = row;
	while (c.next_scanline < c.image_height)
		jpeg_write_scanlines(&c, &rp, 1);
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	struct image img;
	char why[256] = "";
	assert_int_equal(image_decode(out, outlen, NULL, &img, why, sizeof why), 0);
	assert_in_range(img.rgba[0], 240, 255);
	assert_in_range(img.rgba[1], 0, 15);
	assert_in_range(img.rgba[2], 0, 15);
	assert_int_equal(img.rgba[3], 255);
	image_free(&img);
	free(out);
}

static void test_a_jpeg_with_endless_scans_is_stopped(void **state)
{
	(void)state;
	/* a progressive file whose last scan is repeated 2000 times: each
	 * scan costs a pass over the picture, the cap stops it */
	struct buf j = jpeg_solid(64, 64, 100, 100, 100, true);
	size_t last = 0;
	for (size_t i = 2; i + 1 < j.len; i++)
		if (j.p[i] == 0xff && j.p[i + 1] == 0xda)
			last = i;
	assert_true(last > 0);
	size_t scan_len = j.len - 2 - last;   /* up to EOI */
	struct buf many = { 0 };
	put(&many, j.p, last);
	for (int k = 0; k < 2000; k++)
		put(&many, j.p + last, scan_len);
	put(&many, "\xff\xd9", 2);
	struct image img;
	char why[256] = "";
	assert_int_equal(image_decode(many.p, many.len, NULL, &img, why, sizeof why), -1);
	assert_non_null(strstr(why, "scans"));
	free(j.p);
	free(many.p);
}

static void test_not_an_image_says_so(void **state)
{
	(void)state;
	struct image img;
	char why[256] = "";
	assert_int_equal(image_decode("GIF89a......", 12, NULL, &img, why, sizeof why), -1);
	assert_string_equal(why, "not a PNG or JPEG image");
	assert_int_equal(image_decode("", 0, NULL, &img, why, sizeof why), -1);
	assert_non_null(strstr(why, "too short"));
	assert_true(image_name_is_image("figure-1.PNG"));
	assert_true(image_name_is_image("a.jpeg"));
	assert_false(image_name_is_image("png"));
	assert_false(image_name_is_image("data.csv"));
}

static void test_load_takes_only_a_regular_file_and_never_waits(void **state)
{
	(void)state;
	char dir[] = "/tmp/sandpit-image.XXXXXX", path[128], fifo[128], link[128];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/f.png", dir);
	snprintf(fifo, sizeof fifo, "%s/fifo.png", dir);
	snprintf(link, sizeof link, "%s/link.png", dir);
	struct buf b = png_rgba(2, 2, four);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(b.p, 1, b.len, f);
	fclose(f);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(symlink(path, link), 0);

	struct image img;
	char why[256] = "";
	assert_int_equal(image_load(path, NULL, &img, why, sizeof why), 0);
	assert_memory_equal(img.rgba, four, 16);
	image_free(&img);
	assert_int_equal(image_load(fifo, NULL, &img, why, sizeof why), -1);
	assert_non_null(strstr(why, "not a regular file"));
	assert_int_equal(image_load(link, NULL, &img, why, sizeof why), -1);
	assert_non_null(strstr(why, "symbolic link"));
	assert_int_equal(image_load(dir, NULL, &img, why, sizeof why), -1);
	struct image_limits lim;
	image_limits_default(&lim);
	lim.max_bytes = 10;
	assert_int_equal(image_load(path, &lim, &img, why, sizeof why), -1);
	assert_non_null(strstr(why, "too large"));
	unlink(path);
	unlink(fifo);
	unlink(link);
	rmdir(dir);
	free(b.p);
}

/* Left half black, right half white, 64 x 32 pixels (8 x 4 cells of
 * 8 x 8 pixels, chafa's cell, so no cell straddles the edge). */
static struct image two_colour(void)
{
	struct image img = { 64, 32, calloc(64 * 32, 4) };
	assert_non_null(img.rgba);
	for (int y = 0; y < 32; y++)
		for (int x = 0; x < 64; x++) {
			unsigned char *p = img.rgba + (y * 64 + x) * 4;
			p[0] = p[1] = p[2] = x < 32 ? 0 : 255;
			p[3] = 255;
		}
	return img;
}

static void test_chafa_draws_two_colours_as_expected(void **state)
{
	(void)state;
	struct image img = two_colour();
	struct image_cells c;
	char why[256] = "";

	/* 8x4 cells, 256 colours: each cell is one colour, black left, white right */
	assert_int_equal(image_render(&img, 8, 4, IMAGE_MODE_256, IMAGE_SYM_BLOCK, &c, why, sizeof why), 0);
	assert_int_equal(c.cols, 8);
	assert_int_equal(c.rows, 4);
	for (int y = 0; y < 4; y++)
		for (int x = 0; x < 8; x++) {
			const struct image_cell *e = &c.cell[y * 8 + x];
			/* the colour that shows: bg for a space, fg for a full block */
			if (getenv("DUMP")) fprintf(stderr, "%d,%d U+%04x fg %d bg %d\n", x, y, e->ch, e->fg, e->bg);
			int shown = e->ch == 0x2588 ? e->fg : e->ch == ' ' ? e->bg : -2;
			assert_true(shown != -2);
			if (x < 4)
				assert_true(shown == 0 || shown == 16);
			else
				assert_true(shown == 15 || shown == 231);
		}
	image_cells_free(&c);

	/* 3 cells wide: the middle cell straddles the edge, a half block */
	assert_int_equal(image_render(&img, 3, 2, IMAGE_MODE_DIRECT, IMAGE_SYM_BLOCK, &c, why, sizeof why), 0);
	const struct image_cell *m = &c.cell[1];
	assert_true(m->ch == 0x258c || m->ch == 0x2590);  /* ▌ or ▐ */
	int ink = m->ch == 0x258c ? m->fg : m->bg;       /* the left half's colour */
	assert_int_equal(ink & 0xffffff, 0x000000);
	int paper = m->ch == 0x258c ? m->bg : m->fg;
	assert_int_equal(paper & 0xffffff, 0xffffff);
	image_cells_free(&c);

	/* no colour: symbols only; the picture's two halves differ in ink */
	assert_int_equal(image_render(&img, 8, 4, IMAGE_MODE_MONO, IMAGE_SYM_BLOCK, &c, why, sizeof why), 0);
	for (int i = 0; i < 32; i++) {
		assert_int_equal(c.cell[i].fg, -1);
		assert_int_equal(c.cell[i].bg, -1);
	}
	assert_true(c.cell[0].ch != c.cell[7].ch);
	assert_true((c.cell[0].ch == ' ') != (c.cell[7].ch == ' '));
	assert_true(c.cell[0].ch == 0x2588 || c.cell[7].ch == 0x2588);
	image_cells_free(&c);

	/* 8 colours, fg only: bg is always the terminal's */
	assert_int_equal(image_render(&img, 8, 4, IMAGE_MODE_8_FG, IMAGE_SYM_BLOCK, &c, why, sizeof why), 0);
	for (int i = 0; i < 32; i++) {
		assert_int_equal(c.cell[i].bg, -1);
		assert_true(c.cell[i].fg >= -1 && c.cell[i].fg <= 7);
	}
	image_cells_free(&c);

	/* ASCII only */
	assert_int_equal(image_render(&img, 8, 4, IMAGE_MODE_MONO, IMAGE_SYM_ASCII, &c, why, sizeof why), 0);
	int inked = 0;
	for (int i = 0; i < 32; i++) {
		assert_in_range(c.cell[i].ch, 0x20, 0x7e);
		inked += c.cell[i].ch != ' ';
	}
	assert_in_range(inked, 8, 24);
	image_cells_free(&c);
	image_free(&img);
}

static void test_a_full_screen_render_is_quick(void **state)
{
	(void)state;
	/* a 640x480 chart-like picture: white, a blue curve, black axes */
	struct image img = { 640, 480, malloc(640 * 480 * 4) };
	assert_non_null(img.rgba);
	memset(img.rgba, 255, 640 * 480 * 4);
	for (int x = 0; x < 640; x++) {
		int y = 240 + (int)(100.0 * ((x % 160) - 80) / 80.0);
		unsigned char *p = img.rgba + ((size_t)y * 640 + x) * 4;
		p[0] = 31; p[1] = 119; p[2] = 180;
		img.rgba[((size_t)400 * 640 + x) * 4] = 0;
	}
	struct image_cells c;
	char why[128];
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(image_render(&img, 200, 60, IMAGE_MODE_256, IMAGE_SYM_BLOCK, &c, why, sizeof why), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	SP_TIMING(ms < 1000, "40 ms", "640x480 to 200x60 cells (one thread): %.1f ms", ms);
	image_cells_free(&c);
	image_free(&img);
}

/* The picture in pixels (graphics.h): kitty's APC strings carry the id
 * asked for, answers off, and the image's cells; sixel's is one DCS
 * string whose palette has the picture's two colours. */
static void test_pixels_are_kitty_or_sixel_strings(void **state)
{
	(void)state;
	struct image img = two_colour();
	size_t len;
	struct timespec t0, t1;

	char *k = image_pixels(&img, true, 0, 8, 4, 10, 20, &len);
	assert_non_null(k);
	assert_true(len > 64 && !memcmp(k, "\033_Ga=T,", 7));
	assert_null(memmem(k, len, "i=", 2));
	assert_non_null(memmem(k, len, "c=8,r=4", 7));
	/* no more pixels than the picture has: the terminal scales to c x r */
	assert_non_null(memmem(k, len, "s=32,v=32,", 10));
	assert_true(!memcmp(k + len - 2, "\033\\", 2));
	free(k);
	k = image_pixels(&img, true, 21328, 8, 4, 10, 20, &len);
	assert_non_null(k);
	static const char head[] = "\033_Gi=21328,q=2,a=T,";
	assert_true(!memcmp(k, head, sizeof head - 1));
	/* the id only once: the later chunks continue the first */
	assert_null(memmem(k + sizeof head - 1, len - (sizeof head - 1), "i=21328", 7));
	free(k);

	char *x = image_pixels(&img, false, 21328, 8, 4, 10, 20, &len);
	assert_non_null(x);
	assert_true(len > 8 && !memcmp(x, "\033P", 2));
	char *q = memchr(x, 'q', len);
	assert_non_null(q);
	assert_non_null(memmem(x, len, "#0;2;0;0;0", 10));       /* black */
	assert_non_null(memmem(x, len, ";2;100;100;100", 14));   /* white, in percent */
	assert_true(!memcmp(x + len - 2, "\033\\", 2));
	assert_null(memmem(x, len, "\033_G", 3));
	free(x);

	/* a screenful, as the large view sends it */
	struct image big = { 640, 480, malloc(640 * 480 * 4) };
	assert_non_null(big.rgba);
	memset(big.rgba, 255, 640 * 480 * 4);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	x = image_pixels(&big, false, 0, 120, 38, 10, 20, &len);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_non_null(x);
	double ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	SP_TIMING(ms < 2000, "100 ms", "640x480 to sixel, 120x38 cells of 10x20: %.1f ms, %zu bytes",
		  ms, len);
	free(x);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	k = image_pixels(&big, true, 0, 120, 38, 10, 20, &len);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_non_null(k);
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	SP_TIMING(ms < 2000, "100 ms", "640x480 to kitty, 120x38 cells of 10x20: %.1f ms, %zu bytes",
		  ms, len);
	free(k);
	image_free(&big);
	image_free(&img);
}

/* Counts cells of c that are not blank. */
static int inked_cells(const struct image_cells *c)
{
	int n = 0;
	for (int i = 0; i < c->cols * c->rows; i++)
		n += c->cell[i].ch != ' ';
	return n;
}

static void test_thin_lines_survive_without_colour(void **state)
{
	(void)state;
	/* a chart's essentials: white paper, a 2-pixel black axis across, a
	 * 2-pixel blue line down; 640x480 into 80x24 cells (8x20 pixels each) */
	struct image img = { 640, 480, malloc(640 * 480 * 4) };
	assert_non_null(img.rgba);
	memset(img.rgba, 255, 640 * 480 * 4);
	for (int x = 0; x < 640; x++)
		for (int y = 400; y < 402; y++)
			memset(img.rgba + ((size_t)y * 640 + x) * 4, 0, 3);
	for (int y = 0; y < 480; y++)
		for (int x = 300; x < 302; x++) {
			unsigned char *p = img.rgba + ((size_t)y * 640 + x) * 4;
			p[0] = 31; p[1] = 119; p[2] = 180;
		}
	struct image_cells c;
	char why[128];
	/* mono: both lines drawn, as symbols, in the terminal's own colours */
	assert_int_equal(image_render(&img, 80, 24, IMAGE_MODE_MONO, IMAGE_SYM_BLOCK, &c, why, sizeof why), 0);
	assert_true(inked_cells(&c) >= 80 + 20);
	assert_true(inked_cells(&c) <= 80 + 24 + 4);
	image_cells_free(&c);
	/* 8 colours, fg only: the blue line in a colour (blue or cyan), the
	 * black axis in the terminal's own fg (black may be its bg) */
	assert_int_equal(image_render(&img, 80, 24, IMAGE_MODE_8_FG, IMAGE_SYM_BLOCK, &c, why, sizeof why), 0);
	assert_true(inked_cells(&c) >= 80 + 20);
	int blue = 0, dflt = 0;
	for (int i = 0; i < 80 * 24; i++) {
		if (c.cell[i].ch == ' ')
			continue;
		assert_int_equal(c.cell[i].bg, -1);
		blue += c.cell[i].fg == 4 || c.cell[i].fg == 6;
		dflt += c.cell[i].fg == -1;
	}
	assert_true(blue >= 20);
	assert_true(dflt >= 70);
	image_cells_free(&c);
	image_free(&img);
}

static void test_fit_keeps_the_aspect_in_cells(void **state)
{
	(void)state;
	struct image img = { 640, 480, NULL };
	int cols;
	/* 640x480 at 80 columns: 80 x 30 rows (cells are twice as high) */
	assert_int_equal(image_fit(&img, 80, 100, &cols), 30);
	assert_int_equal(cols, 80);
	/* capped at 12 rows: 32 columns keep the shape */
	assert_int_equal(image_fit(&img, 80, 12, &cols), 12);
	assert_int_equal(cols, 32);
	/* a 2x2 picture is not blown up */
	struct image tiny = { 2, 2, NULL };
	assert_int_equal(image_fit(&tiny, 80, 12, &cols), 1);
	assert_int_equal(cols, 2);
}

static void test_fit_in_pixels_keeps_the_aspect_in_pixels(void **state)
{
	(void)state;
	struct image img = { 600, 350, NULL };
	int cols;

	/* xterm's 6x13 cells, 100x28 of them: the width bounds it */
	assert_int_equal(image_fit_pixels(&img, 100, 28, 6, 13, &cols), 27);
	assert_int_equal(cols, 100);
	/* wider room: the height does, 364 pixels high and 624 wide */
	assert_int_equal(image_fit_pixels(&img, 200, 28, 6, 13, &cols), 28);
	assert_int_equal(cols, 104);
	/* a small picture is drawn larger, to the room there is */
	struct image small = { 64, 32, NULL };
	assert_int_equal(image_fit_pixels(&small, 120, 38, 10, 20, &cols), 30);
	assert_int_equal(cols, 120);
	assert_int_equal(image_fit_pixels(&small, 0, 38, 10, 20, &cols), 1);
}

static void test_shrink_averages_and_keeps_the_aspect(void **state)
{
	(void)state;
	struct image img = two_colour(), s;
	assert_int_equal(image_shrink(&img, 4, 100, &s), 0);
	assert_int_equal(s.w, 4);
	assert_int_equal(s.h, 2);
	assert_int_equal(s.rgba[1 * 4], 0);
	assert_int_equal(s.rgba[0], 0);
	assert_int_equal(s.rgba[3 * 4], 255);
	image_free(&s);
	image_free(&img);
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_tiny_png_decodes_to_its_exact_pixels),
		cmocka_unit_test(test_palette_and_grey_pngs_come_out_as_rgba),
		cmocka_unit_test(test_huge_dimensions_in_ihdr_are_refused_before_decoding),
		cmocka_unit_test(test_a_truncated_png_is_refused_at_every_cut),
		cmocka_unit_test(test_decompression_bombs_are_bounded),
		cmocka_unit_test(test_thousands_of_ancillary_chunks_are_bounded),
		cmocka_unit_test(test_jpeg_decodes_and_its_caps_hold),
		cmocka_unit_test(test_a_cmyk_jpeg_comes_out_as_rgb),
		cmocka_unit_test(test_a_jpeg_with_endless_scans_is_stopped),
		cmocka_unit_test(test_not_an_image_says_so),
		cmocka_unit_test(test_load_takes_only_a_regular_file_and_never_waits),
		cmocka_unit_test(test_chafa_draws_two_colours_as_expected),
		cmocka_unit_test(test_a_full_screen_render_is_quick),
		cmocka_unit_test(test_pixels_are_kitty_or_sixel_strings),
		cmocka_unit_test(test_thin_lines_survive_without_colour),
		cmocka_unit_test(test_fit_keeps_the_aspect_in_cells),
		cmocka_unit_test(test_fit_in_pixels_keeps_the_aspect_in_pixels),
		cmocka_unit_test(test_shrink_averages_and_keeps_the_aspect),
	};
	return cmocka_run_group_tests_name("image", tests, NULL, NULL);
}
