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
 * A byte of the program's that was not UTF-8 (a lone surrogate's escape
 * in the text) is U+FFFD here: jansson takes no lone surrogate. NULL only
 * when memory ran out. */
json_t *result_json(const struct sp_result *r, const char *why, const struct sp_limits *limits);

/* Such a text (len bytes, a NUL after them), as kept in a file, into a
 * jansson value the same way: a lone surrogate's escape becomes U+FFFD's
 * (in text, which is changed), and \u0000 (a NUL the program wrote) is
 * kept. NULL when it is not JSON. */
json_t *result_json_parse(char *text, size_t len);

/* The same result as `sandpit run --json`'s text on one line (a --batch
 * line): the bytes of every string as that text has them, lone
 * surrogates included; the white space between tokens gone. Free it;
 * NULL when memory ran out. */
char *result_json_line(const struct sp_result *r, const char *why, const struct sp_limits *limits);

#endif
