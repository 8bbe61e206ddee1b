/* SPDX-License-Identifier: MIT */
/*
 * mcp_streams.h - a run's stdout and stderr shared out among the parts of
 * an MCP tool result, each byte in one readable place (mcp_content.h):
 *
 *   the text block      stdout's head and stderr's tail (where a
 *                       traceback ends), made visible;
 *   the JSON text block what the text block cut: stdout_rest (the bytes
 *                       after its head), stderr_rest (before its tail);
 *   structuredContent   each stream whole, or, over the budget, cut to
 *                       its kept head (stdout) or tail (stderr), with
 *                       stdout_cut / stderr_cut: {bytes, kept, uri}.
 *
 * Invariants: shown <= kept <= the stream's length, all on character
 * boundaries where the stream is UTF-8; the JSON block's rest of a
 * stream is its kept part less its shown part.
 */
#ifndef MCP_STREAMS_H
#define MCP_STREAMS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "sandpit.h"

struct mcp_cut {
	size_t out_shown, err_shown;   /* bytes in the text block */
	size_t out_kept, err_kept;     /* bytes in structuredContent */
};

/* The longest head of d (len bytes) of at most max bytes that does not
 * end inside a character; the same for a tail. */
size_t mcp_head_bytes(const char *d, size_t len, size_t max);
size_t mcp_tail_bytes(const char *d, size_t len, size_t max);

/* The `--json` object of r with its streams cut as cut says (r from
 * result_or_unstarted). output_uri: where the whole streams are, or NULL. */
json_t *mcp_streams_object(const struct sp_result *r, const struct mcp_cut *cut,
			   const char *output_uri);
/* The JSON text block's object: obj without the streams (and their
 * base64 unless keep_base64), with the rests of the streams. */
json_t *mcp_streams_block(const json_t *obj, const struct sp_result *r, const struct mcp_cut *cut,
			  bool keep_base64);

/*
 * How much of the streams structuredContent and the JSON block keep
 * (cut->*_kept; *_shown set by the caller), within avail bytes as sent:
 * all of them when they fit beside the pictures' part (pictures: what
 * they would take, given at most half of what is left), else each
 * stream cut by the same ratio, a few tries as the JSON's escapes vary,
 * at worst to what the text block shows. *obj (structuredContent) and
 * *block (the JSON block's text, mcp_json_visible's) are those of that
 * cut, the caller's to free; returns their cost. text_only:
 * structuredContent is not sent (so not counted) and the block keeps
 * the base64.
 */
size_t mcp_streams_fit(const struct sp_result *r, size_t avail, size_t pictures,
		       struct mcp_cut *cut, bool text_only, const char *output_uri, json_t **obj,
		       char **block);

/* v as compact JSON text fit for a terminal: each character the
 * sanitizer hides (a C1 control, a bidi override, DEL) written as its
 * \u escape too, as JSON already writes the C0 ones. malloc'd or NULL. */
char *mcp_json_visible(const json_t *v);
/* The bytes v takes as compact JSON text (0: out of memory). */
size_t mcp_json_size(const json_t *v);

#endif
