/* SPDX-License-Identifier: MIT */
/*
 * commands.h - the headless subcommands: `sandpit run` and `sandpit doctor`.
 * Each takes the arguments after its name and returns the process's exit
 * status as the command-line contract gives it.
 */
#ifndef SP_COMMANDS_H
#define SP_COMMANDS_H

int cmd_run(int argc, char **argv);
/* cmd_batch.c: `sandpit run --batch`, taken when --batch is among the args */
int cmd_run_batch(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
/* cmd_mcp.c: `sandpit mcp`, the MCP server on stdio */
int cmd_mcp(int argc, char **argv);
int cmd_learn(int argc, char **argv);
int cmd_view(int argc, char **argv);
void print_usage(void);
/* doctor_stack.c: print which of numpy, pandas, matplotlib and scipy a
 * sandboxed run can import, with versions; 1 when one is missing. */
int doctor_print_stack(void);

#endif
