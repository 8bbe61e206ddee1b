/* SPDX-License-Identifier: MIT */
/*
 * rgb_hue.h - which of the six basic hues a 24-bit colour is nearest,
 * for the places that must show a colour on a terminal of 8 or 16
 * colours (a theme's colour, a picture's ink). Plain arithmetic, no
 * terminal: the caller maps the sector to its own colour numbers.
 */
#ifndef RGB_HUE_H
#define RGB_HUE_H

/* The hue sectors, 60 degrees each, centred on these colours. */
enum rgb_hue { HUE_RED, HUE_YELLOW, HUE_GREEN, HUE_CYAN, HUE_BLUE, HUE_MAGENTA };

/* The sector of the colour r, g, b (each 0 to 255), or -1 when it is a
 * grey: too little colour to name a hue (the strongest and weakest
 * channels less than 40 apart, or less than a quarter of the strongest). */
int rgb_hue_sector(int r, int g, int b);

#endif
