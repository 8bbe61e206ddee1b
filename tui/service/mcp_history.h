/* SPDX-License-Identifier: MIT */
/*
 * mcp_history.h - every run `sandpit mcp` makes, kept so a person can see
 * what an assistant ran: $XDG_STATE_HOME/sandpit/mcp-runs/<stamp>-<pid>-<n>/
 * holds code.py (the program), result.json (the `sandpit run --json`
 * object) and files/ (what the program left, kept by the engine). The
 * newest MCP_HISTORY_RUNS are kept, the oldest dropped; each run's files
 * are bounded by its disk limit (docs/mcp.md).
 *
 * With no state directory (no HOME), runs go under a temp dir that
 * lives as long as the server (mcp_history_close removes it).
 */
#ifndef MCP_HISTORY_H
#define MCP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#define MCP_HISTORY_RUNS 100

/* Find or make the root. 0, or -1 with err. */
int mcp_history_open(char *err, size_t errlen);
/* A fresh dir for run n into dir (created, 0700). 0 or -1. */
int mcp_history_new(unsigned n, char *dir, size_t len);
/* Write code.py and result.json into dir (best effort). */
void mcp_history_save(const char *dir, const char *code, size_t code_len, const char *json);
/* Drop the oldest runs over the bound. */
void mcp_history_prune(void);
/* The root dir ("" before open). */
const char *mcp_history_root(void);
/* Remove the temp root, if one was made. */
void mcp_history_close(void);

#endif
