/* SPDX-License-Identifier: MIT */
/*
 * result_json.c - the engine's JSON result (sp_result_to_json) read back
 * into a jansson value (result_json.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service/result_json.h"
#include "banned.h"

const struct sp_result *result_or_unstarted(const struct sp_result *r, const char *why,
					    const struct sp_limits *limits, struct sp_result *failed)
{
	if (r)
		return r;
	memset(failed, 0, sizeof *failed);
	failed->status = SP_STATUS_SANDBOX_ERROR;
	failed->exit_code = -1;
	failed->limits = *limits;
	snprintf(failed->error, sizeof failed->error, "%s", why ? why : "");
	return failed;
}

json_t *result_json(const struct sp_result *r, const char *why, const struct sp_limits *limits)
{
	struct sp_result failed;
	json_error_t e;
	json_t *o;
	char *text;

	/* the contract's object even now: nothing ran, and why */
	text = sp_result_to_json(result_or_unstarted(r, why, limits, &failed));
	if (!text)
		return NULL;
	o = json_loads(text, 0, &e);
	free(text);
	return o;
}
