/* SPDX-License-Identifier: MIT */
/*
 * result_json.c - the engine's JSON result (sp_result_to_json) read back
 * into a jansson value (result_json.h).
 */
#include <stdbool.h>
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

/* The result's text as `sandpit run --json` writes it. */
static char *result_text(const struct sp_result *r, const char *why,
			 const struct sp_limits *limits)
{
	struct sp_result failed;

	/* the contract's object even now: nothing ran, and why */
	return sp_result_to_json(result_or_unstarted(r, why, limits, &failed));
}

char *result_json_line(const struct sp_result *r, const char *why, const struct sp_limits *limits)
{
	char *text = result_text(r, why, limits);
	size_t to = 0;
	bool in_string = false, escaped = false;

	if (!text)
		return NULL;
	/* the white space between tokens goes; a string's bytes, escapes
	 * included, stay as they are */
	for (size_t from = 0; text[from]; from++) {
		char c = text[from];
		if (in_string) {
			in_string = escaped || c != '"';
			escaped = !escaped && c == '\\';
		} else if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
			continue;
		} else {
			in_string = c == '"';
		}
		text[to++] = c;
	}
	text[to] = '\0';
	return text;
}

/* A lone surrogate's escape (\udc80-\udcff: a byte of the program's that
 * was not UTF-8) becomes U+FFFD's, which jansson takes. */
static void replace_lone_surrogates(char *text)
{
	for (char *p = text; (p = strstr(p, "\\udc")) != NULL; p += 4) {
		size_t backslashes = 0;
		for (char *q = p; q > text && q[-1] == '\\'; q--)
			backslashes++;
		if (backslashes % 2 == 0 && p[4] && strchr("89abcdefABCDEF", p[4]) && p[5] &&
		    strchr("0123456789abcdefABCDEF", p[5]))
			memcpy(p + 2, "fffd", 4);
	}
}

json_t *result_json_parse(char *text, size_t len)
{
	json_t *o = json_loadb(text, len, JSON_ALLOW_NUL, NULL);

	if (!o && memchr(text, '\0', len) == NULL && text[len] == '\0') {
		replace_lone_surrogates(text);
		o = json_loadb(text, len, JSON_ALLOW_NUL, NULL);
	}
	return o;
}

json_t *result_json(const struct sp_result *r, const char *why, const struct sp_limits *limits)
{
	json_t *o;
	char *text = result_text(r, why, limits);

	if (!text)
		return NULL;
	o = result_json_parse(text, strlen(text));
	free(text);
	return o;
}
