/* SPDX-License-Identifier: MIT */
/*
 * mcp_content.h - a run's result as an MCP tool result (`sandpit mcp`'s
 * run_python): what a model reads, and what a client shows.
 *
 *   content: one text block (the status in words, usage, stdout and
 *            stderr cut at a stated size, the Out value, each violation
 *            with its line and explanation, the hints, the files,
 *            carry_out), with every terminal control and invalid byte of
 *            the program's made visible (text/sanitize.h); one image block
 *            per picture the run left that decodes whole (mcp_picture.h:
 *            shrunk when over 8000 pixels a side or its share of the
 *            budget; at most MCP_MAX_IMAGES); other kept files as embedded
 *            text resources when small, UTF-8 and free of controls, else
 *            resource links; and a last text block, the `sandpit run
 *            --json` object without what the first block showed: the
 *            streams' rest as stdout_rest and stderr_rest.
 *   structuredContent: that object, its streams whole unless the budget
 *            cut them (then stdout_cut / stderr_cut say how, and where
 *            the whole stream is); isError: the run did not end cleanly
 *            (any status but ok, a non-zero exit, a violation).
 *
 * One size budget bounds the whole result (the text, the JSON and the
 * pictures, as sent): the text block first, then the object's fields
 * but the streams, then the streams (up to what the pictures leave, the
 * pictures keeping at most half), then the pictures, each shrunk to its
 * share of what is left or linked. A stream cut anywhere is kept whole
 * beside the run's history and served by resources/read.
 *
 * A client on a revision before 2025-06-18 gets the two text blocks only.
 */
#ifndef MCP_CONTENT_H
#define MCP_CONTENT_H

#include <jansson.h>
#include <stdbool.h>

#include "sandpit.h"

#define MCP_STDOUT_SHOWN (16u << 10)
#define MCP_STDERR_SHOWN (8u << 10)
#define MCP_MAX_IMAGES 4
#define MCP_MAX_IMAGE_BYTES (8u << 20)   /* a picture file read to be sent */
#define MCP_EMBED_TEXT_BYTES (8u << 10)
#define MCP_RESULT_BUDGET (1u << 20)      /* a result's bytes as sent, by default */
#define MCP_RESULT_BUDGET_MIN (64u << 10) /* the least --max-result takes */

struct mcp_content_opts {
	bool text_only;          /* a revision before 2025-06-18 */
	const char *clamped;     /* limits lowered to the server's maxima, or "" */
	const char *uri_base;    /* "sandpit://runs/NAME/": + a kept file's path */
	const char *output_uri;  /* "sandpit://output/NAME/": + stdout or stderr, when
				    the streams are kept (mcp_output_cut), else NULL */
	size_t budget;           /* the result's bytes as sent; 0: MCP_RESULT_BUDGET */
};

/* The tool result of r (NULL: it never started, why says why). */
json_t *mcp_tool_result(const struct sp_result *r, const char *why,
			const struct sp_limits *limits, const struct mcp_content_opts *o);
/* A tool error the model can act on: isError and one text block. */
json_t *mcp_tool_error(const char *text);
/* Does the text block cut r's stdout or stderr? Then the caller keeps
 * them whole (as files beside the run) and passes their output_uri. */
bool mcp_output_cut(const struct sp_result *r);
/* text as a JSON string fit for a terminal: invalid UTF-8 as U+FFFD,
 * controls visible (text/sanitize.h). */
json_t *mcp_string(const char *text, size_t len);
/* Is d (n bytes) text: valid UTF-8 without NUL? */
bool mcp_is_text(const char *d, size_t n);
/* Do data's first bytes announce a PNG or a JPEG? Its MIME type, or
 * NULL (a sniff only: mcp_picture_type decodes). */
const char *mcp_image_type(const unsigned char *data, size_t n);
/* Percent-encode a kept file's path for a URI (its '/' kept). */
char *mcp_uri_path(const char *path);

#endif
