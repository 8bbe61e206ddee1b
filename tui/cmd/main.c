/* SPDX-License-Identifier: MIT */
/*
 * main.c - the sandpit command: the playground by default, or one of the
 * headless subcommands (`run`, `doctor`).
 */
#include <stdio.h>
#include <string.h>

#include "sandpit.h"
#include "cmd/commands.h"
#include "app/playground.h"
#include "banned.h"

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "learn") == 0)
		return cmd_learn(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "doctor") == 0)
		return cmd_doctor(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "mcp") == 0)
		return cmd_mcp(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "view") == 0)
		return cmd_view(argc - 1, argv + 1);
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		print_usage();
		return 0;
	}
	if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
		printf("sandpit %s\n", SP_VERSION);
		return 0;
	}
	return playground_main(argc, argv);
}
