/* SPDX-License-Identifier: MIT */
/*
 * image_decode.c - PNG (libpng) and JPEG (libjpeg-turbo) to RGBA8, bounded.
 *
 * The picture comes from a program we do not trust, so every cost is
 * capped before it is paid:
 *  - the file: a regular file, opened without following a symlink and
 *    without blocking (a FIFO is refused, never waited on), read up to
 *    the byte cap; one byte more means "too big".
 *  - PNG: the 8-byte signature, then IHDR is read and width, height and
 *    width * height checked against our caps before a row is allocated.
 *    png_set_user_limits makes libpng refuse larger sizes itself too, and
 *    png_set_chunk_malloc_max / png_set_chunk_cache_max bound what the
 *    ancillary chunks (zTXt, iCCP, iTXt: compressed, so a bomb fits in a
 *    few bytes) may inflate to and how many there may be. IDAT inflates
 *    only into the rows we allocated for the stated size, so a "small
 *    zlib stream claiming a huge image" is refused at IHDR, and one that
 *    inflates to more than its rows is an error, not a bigger buffer.
 *  - JPEG: jpeg_read_header reads up to SOF/SOS; the size is checked
 *    there. The memory manager is capped (max_memory_to_use; there is no
 *    backing store, so more is an error), and a progress monitor stops a
 *    progressive file after IMAGE_MAX_SCANS scans (the known way to make
 *    a tiny JPEG take minutes: thousands of one-coefficient scans).
 *  - A truncated file is an error with its reason, in both formats
 *    (libjpeg would otherwise pad it with grey and only warn).
 * Both libraries report errors by longjmp out of the decoder; the state
 * touched after setjmp is volatile, and everything is freed on that path.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <png.h>
#include <jpeglib.h>
#include <jerror.h>

#include "image/image.h"
#include "banned.h"

/* Progressive JPEGs of ordinary programs have about ten scans. */
#define IMAGE_MAX_SCANS 256
/* What one ancillary PNG chunk may inflate to, and how many are kept. */
#define PNG_CHUNK_MAX (4u << 20)
#define PNG_CHUNKS_MAX 256
/* Beyond the pixels themselves, what libjpeg may allocate. */
#define JPEG_EXTRA_MEM (64u << 20)

void image_limits_default(struct image_limits *lim)
{
	lim->max_bytes = IMAGE_MAX_BYTES;
	lim->max_w = IMAGE_MAX_SIDE;
	lim->max_h = IMAGE_MAX_SIDE;
	lim->max_pixels = IMAGE_MAX_PIXELS;
}

enum image_type image_sniff(const void *data, size_t len)
{
	static const unsigned char png_sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	const unsigned char *p = data;

	if (len >= 8 && !memcmp(p, png_sig, 8))
		return IMAGE_PNG;
	if (len >= 3 && p[0] == 0xff && p[1] == 0xd8 && p[2] == 0xff)
		return IMAGE_JPEG;
	return IMAGE_NONE;
}

bool image_name_is_image(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot && (!strcasecmp(dot, ".png") || !strcasecmp(dot, ".jpg") ||
		       !strcasecmp(dot, ".jpeg"));
}

void image_free(struct image *img)
{
	free(img->rgba);
	img->rgba = NULL;
	img->w = img->h = 0;
}

/* The size check both formats make once the header is read. */
static int check_size(unsigned long w, unsigned long h, const struct image_limits *lim,
		      char *why, size_t whylen)
{
	if (w == 0 || h == 0) {
		snprintf(why, whylen, "image has no pixels: %lux%lu", w, h);
		return -1;
	}
	if (w > (unsigned long)lim->max_w || h > (unsigned long)lim->max_h ||
	    (uint64_t)w * h > lim->max_pixels) {
		snprintf(why, whylen, "image too large: %lux%lu pixels (limit %dx%d, %llu pixels)",
			 w, h, lim->max_w, lim->max_h, (unsigned long long)lim->max_pixels);
		return -1;
	}
	return 0;
}

/* ---- PNG ---- */

struct png_src {
	const unsigned char *data;
	size_t len, off;
	char *why;
	size_t whylen;
};

/* libpng's reader over our buffer: a short read is the file's end. */
static void png_read_mem(png_structp png, png_bytep out, size_t n)
{
	struct png_src *s = png_get_io_ptr(png);

	if (n > s->len - s->off)
		png_error(png, "the file ends early (truncated)");
	memcpy(out, s->data + s->off, n);
	s->off += n;
}

