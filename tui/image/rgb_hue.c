/* SPDX-License-Identifier: MIT */
/*
 * rgb_hue.c - the hue of a colour, in sectors (rgb_hue.h).
 *
 * Hue is the angle of a colour on the colour wheel: red at 0 degrees,
 * green at 120, blue at 240. With max and min the strongest and weakest
 * of the three channels and d = max - min, the channel that is max picks
 * the third of the wheel, and the other two place the colour in it:
 * max red: 60 * (g - b) / d, max green: 120 + 60 * (b - r) / d, max
 * blue: 240 + 60 * (r - g) / d. Shifted by 30 degrees, the angle divided
 * by 60 is the sector whose basic colour is nearest. The basic colours
 * of a terminal are too far apart for a distance in RGB to choose among
 * them (a soft red would come out magenta); the hue does.
 */
#include "rgb_hue.h"

int rgb_hue_sector(int r, int g, int b)
{
	int max = r > g ? (r > b ? r : b) : (g > b ? g : b);
	int min = r < g ? (r < b ? r : b) : (g < b ? g : b);
	int d = max - min, h;

	if (d < 40 || d * 4 < max)
		return -1;
	if (max == r)
		h = 60 * (g - b) / d;
	else if (max == g)
		h = 120 + 60 * (b - r) / d;
	else
		h = 240 + 60 * (r - g) / d;
	return (h + 360 + 30) % 360 / 60;
}
