/* SPDX-License-Identifier: MIT */
/*
 * json_values.c - values in a JSON text, counted without parsing it
 * (json_values.h): one pass, a string's bytes skipped with its escapes.
 */
#include <stdbool.h>
#include <string.h>

#include "text/json_values.h"
#include "banned.h"

size_t json_values_count(const char *s, size_t len, size_t stop_at)
{
	size_t n = 1;
	bool in_string = false;

	for (size_t i = 0; i < len && n <= stop_at; i++) {
		char c = s[i];
		if (in_string) {
			if (c == '\\')
				i++; /* the escaped byte cannot end the string */
			else if (c == '"')
				in_string = false;
		} else if (c == '"') {
			in_string = true;
		} else if (c == ',' || c == ':' || c == '[' || c == '{') {
			n++;
		}
	}
	return n;
}
