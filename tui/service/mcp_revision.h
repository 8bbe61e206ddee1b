/* SPDX-License-Identifier: MIT */
/*
 * mcp_revision.h - the MCP revisions `sandpit mcp` speaks and what each
 * one's schema has, in one table: the server answers a client in the
 * revision it asked for (when it is one of these) and sends only what
 * that revision defines.
 */
#ifndef MCP_REVISION_H
#define MCP_REVISION_H

#include <stdbool.h>

/* oldest to newest; NONE until initialize */
enum mcp_rev { MCP_REV_NONE, MCP_REV_2024_11_05, MCP_REV_2025_03_26, MCP_REV_2025_06_18,
	       MCP_REV_2025_11_25 };

#define MCP_REV_LATEST MCP_REV_2025_11_25

enum mcp_feature {
	MCP_BATCHES,            /* JSON-RPC batches: 2025-03-26 alone */
	MCP_ERROR_WITHOUT_ID,   /* an error whose request id could not be read:
				   2025-11-25 (its "id" is optional; before, it
				   is a required request id, never null) */
	MCP_TOOL_ANNOTATIONS,   /* from 2025-03-26 */
	MCP_PROGRESS_MESSAGE,   /* notifications/progress "message": from 2025-03-26 */
	MCP_RICH_RESULTS,       /* titles, outputSchema, structuredContent, images,
				   resource links: from 2025-06-18 */
};

/* The revision for a client that asked for asked (NULL: none): the same
 * when it is spoken here, else the latest. */
enum mcp_rev mcp_rev_negotiate(const char *asked);
const char *mcp_rev_name(enum mcp_rev rev);
/* Does rev have f? Until initialize, the latest revision's rules hold. */
bool mcp_rev_has(enum mcp_rev rev, enum mcp_feature f);

#endif
