/* SPDX-License-Identifier: MIT */
/*
 * graphics.h - pictures in real pixels, where the terminal draws them.
 *
 * Two protocols put pixels in a terminal cell grid. kitty's graphics
 * protocol (kitty, WezTerm, Ghostty, Konsole) sends an image in an APC
 * string, ESC _ G <keys> ; <base64 payload> ESC \, placed at the cursor
 * and kept apart from the text: a=d deletes the placements again. Sixel
 * (DEC's, in xterm -ti vt340, foot, WezTerm, mlterm, Windows Terminal)
 * sends six-pixel-high bands in a DCS string, ESC P q ... ESC \, painted
 * into the cells like text: only text drawn over the cells removes it.
 * libchafa writes both; which one a terminal has is asked as such
 * programs ask (chafa, notcurses): a kitty graphics query (a=q, answered
 * "OK" by one that has it) and DA1 (ESC [ c), whose answer lists 4 when
 * sixel is there. Everything else gets symbols in cells, as before.
 *
 * Invariants: GFX_KITTY and GFX_SIXEL are chosen only for a terminal
 * that said so (or by the user's word: the config's `graphics =`, or
 * SANDPIT_GRAPHICS, which tests use); NO_COLOR always means symbols.
 */
#ifndef GRAPHICS_H
#define GRAPHICS_H

#include <stddef.h>

enum gfx_mode { GFX_SYMBOLS, GFX_KITTY, GFX_SIXEL };

/* "auto", "kitty", "sixel" or "symbols" (NULL or "": auto). -1 when it
 * is none of them. */
int gfx_parse(const char *value, enum gfx_mode *mode, int *is_auto);

/*
 * The mode to draw pictures with: SANDPIT_GRAPHICS over the config's
 * value (either may be NULL); auto asks the terminal on fd (before
 * curses starts, at most 300 ms), symbols when it does not answer.
 */
enum gfx_mode gfx_choose(const char *config_value, int fd);

const char *gfx_name(enum gfx_mode mode);

/* The terminal's cell size in pixels (TIOCGWINSZ; 10x20 when unknown). */
void gfx_cell_size(int fd, int *w, int *h);


#endif
