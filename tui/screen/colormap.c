/* SPDX-License-Identifier: MIT */
/*
 * colormap.c - written colours onto a terminal's depth; text kept
 * readable where the depth has no colour near enough (see colormap.h).
 */
#include "screen/colormap.h"

#include <math.h>
#include <stdbool.h>

#include "image/rgb_hue.h"
#include "banned.h"

/* The 16 basic colours as xterm's default palette shows them. */
static const uint32_t basic_rgb[16] = {
	0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
	0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};

/* The basic colour numbers (curses' COLOR_*, which are the ANSI ones). */
enum { C_BLACK, C_RED, C_GREEN, C_YELLOW, C_BLUE, C_MAGENTA, C_CYAN, C_WHITE };

uint32_t cm_palette_rgb(int i)
{
	if (i < 16)
		return basic_rgb[i < 0 ? 0 : i];
	if (i < 232) {
		static const int lv[6] = { 0, 95, 135, 175, 215, 255 };
		i -= 16;
		return (uint32_t)(lv[i / 36] << 16 | lv[i / 6 % 6] << 8 | lv[i % 6]);
	}
	int g = 8 + (i > 255 ? 23 : i - 232) * 10;
	return (uint32_t)(g << 16 | g << 8 | g);
}

uint32_t cm_shown_rgb(int c, int depth)
{
	if (depth >= CM_DIRECT)
		return c < 8 ? basic_rgb[c < 0 ? 0 : c] : (uint32_t)c & 0xffffff;
	return cm_palette_rgb(c);
}

uint32_t cm_written_rgb(int32_t w)
{
	if (w == CM_DEFAULT)
		return 0;
	return (w & CM_RGB) ? (uint32_t)w & 0xffffff : cm_palette_rgb((int)w);
}

static double channel(unsigned v)
{
	double s = v / 255.0;
	return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
}

static double luminance(uint32_t rgb)
{
	return 0.2126 * channel(rgb >> 16 & 255) + 0.7152 * channel(rgb >> 8 & 255) +
	       0.0722 * channel(rgb & 255);
}

double cm_contrast(uint32_t a, uint32_t b)
{
	double la = luminance(a), lb = luminance(b);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

/* Squared distance between two RGB colours, weighted for the eye. */
static long rgb_dist(uint32_t a, uint32_t b)
{
	long dr = (long)(a >> 16 & 255) - (long)(b >> 16 & 255);
	long dg = (long)(a >> 8 & 255) - (long)(b >> 8 & 255);
	long db = (long)(a & 255) - (long)(b & 255);
	return 3 * dr * dr + 4 * dg * dg + 2 * db * db;
}

static int nearest256(uint32_t rgb)
{
	int best = 0;
	long bd = -1;
	for (int i = 0; i < 256; i++) {
		long d = rgb_dist(rgb, cm_palette_rgb(i));
		if (bd < 0 || d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}

static int nearest_basic(uint32_t rgb, int n)
{
	static const int sector[6] = { C_RED, C_YELLOW, C_GREEN, C_CYAN, C_BLUE, C_MAGENTA };
	int r = rgb >> 16 & 255, g = rgb >> 8 & 255, b = rgb & 255;
	int max = r > g ? (r > b ? r : b) : (g > b ? g : b);
	int h = rgb_hue_sector(r, g, b);

	if (h < 0) {                                 /* a grey */
		int lum = (r + g + b) / 3;
		if (n < 16)
			return lum < 80 ? C_BLACK : C_WHITE;
		return lum < 48 ? 0 : lum < 128 ? 8 : lum < 208 ? 7 : 15;
	}
	return sector[h] + (n >= 16 && max > 200 ? 8 : 0);
}

int cm_map(int32_t w, int depth)
{
	if (w == CM_DEFAULT)
		return -1;
	bool rgb = (w & CM_RGB) != 0;
	uint32_t v = (uint32_t)w & 0xffffff;
	if (depth >= CM_DIRECT) {
		/* direct colour: numbers below 8 are the ANSI colours, the rest RGB */
		if (!rgb && v < 8)
			return (int)v;
		return (int)(rgb ? v : cm_palette_rgb((int)v));
	}
	if (!rgb && (int)v < depth)
		return (int)v;
	uint32_t want = rgb ? v : cm_palette_rgb((int)v);
	return depth >= 256 ? nearest256(want) : nearest_basic(want, depth);
}

int cm_readable(int fg, int bg, int depth, double want, uint32_t wanted)
{
	if (fg < 0 || bg < 0)
		return fg;
	uint32_t back = cm_shown_rgb(bg, depth);
	if (cm_contrast(cm_shown_rgb(fg, depth), back) >= want)
		return fg;
	/* At true colour the nearest readable colour is not a palette entry:
	 * look among the 256 then, as a 256-colour terminal would. */
	int n = depth >= CM_DIRECT ? 256 : depth;
	int best = -1, most = 0;
	long bd = -1;
	double top = 0;
	for (int c = 0; c < n; c++) {
		uint32_t rgb = cm_palette_rgb(c);
		double k = cm_contrast(rgb, back);
		if (k > top) {
			top = k;
			most = c;
		}
		if (k < want)
			continue;
		long d = rgb_dist(wanted, rgb);
		if (bd < 0 || d < bd) {
			bd = d;
			best = c;
		}
	}
	int pick = best >= 0 ? best : most;
	if (depth >= CM_DIRECT && pick >= 8)
		return (int)cm_palette_rgb(pick);
	return pick;
}