/* libpng's fatal errors: keep the first reason, unwind to setjmp. */
static void png_on_error(png_structp png, png_const_charp msg)
{
	struct png_src *s = png_get_error_ptr(png);

	if (s->why[0] == '\0')
		snprintf(s->why, s->whylen, "damaged PNG: %s", msg);
	png_longjmp(png, 1);
}

/* libpng's warnings: ignored. */
static void png_on_warning(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg; /* ancillary trouble only: the picture itself is intact */
}

/* The known ancillary chunks we ignore, as libpng wants the list. */
static const char skipped[] = "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0"
			      "pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0tEXt\0tIME\0zTXt";

/* PNG in data to out (RGBA8) within lim; 0, or -1 with why. */
static int decode_png(const unsigned char *data, size_t len, const struct image_limits *lim,
		      struct image *out, char *why, size_t whylen)
{
	struct png_src src = { data, len, 0, why, whylen };
	png_structp png;
	png_infop info = NULL;
	unsigned char *volatile rgba = NULL;
	png_bytep *volatile rows = NULL;

	png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, png_on_error, png_on_warning);
	if (!png || !(info = png_create_info_struct(png))) {
		png_destroy_read_struct(&png, NULL, NULL);
		snprintf(why, whylen, "out of memory decoding the image");
		return -1;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_read_struct(&png, &info, NULL);
		free(rgba);
		free(rows);
		if (!why[0])
			snprintf(why, whylen, "damaged PNG");
		return -1;
	}
	png_set_user_limits(png, (png_uint_32)lim->max_w, (png_uint_32)lim->max_h);
	png_set_chunk_malloc_max(png, PNG_CHUNK_MAX);
	png_set_chunk_cache_max(png, PNG_CHUNKS_MAX);
	/* Only IHDR, PLTE, tRNS and IDAT make the picture: every other chunk
	 * is skipped unread (so a text or ICC profile bomb is never inflated,
	 * not even up to the cap above). */
	png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
	png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, (png_const_bytep)skipped,
				    (int)(sizeof skipped / 5));
	png_set_read_fn(png, &src, png_read_mem);

	/* IHDR first: refuse before anything is allocated for the pixels. The
	 * dimensions are read from the chunk ourselves so the message gives
	 * them even when libpng's own limit would have stopped it. */
	if (len >= 24 && !memcmp(data + 12, "IHDR", 4)) {
		unsigned long w = (unsigned long)data[16] << 24 | (unsigned long)data[17] << 16 |
				  (unsigned long)data[18] << 8 | data[19];
		unsigned long h = (unsigned long)data[20] << 24 | (unsigned long)data[21] << 16 |
				  (unsigned long)data[22] << 8 | data[23];
		if (check_size(w, h, lim, why, whylen)) {
			png_destroy_read_struct(&png, &info, NULL);
			return -1;
		}
	}
	png_read_info(png, info);
	png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
	if (check_size(w, h, lim, why, whylen))
		png_longjmp(png, 1);

	/* whatever it holds: 8 bits a channel, RGB, with an alpha channel */
	int type = png_get_color_type(png, info);
	png_set_expand(png);               /* palette, gray < 8 bits, tRNS */
	png_set_strip_16(png);
	if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA)
		png_set_gray_to_rgb(png);
	png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
	png_set_interlace_handling(png);
	png_read_update_info(png, info);
	if (png_get_rowbytes(png, info) != (size_t)w * 4) {
		snprintf(why, whylen, "PNG of an unsupported kind");
		png_longjmp(png, 1);
	}

	rgba = malloc((size_t)w * h * 4);
	rows = malloc(sizeof *rows * h);
	if (!rgba || !rows) {
		snprintf(why, whylen, "out of memory for a %ux%u image", (unsigned)w, (unsigned)h);
		png_longjmp(png, 1);
	}
	for (png_uint_32 y = 0; y < h; y++)
		rows[y] = rgba + (size_t)y * w * 4;
	png_read_image(png, rows);
	/* the end (IEND) is not needed for the picture: stop here */
	png_destroy_read_struct(&png, &info, NULL);
	free(rows);
	out->w = (int)w;
	out->h = (int)h;
	out->rgba = rgba;
	return 0;
}

/* ---- JPEG ---- */

struct jpeg_err {
	struct jpeg_error_mgr mgr;
	jmp_buf jmp;
	char *why;
	size_t whylen;
};

