/* SPDX-License-Identifier: MIT */
/*
 * mcp_revision.c - the MCP revisions spoken and what each has
 * (mcp_revision.h), as each revision's schema.json defines them
 * (tests/mcp/schema/ holds them).
 */
#include <stddef.h>
#include <string.h>

#include "service/mcp_revision.h"
#include "banned.h"

static const char *const names[] = {
	[MCP_REV_NONE] = "(none yet)",
	[MCP_REV_2024_11_05] = "2024-11-05",
	[MCP_REV_2025_03_26] = "2025-03-26",
	[MCP_REV_2025_06_18] = "2025-06-18",
	[MCP_REV_2025_11_25] = "2025-11-25",
};

/* each feature's first and last revision */
static const struct { enum mcp_rev first, last; } span[] = {
	[MCP_BATCHES] = { MCP_REV_2025_03_26, MCP_REV_2025_03_26 },
	[MCP_ERROR_WITHOUT_ID] = { MCP_REV_2025_11_25, MCP_REV_LATEST },
	[MCP_TOOL_ANNOTATIONS] = { MCP_REV_2025_03_26, MCP_REV_LATEST },
	[MCP_PROGRESS_MESSAGE] = { MCP_REV_2025_03_26, MCP_REV_LATEST },
	[MCP_RICH_RESULTS] = { MCP_REV_2025_06_18, MCP_REV_LATEST },
};

enum mcp_rev mcp_rev_negotiate(const char *asked)
{
	for (int r = MCP_REV_2024_11_05; asked && r <= MCP_REV_LATEST; r++)
		if (!strcmp(asked, names[r]))
			return (enum mcp_rev)r;
	return MCP_REV_LATEST;
}

const char *mcp_rev_name(enum mcp_rev rev)
{
	return names[rev];
}

bool mcp_rev_has(enum mcp_rev rev, enum mcp_feature f)
{
	if (rev == MCP_REV_NONE)
		rev = MCP_REV_LATEST;
	return rev >= span[f].first && rev <= span[f].last;
}
