/* SPDX-License-Identifier: MIT */
/*
 * json_text.h - JSON text whose floats read as a person wrote them
 * (json_dump.c), for core/ and tui/ alike: the result and the carry
 * buffer, and the services that send the result inside something else
 * (a --batch line, an MCP message). Like buf.h it serves tui/ without
 * being library API (hidden in the .so; a command linked against it links
 * the object itself).
 *
 * Invariants: the text is what json_dumps writes for the same flags
 * (JSON_COMPACT, JSON_INDENT, JSON_ENSURE_ASCII; keys in the object's
 * order) but for each float, which has the fewest digits that read back
 * to the same double, as Python's repr() writes it.
 */
#ifndef SP_JSON_TEXT_H
#define SP_JSON_TEXT_H

#include <stddef.h>

struct json_t;

/* v as JSON text (free it); NULL when out of memory. */
char *sp_json_dumps(const struct json_t *v, size_t flags);
/* The %g precision that writes v in the fewest digits that read back. */
int sp_json_real_precision(double v);

#endif
