/* SPDX-License-Identifier: MIT */
/*
 * many_runs.c - the playground's way of running: many runs, one after
 * another, from one long-lived process. Each run must get its own
 * cgroup, not only the first; inside.sh checks the lines this prints:
 *
 *   many_runs N    one line a run: "run I: STATUS | LAYERS.CGROUP"
 *
 * Exit 0 when every run ended ok with a cgroup, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandpit.h"

static const char *cgroup_of(const struct sp_result *r)
{
	for (size_t i = 0; i < r->n_layers; i++)
		if (strcmp(r->layers[i].name, SP_LAYER_CGROUP) == 0)
			return r->layers[i].active ? r->layers[i].detail : NULL;
	return NULL;
}

int main(int argc, char **argv)
{
	static const char code[] = "print('hello')\n";
	int n = argc > 1 ? atoi(argv[1]) : 5, bad = 0;

	for (int i = 0; i < n; i++) {
		struct sp_config cfg;
		struct sp_result *r = NULL;
		struct sp_error err;
		const char *cg;

		sp_config_init(&cfg);
		cfg.code = code;
		cfg.code_len = sizeof code - 1;
		cfg.keep_output = true;
		if (sp_run_blocking(&cfg, &r, &err) < 0) {
			printf("run %d: failed: %s\n", i, err.msg);
			bad = 1;
			continue;
		}
		cg = cgroup_of(r);
		printf("run %d: %s | %s\n", i, sp_status_name(r->status), cg ? cg : "no cgroup");
		if (r->status != SP_STATUS_OK || !cg)
			bad = 1;
		sp_result_free(r);
	}
	return bad;
}
