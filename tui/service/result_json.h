/* SPDX-License-Identifier: MIT */
/*
 * result_json.h - the `sandpit run --json` object as a jansson value, for
 * the services that send it inside something else (a --batch line, an
 * MCP tool result's structuredContent). One place makes it, so the three
 * stay the same object.
 */
#ifndef RESULT_JSON_H
#define RESULT_JSON_H

#include <jansson.h>

#include "sandpit.h"

/* r itself, or (r NULL) failed filled in as the result of a run that
 * never started: status sandbox_error, exit code -1, why as its error,
 * and the limits it would have had. Returns failed then (the caller's
 * storage, nothing to free). */
const struct sp_result *result_or_unstarted(const struct sp_result *r, const char *why,
					    const struct sp_limits *limits, struct sp_result *failed);

/* The result r, or (r NULL) the object of a run that never started:
 * status sandbox_error and why, with the limits it would have had.
 * NULL only when memory ran out. */
json_t *result_json(const struct sp_result *r, const char *why, const struct sp_limits *limits);

#endif
