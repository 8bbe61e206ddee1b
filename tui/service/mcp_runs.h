/* SPDX-License-Identifier: MIT */
/*
 * mcp_runs.h - the MCP runs' history read back for a person (the
 * playground's history view): each run dir that `sandpit mcp` wrote
 * (mcp_history.h) as one entry, newest first, and one run's whole story
 * as text: everything the model sent and got: the limits, stdin, carry
 * in and input files it sent, the code, status, output, Out (the last
 * expression's value), carry out, violations, hints and files left.
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
 * first, into *out (malloc'd): their count (0 with *out NULL when none).
 * A root that is a link or another user's is not read: 0, err says why
 * (keptdirs.h); err is "" otherwise. */
size_t mcp_runs_list(const char *root, struct mcp_run_entry **out, char *err, size_t errlen);

/* One run as text lines for a person (sanitized, '\n'-separated): a
 * malloc'd string, or NULL. *picture gets the first kept PNG or JPEG's
 * path (malloc'd) or NULL. */
char *mcp_runs_detail(const struct mcp_run_entry *e, char **picture);

/* The input files the run's request sent that the history kept (in/),
 * as host paths for attaching (each and the array malloc'd; free both):
 * their count; *not_kept gets how many it sent and did not keep. */
size_t mcp_runs_inputs(const struct mcp_run_entry *e, char ***paths, size_t *not_kept);

/* The stdin (malloc'd, *stdin_len) and the carry in (JSON text, malloc'd)
 * the run's request sent, each NULL when it sent none (or the run is
 * older than request.json). */
void mcp_runs_sent(const struct mcp_run_entry *e, char **stdin_text, size_t *stdin_len,
		   char **carry);

/* The run's code (malloc'd, *len), or NULL. */
char *mcp_runs_code(const struct mcp_run_entry *e, size_t *len);

#endif
