/* SPDX-License-Identifier: MIT */
/*
 * cmd_doctor.c - `sandpit doctor`: every isolation layer and whether this
 * host has it, with how to get a missing one. Exit 0 when a sandbox can
 * run here, 1 when a required layer is missing.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sandpit.h"
#include "cmd/commands.h"
#include "buf.h"
#include "banned.h"

int cmd_doctor(int argc, char **argv)
{
	struct sp_layer ls[SP_MAX_LAYERS];
	size_t n;
	int missing_required = 0;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("usage: sandpit doctor\n"
		       "Show every isolation layer (namespaces, seccomp, Landlock, cgroups,\n"
		       "capabilities, ...) and whether this host has it, with how to get a\n"
		       "missing one. Exit status: 0 when sandpit can run programs here, 1 when\n"
		       "a required layer is missing, 2 for bad usage. See man sandpit.\n");
		return 0;
	}
	if (argc > 1) {
		fprintf(stderr, "sandpit doctor: takes no arguments (got '%s'); see "
			"'sandpit doctor --help'\n", argv[1]);
		return 2;
	}
	n = sp_doctor(ls, SP_ARRAY_SIZE(ls));
	if (geteuid() == 0)
		printf("sandpit %s on this host (running as root; the sandbox user maps "
		       "to a host uid of each run's own, %u-%u):\n\n", SP_VERSION,
		       SP_ROOT_HOST_ID_FIRST, SP_ROOT_HOST_ID_FIRST + SP_ROOT_HOST_ID_COUNT - 1);
	else
		printf("sandpit %s on this host (running as an ordinary user):\n\n", SP_VERSION);
	for (size_t i = 0; i < n; i++) {
		bool required = strstr(ls[i].name, "namespace") ||
				strcmp(ls[i].name, SP_LAYER_SECCOMP) == 0 ||
				strcmp(ls[i].name, SP_LAYER_PYTHON) == 0;
		printf("  %-18s %-4s %s\n", ls[i].name, ls[i].active ? "yes" : "NO",
		       ls[i].detail);
		if (!ls[i].active && required)
			missing_required = 1;
	}
	for (size_t i = 0; i < n; i++) {
		const char *hint = ls[i].active ? NULL : sp_doctor_hint(ls[i].name);
		if (hint) {
			printf("\n%s:\n%s\n", ls[i].name, hint);
			/* the namespace hint covers all four */
			if (strstr(ls[i].name, "namespace"))
				break;
		}
	}
	doctor_print_stack(); /* optional: never makes doctor fail */
	printf("\n%s\n", missing_required
	       ? "A required layer is missing: sandpit will refuse to run programs here."
	       : "Every required layer is here: sandpit can run programs.");
	return missing_required;
}