/* libjpeg's fatal errors: keep the first reason, unwind to setjmp. */
static void jpeg_on_error(j_common_ptr cinfo)
{
	struct jpeg_err *e = (struct jpeg_err *)cinfo->err;
	char msg[JMSG_LENGTH_MAX];

	if (e->why[0] == '\0') {
		e->mgr.format_message(cinfo, msg);
		snprintf(e->why, e->whylen, "cannot decode the JPEG: %s", msg);
	}
	longjmp(e->jmp, 1);
}

/* Warnings: a file that ends early is refused (libjpeg would fill the
 * rest with grey); other corrupt-data warnings are let through. */
static void jpeg_on_message(j_common_ptr cinfo, int level)
{
	struct jpeg_err *e = (struct jpeg_err *)cinfo->err;

	if (level < 0 && e->mgr.msg_code == JWRN_JPEG_EOF) {
		snprintf(e->why, e->whylen, "damaged JPEG: the file ends early (truncated)");
		longjmp(e->jmp, 1);
	}
}

/* Called as libjpeg goes: stops a file with too many scans. */
static void jpeg_on_progress(j_common_ptr cinfo)
{
	j_decompress_ptr d = (j_decompress_ptr)cinfo;
	struct jpeg_err *e = (struct jpeg_err *)cinfo->err;

	if (!cinfo->is_decompressor)
		return;
	if (d->input_scan_number > IMAGE_MAX_SCANS) {
		snprintf(e->why, e->whylen, "JPEG refused: more than %d scans "
			 "(a file made to take long to decode)", IMAGE_MAX_SCANS);
		longjmp(e->jmp, 1);
	}
}

/* In place: CMYK to RGBA. Files with Adobe's marker (Photoshop, PIL)
 * store the inks inverted, 255 = none; others store them as they are. */
static void cmyk_to_rgba(unsigned char *px, size_t n, bool inverted)
{
	for (size_t i = 0; i < n; i++, px += 4) {
		unsigned c = px[0], m = px[1], y = px[2], k = px[3];
		if (!inverted) {
			c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k;
		}
		px[0] = (unsigned char)(c * k / 255);
		px[1] = (unsigned char)(m * k / 255);
		px[2] = (unsigned char)(y * k / 255);
		px[3] = 255;
	}
}

/* JPEG in data to out (RGBA8) within lim; 0, or -1 with why. */
static int decode_jpeg(const unsigned char *data, size_t len, const struct image_limits *lim,
		       struct image *out, char *why, size_t whylen)
{
	struct jpeg_decompress_struct cinfo;
	struct jpeg_err err;
	struct jpeg_progress_mgr progress;
	unsigned char *volatile rgba = NULL;

	memset(&cinfo, 0, sizeof cinfo);
	cinfo.err = jpeg_std_error(&err.mgr);
	err.mgr.error_exit = jpeg_on_error;
	err.mgr.emit_message = jpeg_on_message;
	err.why = why;
	err.whylen = whylen;
	if (setjmp(err.jmp)) {
		jpeg_destroy_decompress(&cinfo);
		free(rgba);
		if (!why[0])
			snprintf(why, whylen, "damaged JPEG");
		return -1;
	}
	jpeg_create_decompress(&cinfo);
	cinfo.mem->max_memory_to_use = (long)(lim->max_pixels * 4 + JPEG_EXTRA_MEM);
	progress.progress_monitor = jpeg_on_progress;
	cinfo.progress = &progress;
	jpeg_mem_src(&cinfo, data, (unsigned long)len);
	jpeg_read_header(&cinfo, TRUE);
	if (check_size(cinfo.image_width, cinfo.image_height, lim, why, whylen))
		longjmp(err.jmp, 1);
	/* libjpeg-turbo: 4 bytes a pixel, alpha 255; CMYK comes as CMYK and
	 * is converted below (libjpeg has no CMYK to RGB) */
	bool cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
	cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
	jpeg_start_decompress(&cinfo);
	if (cinfo.output_components != 4) {
		snprintf(why, whylen, "JPEG of an unsupported kind");
		longjmp(err.jmp, 1);
	}
	size_t w = cinfo.output_width, h = cinfo.output_height;
	rgba = malloc(w * h * 4);
	if (!rgba) {
		snprintf(why, whylen, "out of memory for a %zux%zu image", w, h);
		longjmp(err.jmp, 1);
	}
	while (cinfo.output_scanline < cinfo.output_height) {
		JSAMPROW row = rgba + (size_t)cinfo.output_scanline * w * 4;
		jpeg_read_scanlines(&cinfo, &row, 1);
	}
	if (cmyk)
		cmyk_to_rgba(rgba, w * h, cinfo.saw_Adobe_marker);
	/* not jpeg_finish_decompress: what follows the last row is not needed */
	jpeg_destroy_decompress(&cinfo);
	out->w = (int)w;
	out->h = (int)h;
	out->rgba = rgba;
	return 0;
}

