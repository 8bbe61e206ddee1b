/* SPDX-License-Identifier: MIT */
/*
 * mcp_history.h - every run `sandpit mcp` makes, kept so a person can see
 * what an assistant ran and what the model got back:
 * $XDG_STATE_HOME/sandpit/mcp-runs/<stamp>-<pid>-<n>/ holds
 *
 *   code.py       the program
 *   result.json   the `sandpit run --json` object (Out, carry out, limits)
 *   answer.txt    the text the model read: the tool result's summary,
 *                 and a line for each of its other blocks; absent in
 *                 older runs
 *   request.json  what else the request sent: stdin, the carry in, the
 *                 limits it asked that were lowered, and its input files
 *                 (name, bytes, kept or why not); absent in older runs
 *   in/NAME       those input files, MCP_HISTORY_IN_BYTES at most a run
 *   violations    present when the run had any (it is kept longer)
 *   files/        what the program left, kept by the engine, bounded by
 *                 the run's disk limit
 *
 * Prune policy (docs/mcp.md): runs without violations are kept while
 * they are among the newest MCP_HISTORY_RUNS and younger than
 * MCP_HISTORY_DAYS; runs with violations, apart from them, while among
 * the newest MCP_HISTORY_VIOLATION_RUNS and younger than
 * MCP_HISTORY_VIOLATION_DAYS; then, while all of them take more than
 * MCP_HISTORY_BYTES, the oldest go, those without violations first. The
 * newest run always stays. The root is used only when it is a directory
 * of the user's, never through a link (keptdirs.h).
 *
 * With no state directory (no HOME), or one that is not the user's own,
 * runs go under a temp dir that lives as long as the server
 * (mcp_history_close removes it).
 */
#ifndef MCP_HISTORY_H
#define MCP_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <jansson.h>

#include "service/request.h"

#define MCP_HISTORY_RUNS 100
#define MCP_HISTORY_DAYS 30
#define MCP_HISTORY_VIOLATION_RUNS 100
#define MCP_HISTORY_VIOLATION_DAYS 90
#define MCP_HISTORY_BYTES (512ull << 20)
#define MCP_HISTORY_IN_BYTES (16u << 20)

/* The bounds above as one value (tests prune by smaller ones). */
struct mcp_history_policy {
	unsigned runs, days;                    /* runs without violations */
	unsigned violation_runs, violation_days;
	uint64_t bytes;                         /* all runs together */
};
#define MCP_HISTORY_POLICY { MCP_HISTORY_RUNS, MCP_HISTORY_DAYS, \
	MCP_HISTORY_VIOLATION_RUNS, MCP_HISTORY_VIOLATION_DAYS, MCP_HISTORY_BYTES }

/* Find or make the root. 0, or -1 with err; 0 with err set when the
 * state dir's was refused and a temp dir is used instead (err says why). */
int mcp_history_open(char *err, size_t errlen);
/* Use root, a directory made by the caller, as the root (tests). 0, or
 * -1 with err as mcp_history_open's. */
int mcp_history_open_at(const char *root, char *err, size_t errlen);
/* A fresh dir for run n into dir (created, 0700). 0 or -1. */
int mcp_history_new(unsigned n, char *dir, size_t len);
/* Write code.py and result.json into dir (best effort), and the
 * violations mark when the result has any. */
void mcp_history_save(const char *dir, const char *code, size_t code_len, const char *json,
		      unsigned violations);
/* The text the model reads of result (an MCP tool result): its first
 * text block whole, a line for each other block. malloc'd, or NULL. */
char *mcp_history_answer(const json_t *result);
/* Write it into dir as answer.txt (best effort; NULL: nothing). */
void mcp_history_save_answer(const char *dir, const char *text);
/* Write request.json and in/ for rq (best effort). */
void mcp_history_save_request(const char *dir, const struct request *rq);
/* Drop runs by policy p, now being the time. */
void mcp_history_prune_by(const struct mcp_history_policy *p, time_t now);
/* Drop runs by MCP_HISTORY_POLICY, now. */
void mcp_history_prune(void);
/* The root dir ("" before open). */
const char *mcp_history_root(void);
/* Remove the temp root, if one was made; forget the root. */
void mcp_history_close(void);

#endif
