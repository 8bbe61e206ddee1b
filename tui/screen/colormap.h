/* SPDX-License-Identifier: MIT */
/*
 * colormap.h - a written colour as a terminal of a given depth shows it,
 * and whether text in it can be read on its background.
 *
 * Plain arithmetic, no terminal: the theme maps its roles through these
 * when it makes its colour pairs, and the contrast test asks the same
 * functions what each depth shows, so the test measures what a person
 * sees and not what the file says.
 *
 * Invariants:
 *  - A colour as written is CM_DEFAULT (the terminal's own), a palette
 *    index 0..255, or CM_RGB | 0xRRGGBB.
 *  - A depth is 8, 16, 256 or CM_DIRECT (true colour). A terminal colour
 *    number is what init_extended_pair takes at that depth: an index below
 *    the depth, or at CM_DIRECT 0..7 for the ANSI colours and 0xRRGGBB
 *    for the rest; -1 is the terminal's default.
 *  - The 16 basic colours are taken as xterm's default palette shows them
 *    (white is 0xe5e5e5, a light grey), since that is what a plain
 *    `TERM=xterm` at 8 colours puts on the screen.
 */
#ifndef SP_COLORMAP_H
#define SP_COLORMAP_H

#include <stdint.h>

#define CM_DEFAULT (-1)
#define CM_RGB 0x1000000
#define CM_DIRECT 0x1000000

/* The contrast text needs against its background (WCAG 2, level AA), and
 * what the frames of the interface need. */
#define CM_TEXT_CONTRAST 4.5
#define CM_FRAME_CONTRAST 3.0

/* The RGB of palette index i (0..255) in xterm's 256-colour layout. */
uint32_t cm_palette_rgb(int i);

/* The RGB a terminal of depth shows for its colour number c (c >= 0). */
uint32_t cm_shown_rgb(int c, int depth);

/* WCAG 2's contrast ratio of two sRGB colours: 1 (the same) to 21. */
double cm_contrast(uint32_t a, uint32_t b);

/* The written colour w as a colour number of depth (-1 for CM_DEFAULT):
 * itself when the depth has it, else the nearest the depth has (by
 * distance among 256, by hue and lightness among 8 or 16, which are too
 * far apart for a distance: a soft red would come out magenta). */
int cm_map(int32_t w, int depth);

/* fg, or when text in fg on bg would read below want, the colour of depth
 * nearest to wanted (the RGB the theme asked for) among those that read
 * at want on bg; the most legible one when none does. fg and bg are
 * colour numbers of depth; with either -1 nothing is known: fg. */
int cm_readable(int fg, int bg, int depth, double want, uint32_t wanted);

/* The RGB a written colour asks for (a palette index as xterm's). */
uint32_t cm_written_rgb(int32_t w);

#endif
