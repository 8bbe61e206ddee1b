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

/* The tools array for tools/list (a new reference), for a client on
 * protocol 2025-03-26 (old: no outputSchema, no title) or newer. */
json_t *mcp_tools_list(int old_protocol);

#endif
