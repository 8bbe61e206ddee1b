/* SPDX-License-Identifier: MIT */
/*
 * image.h - pictures a run left behind: decoded safely, drawn in cells.
 *
 * A PNG or JPEG in a run's files was written by an untrusted program, so
 * decoding is bounded before it starts: the file's bytes, then width,
 * height and total pixels as the header states them (PNG's IHDR, JPEG's
 * SOF), then what the decoder may allocate on the way (PNG ancillary
 * chunks, JPEG's coefficient buffers) and the number of JPEG scans. A
 * refusal is a sentence fit to show instead of the picture.
 *
 * Drawing goes through libchafa, which maps pixels to Unicode block
 * symbols (or ASCII) in the colours the terminal has: direct colour,
 * 256, 16, 8, or none (symbols only).
 *
 * Invariants:
 *  - struct image: rgba holds w * h * 4 bytes, rows top to bottom,
 *    RGBA8 with straight (not premultiplied) alpha; w, h >= 1. image_free
 *    leaves it empty ({0}), and is safe on an empty one.
 *  - struct image_cells: cols * rows cells, each one character of width 1
 *    and its colours in the chosen mode's terms.
 */
#ifndef SP_IMAGE_H
#define SP_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct image {
	int w, h;
	unsigned char *rgba;
};

/* Bounds on what will be decoded; image_limits_default() gives ours. */
struct image_limits {
	size_t max_bytes;     /* of the file */
	int max_w, max_h;     /* each side, in pixels */
	uint64_t max_pixels;  /* w * h */
};

/* 32 MiB files, 8192 pixels a side, 16 Mpixels (64 MiB as RGBA). */
#define IMAGE_MAX_BYTES  (32u << 20)
#define IMAGE_MAX_SIDE   8192
#define IMAGE_MAX_PIXELS (16u << 20)

void image_limits_default(struct image_limits *lim);

enum image_type { IMAGE_NONE, IMAGE_PNG, IMAGE_JPEG };

/* The type the first bytes announce (IMAGE_NONE: neither). */
enum image_type image_sniff(const void *data, size_t len);

/* True when name ends in .png, .jpg or .jpeg (any case). */
bool image_name_is_image(const char *name);

/*
 * Decodes a PNG or JPEG held in memory into out (RGBA8). 0 on success;
 * -1 with why = a sentence ("image too large: 40000x40000 pixels (limit
 * 8192x8192, 16777216 pixels)") and out left empty. lim NULL = defaults.
 */
int image_decode(const void *data, size_t len, const struct image_limits *lim,
		 struct image *out, char *why, size_t whylen);

/*
 * Reads the file at path (a regular file only, never through a symlink
 * at its last component, at most lim->max_bytes, never waiting on a FIFO)
 * and decodes it. Same contract as image_decode.
 */
int image_load(const char *path, const struct image_limits *lim,
	       struct image *out, char *why, size_t whylen);

void image_free(struct image *img);

/*
 * A copy of img shrunk (box filter, aspect kept) to fit max_w x max_h;
 * an exact copy when it already fits. 0, or -1 out of memory.
 */
int image_shrink(const struct image *img, int max_w, int max_h, struct image *out);

/*
 * img as the escape sequence that draws it cols x rows cells large at
 * the cursor, in kitty's graphics protocol (kitty) or as sixel (else),
 * cells being cell_w x cell_h pixels: malloc'd, *len bytes, or NULL.
 * kitty_id, when not 0, names the kitty image (so that it can be deleted
 * alone, graphics.h), answers suppressed. The cursor is left after it:
 * the caller saves and restores it.
 */
char *image_pixels(const struct image *img, bool kitty, unsigned kitty_id, int cols, int rows,
		   int cell_w, int cell_h, size_t *len);

/* ---- cells ---- */

/* How the terminal shows colour, richest first. */
enum image_mode {
	IMAGE_MODE_DIRECT,   /* fg/bg are 0xRRGGBB */
	IMAGE_MODE_256,      /* fg/bg are palette indexes 0..255 */
	IMAGE_MODE_16,       /* 0..15 */
	IMAGE_MODE_8,        /* 0..7 */
	IMAGE_MODE_8_FG,     /* 0..7 ink on the terminal's bg (bg = -1) */
	IMAGE_MODE_MONO,     /* no colour: fg = bg = -1, symbols only */
};

/* Which symbols may be used. */
enum image_symbols {
	IMAGE_SYM_BLOCK,     /* Unicode blocks and quadrants (UTF-8 locales) */
	IMAGE_SYM_ASCII,     /* printable ASCII only */
};

struct image_cell {
	uint32_t ch;         /* a Unicode code point of width 1 */
	int32_t fg, bg;      /* as the mode says; -1 = the terminal's default */
	unsigned char reverse; /* mono, 8 fg-only: the ink is where ch is not */
};

struct image_cells {
	int cols, rows;
	enum image_mode mode;
	struct image_cell *cell;   /* rows * cols, row by row */
};

/*
 * The rows a picture of img takes when drawn max_cols wide and at most
 * max_rows high, the aspect kept (a cell is about twice as high as it is
 * wide); *cols gets the width. Both >= 1 for a non-empty image.
 */
int image_fit(const struct image *img, int max_cols, int max_rows, int *cols);

/*
 * The same for a terminal that draws pixels, its cells cell_w x cell_h
 * pixels: the aspect kept in pixels, as large as max_cols x max_rows
 * allows (a picture is drawn larger than it is, the terminal's own size).
 */
int image_fit_pixels(const struct image *img, int max_cols, int max_rows, int cell_w, int cell_h,
		     int *cols);

/*
 * Renders img into cols x rows cells with libchafa. 0, or -1 with why
 * (out of memory, or a size out of range). The caller frees with
 * image_cells_free.
 */
int image_render(const struct image *img, int cols, int rows, enum image_mode mode,
		 enum image_symbols sym, struct image_cells *out, char *why, size_t whylen);

void image_cells_free(struct image_cells *c);

#endif
