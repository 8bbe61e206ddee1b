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
 * colour is the "background" matters: we take the image's mean colour as
 * the canvas background, so a chart on white comes out as its lines and
 * text drawn in symbols, not as a slab of full blocks with holes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <chafa.h>

#include "image.h"
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

/* The mean colour of the opaque pixels (white when there are none). */
static uint32_t mean_rgb(const struct image *img)
{
	unsigned long long s[3] = { 0, 0, 0 }, n = 0;
	size_t total = (size_t)img->w * img->h;
	/* a sample is enough: at most about 64k pixels */
	size_t step = total / 65536 + 1;

	for (size_t i = 0; i < total; i += step) {
		const unsigned char *p = img->rgba + i * 4;
		if (p[3] < 128)
			continue;
		s[0] += p[0];
		s[1] += p[1];
		s[2] += p[2];
		n++;
	}
	if (!n)
		return 0xffffff;
	return (uint32_t)(s[0] / n) << 16 | (uint32_t)(s[1] / n) << 8 | (uint32_t)(s[2] / n);
}

/* Our mode as chafa's canvas mode. */
static ChafaCanvasMode chafa_mode(enum image_mode m)
{
	switch (m) {
	case IMAGE_MODE_DIRECT: return CHAFA_CANVAS_MODE_TRUECOLOR;
	case IMAGE_MODE_256:    return CHAFA_CANVAS_MODE_INDEXED_256;
	case IMAGE_MODE_16:     return CHAFA_CANVAS_MODE_INDEXED_16;
	case IMAGE_MODE_8:
	case IMAGE_MODE_8_FG:   return CHAFA_CANVAS_MODE_INDEXED_8;
	default:                return CHAFA_CANVAS_MODE_FGBG;
	}
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
	if (mode == IMAGE_MODE_MONO || mode == IMAGE_MODE_8_FG) {
		/* ink is what differs from the picture's mean colour */
		uint32_t bg = mean_rgb(img);
		int lum = (int)((bg >> 16 & 255) * 3 + (bg >> 8 & 255) * 6 + (bg & 255)) / 10;
		chafa_canvas_config_set_bg_color(cfg, bg);
		chafa_canvas_config_set_fg_color(cfg, lum >= 128 ? 0x000000 : 0xffffff);
		if (mode == IMAGE_MODE_8_FG)
			chafa_canvas_config_set_fg_only_enabled(cfg, TRUE);
	}
	ChafaCanvas *cv = chafa_canvas_new(cfg);
	chafa_canvas_draw_all_pixels(cv, CHAFA_PIXEL_RGBA8_UNASSOCIATED, img->rgba,
				     img->w, img->h, img->w * 4);
	for (int y = 0; y < rows; y++) {
		for (int x = 0; x < cols; x++) {
			struct image_cell *c = &out->cell[(size_t)y * cols + x];
			gint fg = -1, bg = -1;
			gunichar ch = chafa_canvas_get_char_at(cv, x, y);
			if (mode == IMAGE_MODE_DIRECT)
				chafa_canvas_get_colors_at(cv, x, y, &fg, &bg);
			else if (mode != IMAGE_MODE_MONO)
				chafa_canvas_get_raw_colors_at(cv, x, y, &fg, &bg);
			if (mode == IMAGE_MODE_8_FG)
				bg = -1;
			if (mode == IMAGE_MODE_MONO)
				fg = bg = -1;
			/* only what takes one cell in any locale: ASCII, U+2580..259F */
			if (!((ch >= 0x20 && ch < 0x7f) || (ch >= 0x2580 && ch <= 0x259f)))
				ch = ' ';
			c->ch = ch;
			c->fg = fg;
			c->bg = bg;
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
