/* SPDX-License-Identifier: MIT */
/*
 * image_draw.c - pixels to character cells with libchafa.
 *
 * A terminal cell shows one symbol in two colours (its fg and bg), so a
 * cell can carry several pixels: chafa fits, for each cell, the symbol
 * from the allowed set (blocks, quadrants, ASCII) and the fg/bg pair that
 * best match the pixels under it, in the colours the canvas mode allows
 * (direct RGB, the 256- 16- or 8-colour palettes). We keep only what
 * chafa decided (symbol, fg, bg per cell); putting it on the screen is
 * image_screen.c's job, so this part is tested without a terminal.
 *
 * Without colour (or with fg only) a cell has ink and no ink, so which
 * colour is the paper matters: we take the picture's most common colour,
 * so a chart on white comes out as its lines and text drawn in symbols,
 * not as a slab of full blocks with holes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <chafa.h>

#include "image/image.h"
#include "image/rgb_hue.h"
#include "banned.h"

/* Terminal cells are about twice as high as wide (chafa's own default). */
#define CELL_ASPECT 2

int image_fit(const struct image *img, int max_cols, int max_rows, int *cols)
{
	int c = max_cols, r;

	if (img->w < 1 || img->h < 1 || max_cols < 1 || max_rows < 1) {
		*cols = 1;
		return 1;
	}
	/* never wider than one cell per pixel */
	if (c > img->w)
		c = img->w;
	r = (int)(((long)img->h * c + (long)img->w * CELL_ASPECT - 1) / ((long)img->w * CELL_ASPECT));
	if (r > max_rows) {
		r = max_rows;
		c = (int)((long)img->w * CELL_ASPECT * r / img->h);
		if (c > max_cols) c = max_cols;
	}
	if (r < 1) r = 1;
	if (c < 1) c = 1;
	*cols = c;
	return r;
}

int image_fit_pixels(const struct image *img, int max_cols, int max_rows, int cell_w, int cell_h,
		     int *cols)
{
	if (img->w < 1 || img->h < 1 || max_cols < 1 || max_rows < 1 || cell_w < 1 || cell_h < 1)
		return image_fit(img, max_cols, max_rows, cols);
	double fw = (double)max_cols * cell_w / img->w, fh = (double)max_rows * cell_h / img->h;
	double f = fw < fh ? fw : fh;
	int c = (int)(img->w * f / cell_w + 0.5), r = (int)(img->h * f / cell_h + 0.5);
	*cols = c < 1 ? 1 : c > max_cols ? max_cols : c;
	return r < 1 ? 1 : r > max_rows ? max_rows : r;
}

/* The picture's paper: its most common colour (opaque pixels, in bins
 * of 4 bits a channel, the bin's mean); white when none is opaque. A
 * sample is enough: at most about 64k pixels. */
static uint32_t paper_rgb(const struct image *img)
{
	static unsigned n[4096];
	static unsigned long long sum[4096][3];
	size_t total = (size_t)img->w * img->h, step = total / 65536 + 1;
	int best = -1;

	memset(n, 0, sizeof n);
	memset(sum, 0, sizeof sum);
	for (size_t i = 0; i < total; i += step) {
		const unsigned char *p = img->rgba + i * 4;
		if (p[3] < 128)
			continue;
		int k = (p[0] >> 4) << 8 | (p[1] >> 4) << 4 | p[2] >> 4;
		n[k]++;
		sum[k][0] += p[0];
		sum[k][1] += p[1];
		sum[k][2] += p[2];
		if (best < 0 || n[k] > n[best])
			best = k;
	}
	if (best < 0)
		return 0xffffff;
	return (uint32_t)(sum[best][0] / n[best]) << 16 | (uint32_t)(sum[best][1] / n[best]) << 8 |
	       (uint32_t)(sum[best][2] / n[best]);
}

static ChafaCanvasMode chafa_mode(enum image_mode m)
{
	switch (m) {
	case IMAGE_MODE_256:    return CHAFA_CANVAS_MODE_INDEXED_256;
	case IMAGE_MODE_16:     return CHAFA_CANVAS_MODE_INDEXED_16;
	case IMAGE_MODE_8:      return CHAFA_CANVAS_MODE_INDEXED_8;
	default:                return CHAFA_CANVAS_MODE_TRUECOLOR; /* direct; ink's fit */
	}
}

/* The ink colour rgb gets among the 8: the nearest by hue (8 colours are
 * too far apart for a distance), and the terminal's own fg (-1) for greys,
 * black and white included: on whatever bg the terminal has, its fg shows.
 * A small cell blends thin ink with its paper (a blue line on white comes
 * out pale blue), so the hue is taken from the ink's way off the paper,
 * stretched to full strength. */
