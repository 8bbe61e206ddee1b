/* SPDX-License-Identifier: MIT */
/*
 * picture.h - one picture a run made, as the Output pane shows it under
 * the run: decoded once (bounded, image.h), kept as a small thumbnail,
 * drawn as high as half the Output pane allows, in symbols or in pixels
 * (graphics.h).
 *
 * Invariants: a picture always has a host path and a display name
 * (sanitized); its thumbnail is at most PICTURE_THUMB pixels a side and
 * may be released (picture_release) to bound memory, after which it
 * takes one row saying so. Cells are re-rendered only when the width or
 * colour mode changes.
 */
#ifndef SP_PICTURE_H
#define SP_PICTURE_H

#include <stdbool.h>
#include <curses.h>

struct theme;
struct picture;
struct image_limits;

#define PICTURE_THUMB 320     /* pixels a side kept per picture */

/*
 * Decodes the file at path (a host file: a run's kept copy) within lim
 * (NULL: image.h's defaults). NULL with
 * why filled when it is refused (too large, damaged, not an image) or
 * out of memory; name is the program's name for it (shown sanitized).
 */
struct picture *picture_new(const char *path, const char *name,
			    const struct image_limits *lim, char *why, size_t whylen);
void picture_free(struct picture *p);

/* Drops the thumbnail; the picture then takes one row. */
void picture_release(struct picture *p);
bool picture_held(const struct picture *p);

/* Rows the picture takes drawn width columns wide, at most max_rows. */
int picture_rows(struct picture *p, int width, int max_rows);

/* Draws rows [first, first + n) of it at (y, x), width columns wide. */
void picture_draw(struct picture *p, WINDOW *win, int y, int x, int width, int max_rows,
		  int first, int n, const struct theme *th);

/*
 * The picture as a pixel protocol's escape sequence (graphics.h), sized
 * as picture_draw would size it in cells (*cols x *rows), cached until
 * the size or mode changes; NULL when it cannot be (released, no memory).
 */
const char *picture_pixels_seq(struct picture *p, int mode, int width, int max_rows,
			       int cell_w, int cell_h, int *cols, int *rows, size_t *len);

/* Pixels of the picture as decoded (before the thumbnail). */
unsigned long long picture_pixels(const struct picture *p);

const char *picture_path(const struct picture *p);
const char *picture_name(const struct picture *p);

#endif
