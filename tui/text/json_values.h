/* SPDX-License-Identifier: MIT */
/*
 * json_values.h - how many values a JSON text would make, counted before
 * it is parsed. A parser's memory follows the number of values, not the
 * bytes: jansson takes about 100 bytes for each, so "[1,1,1,...]" costs
 * some 50 times its size (a 60 MiB line took 2.85 GB). The services
 * count first and refuse a message over their bound, so that a message's
 * memory is bounded by its bytes and this count together.
 */
#ifndef JSON_VALUES_H
#define JSON_VALUES_H

#include <stddef.h>

/* Values a message may make: room for a carry of a full megabyte of
 * small numbers, at most about 100 MiB of parse. */
#define JSON_MAX_VALUES (1u << 20)

/*
 * An upper bound of the values (and object keys) parsing s would make:
 * one for the text, and one more for each ',', ':', '[' and '{' outside a
 * string. Counting stops past stop_at (its result is then stop_at + 1).
 * Not a validator: what is not JSON is the parser's to say.
 */
size_t json_values_count(const char *s, size_t len, size_t stop_at);

#endif
