/* SPDX-License-Identifier: MIT */
/*
 * demos.h - the demo programs (tui/demos/NN_name.py, embedded in the binary so
 * they work after `make install`) and the F3 menu that picks one.
 *
 * Invariants: demos are in file-name order, which is the menu order; a
 * demo's title is its first line's "# title: ..." (the file name if it
 * has none); the menu's sel is always a valid index when demos exist.
 */
#ifndef DEMOS_H
#define DEMOS_H

#include <stdbool.h>
#include <stddef.h>
#include <curses.h>

struct theme;

size_t demos_count(void);
/* The name to give the buffer: "network.py" for "01_network.py". */
void demo_buffer_name(size_t i, char *buf, size_t len);
/* The menu title into buf. */
void demo_title(size_t i, char *buf, size_t len);
/* N of a "# wall: Nx cpu" line in the demo's header: its runs get a
 * wall limit of at least N times the CPU limit (so a busy machine still
 * ends the CPU demo at its CPU limit); 0 when it has none. */
unsigned demo_wall_factor(size_t i);
/* The program text (not NUL-terminated beyond len). */
const char *demo_text(size_t i, size_t *len);

struct demo_menu {
	bool active;
	size_t sel;
	unsigned typed;       /* digits typed so far, as a number (0: none) */
};

enum { DEMO_MENU_OPEN = -1, DEMO_MENU_CLOSED = -2, DEMO_MENU_LESSONS = -3,
       DEMO_MENU_STEP = -4, DEMO_MENU_HISTORY = -5 };

void demo_menu_open(struct demo_menu *m);
/* A key while the menu is up: a demo index when chosen, else the enum.
 * Digits pick by number: one that more digits could extend into a valid
 * number ("1" of 11 demos) waits for the next digit or Enter. */
long demo_menu_key(struct demo_menu *m, int key);
/* A click on screen row y: chooses the demo drawn there, or DEMO_MENU_OPEN. */
long demo_menu_click(struct demo_menu *m, int rows, int y);
void demo_menu_draw(const struct demo_menu *m, WINDOW *win, int rows, int cols,
		    const struct theme *th);

#endif
