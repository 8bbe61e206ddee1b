/* SPDX-License-Identifier: MIT */
/*
 * mcp_runs.h - the MCP runs' history read back for a person (the
 * playground's history view): each run dir that `sandpit mcp` wrote
 * (mcp_history.h) as one entry, newest first, and one run's whole story
 * as text: its code, status, output, violations, hints and files.
 *
 * Everything read here came from a run, so from a program: the text is
 * sanitized (sanitize.h) before the view draws it, and a picture is
 * opened only as a path under the run's own files/ dir.
 */
#ifndef MCP_RUNS_H
#define MCP_RUNS_H

#include <stddef.h>

#define MCP_RUNS_MAX 200

struct mcp_run_entry {
	char dir[1100];          /* the run's dir */
	char when[24];           /* "2026-12-01 21:15:02" */
	char status[24];         /* "ok", "cpu_limit", ... or "?" */
	unsigned violations;
	char first[160];         /* the code's first non-blank line, sanitized */
};

/* The runs under root (NULL: $XDG_STATE_HOME/sandpit/mcp-runs), newest
 * first, into *out (malloc'd): their count (0 with *out NULL when none). */
size_t mcp_runs_list(const char *root, struct mcp_run_entry **out);

/* One run as text lines for a person (sanitized, '\n'-separated): a
 * malloc'd string, or NULL. *picture gets the first kept PNG or JPEG's
 * path (malloc'd) or NULL. */
char *mcp_runs_detail(const struct mcp_run_entry *e, char **picture);

/* The run's code (malloc'd, *len), or NULL. */
char *mcp_runs_code(const struct mcp_run_entry *e, size_t *len);

#endif