static int32_t ink8(int32_t rgb, uint32_t paper)
{
	int d3[3], m = 0, c3[3];

	if (rgb < 0)
		return -1;
	for (int i = 0; i < 3; i++) {
		d3[i] = (int)((uint32_t)rgb >> (16 - 8 * i) & 255) - (int)(paper >> (16 - 8 * i) & 255);
		if (abs(d3[i]) > m)
			m = abs(d3[i]);
	}
	if (m == 0)
		return -1;
	for (int i = 0; i < 3; i++) {
		int v = (int)(paper >> (16 - 8 * i) & 255) + d3[i] * 255 / m;
		c3[i] = v < 0 ? 0 : v > 255 ? 255 : v;
	}
	static const int32_t sector[6] = { 1, 3, 2, 6, 4, 5 }; /* red yellow green cyan blue magenta */
	int h = rgb_hue_sector(c3[0], c3[1], c3[2]);

	return h < 0 ? -1 : sector[h];
}

/* Whether rgb is ink: far enough from the paper's colour. */
static bool is_ink(int32_t rgb, uint32_t paper)
{
	int d = 0;
	if (rgb < 0)
		return false; /* transparent: the terminal's own background */
	for (int s = 0; s < 24; s += 8) {
		int c = (int)((uint32_t)rgb >> s & 255) - (int)(paper >> s & 255);
		if (c < 0) c = -c;
		if (c > d) d = c;
	}
	return d > 24;
}

/*
 * Without a background colour (mono, 8 colours fg-only) a cell shows ink
 * and no ink. chafa still fits each cell in full colour; the part of the
 * cell that is ink decides: the symbol as it is when its fg is the ink,
 * reversed (A_REVERSE) when its bg is, a full block or a space when the
 * cell is all one. FGBG mode thresholds instead, and loses thin lines.
 */
static void to_ink(struct image_cell *c, gunichar *ch, int32_t fg_rgb, int32_t bg_rgb,
		   uint32_t paper)
{
	bool fi = is_ink(fg_rgb, paper), bi = is_ink(bg_rgb, paper);
	int32_t fg = c->fg, bg = c->bg;

	c->reverse = 0;
	if (*ch == ' ')
		fi = false;  /* a space shows only its bg */
	if (fi && bi) {
		*ch = 0x2588;
		c->fg = fg;
	} else if (bi && *ch == ' ') {
		*ch = 0x2588;  /* all ink; ASCII is mapped below */
		c->fg = bg;
	} else if (bi) {
		c->reverse = 1;
		c->fg = bg;
	} else if (fi) {
		c->fg = fg;
	} else {
		*ch = ' ';
		c->fg = -1;
	}
	c->bg = -1;
}

int image_render(const struct image *img, int cols, int rows, enum image_mode mode,
		 enum image_symbols sym, struct image_cells *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof *out);
	if (!img->rgba || img->w < 1 || img->h < 1 || cols < 1 || rows < 1 ||
	    cols > 4096 || rows > 4096) {
		snprintf(why, whylen, "nothing to draw at %dx%d cells", cols, rows);
		return -1;
	}
	out->cell = calloc((size_t)cols * rows, sizeof *out->cell);
	if (!out->cell) {
		snprintf(why, whylen, "out of memory drawing the image");
		return -1;
	}
	out->cols = cols;
	out->rows = rows;
	out->mode = mode;
	/* No worker threads: this process is the sandbox's supervisor and
	 * clones it; a thread holding malloc's lock at that moment would hang
	 * the child. A screenful of cells takes a few ms on one thread. */
	chafa_set_n_threads(1);

	ChafaSymbolMap *map = chafa_symbol_map_new();
	if (sym == IMAGE_SYM_ASCII) {
		chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_ASCII);
	} else {
		chafa_symbol_map_add_by_tags(map, CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_SPACE);
		/* every symbol must take exactly one cell */
		chafa_symbol_map_remove_by_tags(map, CHAFA_SYMBOL_TAG_WIDE);
	}
	ChafaCanvasConfig *cfg = chafa_canvas_config_new();
	chafa_canvas_config_set_geometry(cfg, cols, rows);
	chafa_canvas_config_set_canvas_mode(cfg, chafa_mode(mode));
	chafa_canvas_config_set_pixel_mode(cfg, CHAFA_PIXEL_MODE_SYMBOLS);
	chafa_canvas_config_set_symbol_map(cfg, map);
	/* ink is what differs from the picture's paper */
	uint32_t paper = paper_rgb(img);
	ChafaCanvas *cv = chafa_canvas_new(cfg);
	chafa_canvas_draw_all_pixels(cv, CHAFA_PIXEL_RGBA8_UNASSOCIATED, img->rgba,
				     img->w, img->h, img->w * 4);
	for (int y = 0; y < rows; y++) {
		for (int x = 0; x < cols; x++) {
			struct image_cell *c = &out->cell[(size_t)y * cols + x];
			gint fg = -1, bg = -1, fg_rgb = -1, bg_rgb = -1;
			gunichar ch = chafa_canvas_get_char_at(cv, x, y);
			chafa_canvas_get_colors_at(cv, x, y, &fg_rgb, &bg_rgb);
			if (mode == IMAGE_MODE_DIRECT || mode == IMAGE_MODE_MONO || mode == IMAGE_MODE_8_FG) {
				fg = fg_rgb;
				bg = bg_rgb;
			} else {
				chafa_canvas_get_raw_colors_at(cv, x, y, &fg, &bg);
			}
			/* only what takes one cell in any locale: ASCII, U+2580..259F */
			if (!((ch >= 0x20 && ch < 0x7f) || (ch >= 0x2580 && ch <= 0x259f)))
				ch = ' ';
			c->fg = fg;
			c->bg = bg;
			if (mode == IMAGE_MODE_8_FG) {
				c->fg = ink8(fg_rgb, paper);
				c->bg = ink8(bg_rgb, paper);
			}
			if (mode == IMAGE_MODE_MONO || mode == IMAGE_MODE_8_FG) {
				to_ink(c, &ch, fg_rgb, bg_rgb, paper);
				if (ch == 0x2588 && sym == IMAGE_SYM_ASCII)
					ch = '#';
			}
			if (mode == IMAGE_MODE_MONO)
				c->fg = c->bg = -1;
			c->ch = ch;
		}
	}
	chafa_canvas_unref(cv);
	chafa_canvas_config_unref(cfg);
	chafa_symbol_map_unref(map);
	return 0;
}

