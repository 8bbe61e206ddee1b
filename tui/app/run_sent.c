/* SPDX-License-Identifier: MIT */
/*
 * run_sent.c - "sent with it: ..." under each run's header. The carry
 * buffer was checked by the core's validator before the run, so its names
 * are Python identifiers; they are still drawn through the Output pane's
 * sanitizer like every line.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <jansson.h>

#include "app/run_sent.h"
#include "banned.h"

#define NAMES_ROOM 160

/* Append to buf at *used, never past len. */
__attribute__((format(printf, 4, 5)))
static void add(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used += (size_t)n < len - *used ? (size_t)n : len - *used - 1;
}

void run_sent_line(char *buf, size_t len, const char *carry, size_t carry_len,
		   const char *stdin_data, size_t stdin_len)
{
	size_t used = 0;
	json_t *obj = NULL;
	json_error_t e;
	bool any = false;

	if (!len)
		return;
	buf[0] = '\0';
	if (carry && carry_len)
		obj = json_loadb(carry, carry_len, 0, &e);
	if (obj && json_is_object(obj) && json_object_size(obj)) {
		const char *key;
		json_t *v;
		size_t shown = 0, total = json_object_size(obj), names = 0;

		add(buf, len, &used, "%s", "sent with it: carry ");
		json_object_foreach(obj, key, v) {
			(void)v;
			if (names + strlen(key) > NAMES_ROOM && shown)
				break;
			add(buf, len, &used, shown ? ", %s" : "%s", key);
			names += strlen(key) + 2;
			shown++;
		}
		if (shown < total) {
			char more[32];
			snprintf(more, sizeof more, "%zu", total - shown);
			add(buf, len, &used, " (+%s more)", more);
		}
		any = true;
	}
	json_decref(obj);
	if (stdin_data && stdin_len) {
		char fig[64];
		size_t lines = 0;
		for (size_t i = 0; i < stdin_len; i++)
			lines += stdin_data[i] == '\n';
		if (stdin_data[stdin_len - 1] != '\n')
			lines++;
		snprintf(fig, sizeof fig, "%zu line%s (%zu B)", lines, lines == 1 ? "" : "s",
			 stdin_len);
		add(buf, len, &used, "%s", any ? " · stdin " : "sent with it: stdin ");
		add(buf, len, &used, "%s", fig);
	}
}
