/* SPDX-License-Identifier: MIT */
/*
 * mcp_content.h - a run's result as an MCP tool result (`sandpit mcp`'s
 * run_python): what a model reads, and what a client shows.
 *
 *   content: one text block (the status in words, usage, stdout and
 *            stderr cut at a stated size, each violation with its line
 *            and explanation, the hints, the files, carry_out), one image
 *            block per picture the run left that decodes whole
 *            (mcp_picture.h: shrunk when over 8000 pixels a side; at most
 *            MCP_MAX_IMAGES, files of at most MCP_MAX_IMAGE_BYTES), other
 *            kept files as embedded text
 *            resources when small and UTF-8, else resource links; and the
 *            `sandpit run --json` object as a last text block.
 *   structuredContent: that object; isError: the run did not end
 *            cleanly (any status but ok, a non-zero exit, a violation).
 *
 * A client on protocol 2025-03-26 gets the two text blocks only.
 */
#ifndef MCP_CONTENT_H
#define MCP_CONTENT_H

#include <jansson.h>
#include <stdbool.h>

#include "sandpit.h"

#define MCP_STDOUT_SHOWN (16u << 10)
#define MCP_STDERR_SHOWN (8u << 10)
#define MCP_MAX_IMAGES 4
#define MCP_MAX_IMAGE_BYTES (2u << 20)
#define MCP_EMBED_TEXT_BYTES (8u << 10)

struct mcp_content_opts {
	bool text_only;          /* protocol 2025-03-26 */
	const char *clamped;     /* limits lowered to the server's maxima, or "" */
	const char *uri_base;    /* "sandpit://runs/NAME/": + a kept file's path */
};

/* The tool result of r (NULL: it never started, why says why). */
json_t *mcp_tool_result(const struct sp_result *r, const char *why,
			const struct sp_limits *limits, const struct mcp_content_opts *o);
/* A tool error the model can act on: isError and one text block. */
json_t *mcp_tool_error(const char *text);
/* text as a JSON string, invalid UTF-8 replaced by U+FFFD. */
json_t *mcp_string(const char *text, size_t len);
/* Is d (n bytes) text: valid UTF-8 without NUL? */
bool mcp_is_text(const char *d, size_t n);
/* Is data (n bytes) a PNG or a JPEG? Its MIME type, or NULL. */
const char *mcp_image_type(const unsigned char *data, size_t n);
/* Percent-encode a kept file's path for a URI (its '/' kept). */
char *mcp_uri_path(const char *path);

#endif
