/* SPDX-License-Identifier: MIT */
/*
 * mcp_picture.c - a picture checked, bounded and shrunk for an MCP image
 * block (mcp_picture.h).
 *
 * The file's own bytes go out when they decode whole and fit every
 * bound: a JPEG stays a JPEG, nothing is re-encoded for nothing. Else
 * the decoded pixels are shrunk (image_shrink's box filter) and written
 * as a PNG with libpng's simplified API. A picture over its share of the
 * budget is shrunk by the square root of how much it is over (its bytes
 * go about as its pixels), a few times at most.
 */
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image/image.h"
#include "service/mcp_picture.h"
#include "text/base64.h"
#include "banned.h"

/* tries at a smaller size before the picture is given up */
#define SHRINK_TRIES 4
/* no picture is shrunk below this many pixels a side to fit a budget */
#define SMALLEST_SIDE 64

static void decode_limits(struct image_limits *lim, size_t n)
{
	image_limits_default(lim);
	lim->max_bytes = n;
	lim->max_w = lim->max_h = MCP_PICTURE_DECODE_SIDE;
	lim->max_pixels = MCP_PICTURE_PIXELS;
}

/* img as a PNG, base64: malloc'd, or NULL (out of memory, libpng said no). */
static char *png_base64(const struct image *img)
{
	png_image pi;
	png_alloc_size_t size = 0;
	void *mem;
	char *b64 = NULL;

	memset(&pi, 0, sizeof pi);
	pi.version = PNG_IMAGE_VERSION;
	pi.width = (png_uint_32)img->w;
	pi.height = (png_uint_32)img->h;
	pi.format = PNG_FORMAT_RGBA;
	if (!png_image_write_to_memory(&pi, NULL, &size, 0, img->rgba, 0, NULL) || !size)
		return NULL;
	mem = malloc(size);
	if (mem && png_image_write_to_memory(&pi, mem, &size, 0, img->rgba, 0, NULL))
		b64 = base64_encode(mem, size);
	free(mem);
	png_image_free(&pi);
	return b64;
}

int mcp_picture_make(const void *data, size_t n, size_t max_base64, struct mcp_picture *p)
{
	struct image_limits lim;
	struct image img, small = { 0, 0, NULL };
	char why[200];
	int w, h;

	memset(p, 0, sizeof *p);
	decode_limits(&lim, n);
	if (image_decode(data, n, &lim, &img, why, sizeof why) < 0) {
		snprintf(p->why, sizeof p->why, "a broken picture, not shown (%s)", why);
		return -1;
	}
	p->file_w = img.w;
	p->file_h = img.h;
	p->mime = image_sniff(data, n) == IMAGE_JPEG ? "image/jpeg" : "image/png";
	if (img.w <= MCP_PICTURE_SIDE && img.h <= MCP_PICTURE_SIDE && (n + 2) / 3 * 4 <= max_base64) {
		p->base64 = base64_encode(data, n);
		p->w = img.w;
		p->h = img.h;
		image_free(&img);
		if (!p->base64) {
			snprintf(p->why, sizeof p->why, "not shown: out of memory");
			return 1;
		}
		return 0;
	}
	/* too wide or high, or too big: smaller, as a PNG */
	w = img.w;
	h = img.h;
	if (w > MCP_PICTURE_SIDE || h > MCP_PICTURE_SIDE) {
		double f = fmin((double)MCP_PICTURE_SIDE / w, (double)MCP_PICTURE_SIDE / h);
		w = (int)(w * f);
		h = (int)(h * f);
	} else {
		/* over its share: smaller at once, not first the same size again */
		double f = sqrt((double)max_base64 / (double)((n + 2) / 3 * 4)) * 0.9;
		w = (int)(w * f);
		h = (int)(h * f);
	}
	for (int i = 0; i < SHRINK_TRIES && (w > h ? w : h) >= SMALLEST_SIDE; i++) {
		char *b64;
		size_t len;

		if (image_shrink(&img, w, h, &small) < 0)
			break;
		b64 = png_base64(&small);
		len = b64 ? strlen(b64) : 0;
		if (b64 && len <= max_base64) {
			p->base64 = b64;
			p->mime = "image/png";
			p->w = small.w;
			p->h = small.h;
			p->shrunk = true;
			image_free(&small);
			image_free(&img);
			return 0;
		}
		free(b64);
		if (!len)
			break;
		{
			/* bytes go about as pixels: each side by the root, a little under */
			double f = sqrt((double)max_base64 / (double)len) * 0.9;
			w = (int)(small.w * f);
			h = (int)(small.h * f);
		}
		image_free(&small);
	}
	image_free(&small);
	image_free(&img);
	snprintf(p->why, sizeof p->why, "a picture of %dx%d pixels, not shown: too big for what "
		 "is left of the result's size budget", p->file_w, p->file_h);
	return 1;
}

void mcp_picture_free(struct mcp_picture *p)
{
	free(p->base64);
	p->base64 = NULL;
}

const char *mcp_picture_type(const void *data, size_t n)
{
	struct image_limits lim;
	struct image img;
	char why[200];
	const char *type;

	decode_limits(&lim, n);
	lim.max_w = lim.max_h = MCP_PICTURE_SIDE;
	if (image_decode(data, n, &lim, &img, why, sizeof why) < 0)
		return NULL;
	type = image_sniff(data, n) == IMAGE_JPEG ? "image/jpeg" : "image/png";
	image_free(&img);
	return type;
}