void image_cells_free(struct image_cells *c)
{
	free(c->cell);
	memset(c, 0, sizeof *c);
}

/* Pixels, for a terminal that draws them (graphics.h): chafa writes
 * kitty's APC or sixel's DCS for the canvas, cols x rows cells large.
 * A kitty id goes into the first APC's keys (chafa writes none), with
 * q=2: a terminal answers a command that names an id, and its answer
 * would reach the keyboard. */
char *image_pixels(const struct image *img, bool kitty, unsigned kitty_id, int cols, int rows,
		   int cell_w, int cell_h, size_t *len)
{
	ChafaCanvasConfig *cfg;
	ChafaCanvas *cv;
	ChafaTermDb *db;
	ChafaTermInfo *ti;
	GString *gs;
	char *out = NULL;

	*len = 0;
	if (!img->rgba || cols < 1 || rows < 1 || cell_w < 1 || cell_h < 1)
		return NULL;
	/* kitty's terminal scales the image to its cells (c=, r=): pixels
	 * beyond the picture's own would only lengthen the string (raw RGBA
	 * in base64, 5 MB for a screenful) */
	if (kitty && ((long)cols * cell_w > img->w || (long)rows * cell_h > img->h)) {
		double fw = (double)img->w / ((double)cols * cell_w);
		double fh = (double)img->h / ((double)rows * cell_h);
		double f = fw < fh ? fw : fh;
		cell_w = (int)(cell_w * f + 0.5) > 0 ? (int)(cell_w * f + 0.5) : 1;
		cell_h = (int)(cell_h * f + 0.5) > 0 ? (int)(cell_h * f + 0.5) : 1;
	}
	chafa_set_n_threads(1);
	cfg = chafa_canvas_config_new();
	chafa_canvas_config_set_geometry(cfg, cols, rows);
	chafa_canvas_config_set_cell_geometry(cfg, cell_w, cell_h);
	chafa_canvas_config_set_pixel_mode(cfg, kitty ? CHAFA_PIXEL_MODE_KITTY
							 : CHAFA_PIXEL_MODE_SIXELS);
	cv = chafa_canvas_new(cfg);
	chafa_canvas_draw_all_pixels(cv, CHAFA_PIXEL_RGBA8_UNASSOCIATED, img->rgba,
				     img->w, img->h, img->w * 4);
	/* the fallback knows every sequence chafa writes, kitty's and sixel's */
	db = chafa_term_db_get_default();
	ti = chafa_term_db_get_fallback_info(db);
	gs = chafa_canvas_print(cv, ti);
	if (gs && gs->len && kitty && kitty_id) {
		char keys[32];
		const char *apc = g_strstr_len(gs->str, (gssize)gs->len, "\033_G");
		snprintf(keys, sizeof keys, "i=%u,q=2,", kitty_id);
		if (apc)
			g_string_insert(gs, apc - gs->str + 3, keys);
	}
	if (gs && gs->len) {
		out = malloc(gs->len);
		if (out) {
			memcpy(out, gs->str, gs->len);
			*len = gs->len;
		}
	}
	if (gs)
		g_string_free(gs, TRUE);
	chafa_term_info_unref(ti);
	chafa_canvas_unref(cv);
	chafa_canvas_config_unref(cfg);
	return out;
}
