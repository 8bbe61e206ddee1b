/* SPDX-License-Identifier: MIT */
/*
 * cmd_view.c - `sandpit view IMAGE`: the playground's large picture view
 * on its own, for a host file (a kept copy of a run's output, say).
 * The same bounded decoder and drawing as in the playground; Esc or q
 * closes. Exit 0 when the picture was shown, 1 when it was refused (the
 * reason was on screen and is printed again), 2 for bad usage.
 */
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "image_view.h"
#include "theme.h"
#include "banned.h"

int cmd_view(int argc, char **argv)
{
	struct image_view v;
	struct theme th;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: sandpit view IMAGE   (a PNG or JPEG file)\n");
		return 2;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "sandpit view: needs a terminal\n");
		return 2;
	}
	setlocale(LC_ALL, "");
	memset(&v, 0, sizeof v);
	int rc = image_view_open(&v, argv[1], NULL) == 0 ? 0 : 1;
	char why[sizeof v.why];
	snprintf(why, sizeof why, "%s", v.why);  /* closing the view clears it */
	theme_default(&th);
	initscr();
	raw();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	if (has_colors()) {
		start_color();
		use_default_colors();
	}
	theme_apply(&th);
	while (v.active) {
		werase(stdscr);
		image_view_draw(&v, stdscr, LINES, COLS, &th);
		wnoutrefresh(stdscr);
		doupdate();
		int key = getch();
		if (key == KEY_RESIZE || key == ERR)
			continue;
		image_view_key(&v, key);
	}
	endwin();
	if (rc != 0)
		fprintf(stderr, "sandpit view: %s: not shown: %s\n", argv[1], why[0] ? why : "refused");
	image_view_close(&v);
	return rc;
}
