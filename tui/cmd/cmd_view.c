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
#include <unistd.h>

#include "cmd/commands.h"
#include "app/playground.h"
#include "banned.h"

int cmd_view(int argc, char **argv)
{
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: sandpit view IMAGE   (a PNG or JPEG file)\n");
		return 2;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "sandpit view: needs a terminal\n");
		return 2;
	}
	setlocale(LC_ALL, "");
	char why[256];
	int rc = picture_view_main(argv[1], why, sizeof why);
	if (rc != 0)
		fprintf(stderr, "sandpit view: %s: not shown: %s\n", argv[1], why[0] ? why : "refused");
	return rc;
}