int image_decode(const void *data, size_t len, const struct image_limits *lim,
		 struct image *out, char *why, size_t whylen)
{
	struct image_limits def;

	out->w = out->h = 0;
	out->rgba = NULL;
	why[0] = '\0';
	if (!lim) {
		image_limits_default(&def);
		lim = &def;
	}
	if (len > lim->max_bytes) {
		snprintf(why, whylen, "image file too large: %zu bytes (limit %zu)", len,
			 lim->max_bytes);
		return -1;
	}
	switch (image_sniff(data, len)) {
	case IMAGE_PNG:
		return decode_png(data, len, lim, out, why, whylen);
	case IMAGE_JPEG:
		return decode_jpeg(data, len, lim, out, why, whylen);
	default:
		snprintf(why, whylen, "not a PNG or JPEG image%s", len < 8 ? " (too short)" : "");
		return -1;
	}
}

int image_load(const char *path, const struct image_limits *lim,
	       struct image *out, char *why, size_t whylen)
{
	struct image_limits def;
	struct stat st;
	unsigned char *buf;
	size_t len = 0;
	int fd, rc;

	out->w = out->h = 0;
	out->rgba = NULL;
	if (!lim) {
		image_limits_default(&def);
		lim = &def;
	}
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int e = errno;
		snprintf(why, whylen, "cannot open the image: %s",
			 e == ELOOP ? "it is a symbolic link" : strerror(e));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(why, whylen, "not a regular file: not shown");
		return -1;
	}
	if ((uint64_t)st.st_size > lim->max_bytes) {
		close(fd);
		snprintf(why, whylen, "image file too large: %lld bytes (limit %zu)",
			 (long long)st.st_size, lim->max_bytes);
		return -1;
	}
	/* the size may change under us: read at most one byte past the cap */
	size_t cap = (size_t)st.st_size + 1;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		snprintf(why, whylen, "out of memory reading the image");
		return -1;
	}
	for (;;) {
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			close(fd);
			free(buf);
			snprintf(why, whylen, "cannot read the image: %s", strerror(e));
			return -1;
		}
		if (n == 0 || (len += (size_t)n) == cap)
			break;
	}
	close(fd);
	if (len == cap) {
		free(buf);
		snprintf(why, whylen, "the image file grew while it was read: not shown");
		return -1;
	}
	rc = image_decode(buf, len, lim, out, why, whylen);
	free(buf);
	return rc;
}

int image_shrink(const struct image *img, int max_w, int max_h, struct image *out)
{
	int w = img->w, h = img->h;

	if (w > max_w) {
		h = (int)((long)h * max_w / w);
		w = max_w;
	}
	if (h > max_h) {
		w = (int)((long)w * max_h / h);
		h = max_h;
	}
	if (w < 1) w = 1;
	if (h < 1) h = 1;
	out->rgba = malloc((size_t)w * h * 4);
	if (!out->rgba)
		return -1;
	out->w = w;
	out->h = h;
	/* box filter: each target pixel averages the source pixels it covers */
	for (int y = 0; y < h; y++) {
		int y0 = (int)((long)y * img->h / h), y1 = (int)((long)(y + 1) * img->h / h);
		if (y1 <= y0) y1 = y0 + 1;
		for (int x = 0; x < w; x++) {
			int x0 = (int)((long)x * img->w / w), x1 = (int)((long)(x + 1) * img->w / w);
			if (x1 <= x0) x1 = x0 + 1;
			unsigned long sum[4] = { 0, 0, 0, 0 }, n = 0;
			for (int sy = y0; sy < y1; sy++) {
				const unsigned char *p = img->rgba + ((size_t)sy * img->w + x0) * 4;
				for (int sx = x0; sx < x1; sx++, p += 4, n++)
					for (int c = 0; c < 4; c++)
						sum[c] += p[c];
			}
			unsigned char *q = out->rgba + ((size_t)y * w + x) * 4;
			for (int c = 0; c < 4; c++)
				q[c] = (unsigned char)(sum[c] / n);
		}
	}
	return 0;
}
