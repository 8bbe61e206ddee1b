/* SPDX-License-Identifier: MIT */
/*
 * mcp_tools.h - the tools `sandpit mcp` publishes (tools/list): their
 * names, short descriptions, input schemas and run_python's output
 * schema, which describes the `sandpit run --json` object (the
 * structuredContent of each run_python result).
 */
#ifndef MCP_TOOLS_H
#define MCP_TOOLS_H

#include <jansson.h>

#include "service/mcp_revision.h"

/* The tools array for tools/list (a new reference), with what the
 * client's revision has (before 2025-06-18 no outputSchema and no
 * title; before 2025-03-26 no annotations). */
json_t *mcp_tools_list(enum mcp_rev rev);

#endif
