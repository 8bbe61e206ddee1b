/* SPDX-License-Identifier: MIT */
/*
 * mcp_tools.c - the published tools (mcp_tools.h), written as JSON text
 * so they read as a client sees them. Descriptions stay short: a model
 * reads them on every turn; sandbox_info has the long story.
 */
#include <stdio.h>
#include <string.h>

#include "service/mcp_revision.h"
#include "service/mcp_tools.h"
#include "banned.h"

static const char run_python[] =
"{\"name\": \"run_python\","
" \"title\": \"Run Python in a sandbox\","
" \"description\": \"Run a Python 3 program in a fresh, isolated sandbox and get its output, "
"errors, the limits it hit, the rules it broke (with line numbers) and any matplotlib "
"figures (plt.show() saves them). No network, no host files, an empty work dir each run; "
"nothing persists between calls except what you pass back as carry. numpy, pandas, "
"matplotlib may be available: call sandbox_info for versions, limits and the rules.\","
" \"annotations\": {\"title\": \"Run Python in a sandbox\", \"readOnlyHint\": true,"
"   \"destructiveHint\": false, \"idempotentHint\": false, \"openWorldHint\": false},"
" \"inputSchema\": {\"type\": \"object\", \"required\": [\"code\"], \"additionalProperties\": false,"
"  \"properties\": {"
"   \"code\": {\"type\": \"string\", \"description\": \"The Python program (run as main.py).\"},"
"   \"files\": {\"type\": \"array\", \"maxItems\": 64, \"description\": \"Files put in the work "
"dir before the run: each {name, text} or {name, base64} (or {name, path} under a directory "
"the server allows).\", \"items\": {\"type\": \"object\", \"required\": [\"name\"],"
"     \"properties\": {\"name\": {\"type\": \"string\"}, \"text\": {\"type\": \"string\"},"
"      \"base64\": {\"type\": \"string\"}, \"path\": {\"type\": \"string\"}}}},"
"   \"stdin\": {\"type\": \"string\", \"description\": \"The program's standard input.\"},"
"   \"carry\": {\"type\": \"object\", \"description\": \"The carry_out of an earlier run: its "
"names become globals. In the program, carry(name=value) keeps a value for the next run.\"},"
"   \"limits\": {\"type\": \"object\", \"additionalProperties\": false, \"description\": "
"\"Lower or raise (up to the server's maxima) this run's limits.\", \"properties\": {"
"     \"cpu\": {\"type\": \"number\", \"description\": \"CPU seconds\"},"
"     \"wall\": {\"type\": \"number\", \"description\": \"wall-clock seconds\"},"
"     \"memory\": {\"type\": [\"integer\", \"string\"], \"description\": \"bytes, or \\\"256M\\\"\"},"
"     \"output\": {\"type\": [\"integer\", \"string\"], \"description\": \"stdout+stderr bytes\"},"
"     \"disk\": {\"type\": [\"integer\", \"string\"], \"description\": \"work dir bytes\"},"
"     \"procs\": {\"type\": \"integer\", \"description\": \"processes and threads\"}}}}},"
" \"outputSchema\": {\"type\": \"object\", \"description\": \"sandpit run --json's object: "
"every field a result can have is listed here.\","
"  \"required\": [\"status\", \"exit_code\", \"signal\", \"stdout\", \"stderr\", \"truncated\","
"   \"usage\", \"limits\", \"violations\", \"files\", \"hints\", \"carry_out\"],"
"  \"$defs\": {\"cut\": {\"type\": \"object\", \"required\": [\"bytes\", \"kept\"],"
"    \"description\": \"the stream was over the result's size budget: its whole size, the "
"bytes kept here (stdout's first, stderr's last) and where resources/read serves it whole\","
"    \"properties\": {\"bytes\": {\"type\": \"integer\"}, \"kept\": {\"type\": \"integer\"},"
"     \"uri\": {\"type\": \"string\"}}}},"
"  \"properties\": {"
"   \"status\": {\"type\": \"string\", \"enum\": [\"ok\", \"error\", \"cpu_limit\", \"wall_limit\","
"     \"memory_limit\", \"output_limit\", \"killed\", \"sandbox_error\"]},"
"   \"exit_code\": {\"type\": [\"integer\", \"null\"], \"description\": \"null when it did not exit\"},"
"   \"signal\": {\"type\": [\"integer\", \"null\"]},"
"   \"stdout\": {\"type\": \"string\", \"description\": \"a byte that is not UTF-8 is U+FFFD\"},"
"   \"stderr\": {\"type\": \"string\"},"
"   \"stdout_base64\": {\"type\": \"string\", \"description\": \"the exact bytes, when stdout "
"is not UTF-8\"},"
"   \"stderr_base64\": {\"type\": \"string\"},"
"   \"stdout_cut\": {\"$ref\": \"#/$defs/cut\"}, \"stderr_cut\": {\"$ref\": \"#/$defs/cut\"},"
"   \"truncated\": {\"type\": \"boolean\"}, \"prepared\": {\"type\": \"boolean\"},"
"   \"usage\": {\"type\": \"object\", \"properties\": {"
"     \"cpu_ms\": {\"type\": \"integer\"}, \"wall_ms\": {\"type\": \"integer\"},"
"     \"peak_memory_bytes\": {\"type\": \"integer\"}, \"peak_memory_source\": {\"type\": \"string\"},"
"     \"output_bytes\": {\"type\": \"integer\"}, \"disk_bytes\": {\"type\": \"integer\"},"
"     \"procs_peak\": {\"type\": \"integer\"}, \"prepare_ms\": {\"type\": \"integer\"}}},"
"   \"limits\": {\"type\": \"object\", \"properties\": {"
"     \"cpu_ms\": {\"type\": \"integer\"}, \"wall_ms\": {\"type\": \"integer\"},"
"     \"memory_bytes\": {\"type\": \"integer\"}, \"output_bytes\": {\"type\": \"integer\"},"
"     \"disk_bytes\": {\"type\": \"integer\"}, \"procs\": {\"type\": \"integer\"}}},"
"   \"violations\": {\"type\": \"array\", \"items\": {\"type\": \"object\","
"     \"required\": [\"kind\", \"what\", \"message\", \"line\"], \"properties\": {"
"      \"id\": {\"type\": \"integer\"}, \"kind\": {\"type\": \"string\"},"
"      \"what\": {\"type\": \"string\"}, \"message\": {\"type\": \"string\"},"
"      \"source\": {\"type\": \"string\"}, \"line\": {\"type\": [\"integer\", \"null\"]},"
"      \"count\": {\"type\": \"integer\"}, \"program_context\": {\"type\": \"string\"}}}},"
"   \"files\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"required\": [\"path\", \"bytes\"],"
"     \"properties\": {\"path\": {\"type\": \"string\"}, \"bytes\": {\"type\": \"integer\"},"
"      \"kept\": {\"type\": [\"string\", \"null\"]}, \"skipped\": {\"type\": \"string\"}}}},"
"   \"files_in\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
"     \"path\": {\"type\": \"string\"}, \"bytes\": {\"type\": \"integer\"}}}},"
"   \"hints\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
"     \"line\": {\"type\": [\"integer\", \"null\"]}, \"about\": {\"type\": \"string\"},"
"     \"message\": {\"type\": \"string\"}}}},"
"   \"samples\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
"     \"t_ms\": {\"type\": \"integer\"}, \"cpu_ms\": {\"type\": \"integer\"},"
"     \"memory_bytes\": {\"type\": \"integer\"}, \"procs\": {\"type\": \"integer\"},"
"     \"output_bytes\": {\"type\": \"integer\"}, \"disk_bytes\": {\"type\": \"integer\"},"
"     \"limit\": {\"type\": \"string\"}}}},"
"   \"variables\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
"     \"name\": {\"type\": \"string\"}, \"type\": {\"type\": \"string\"},"
"     \"repr\": {\"type\": \"string\"}, \"carryable\": {\"type\": \"boolean\"}}}},"
"   \"variables_more\": {\"type\": \"integer\"},"
"   \"carry_out\": {\"type\": [\"object\", \"null\"]},"
"   \"last_value\": {\"type\": [\"object\", \"null\"], \"description\": \"the last expression's "
"value, as a notebook's Out\", \"required\": [\"type\", \"repr\"], \"properties\": {"
"     \"type\": {\"type\": \"string\"}, \"repr\": {\"type\": \"string\"}}},"
"   \"layers\": {\"type\": \"object\", \"additionalProperties\": {\"type\": [\"string\", \"boolean\"]}},"
"   \"error\": {\"type\": \"string\"}}}}";

static const char sandbox_info[] =
"{\"name\": \"sandbox_info\","
" \"title\": \"About the Python sandbox\","
" \"description\": \"What run_python's sandbox offers: the Python and package versions, the "
"default and maximum limits, each rule and its way around, and how carry keeps values "
"between runs. Also the resource sandpit://environment.\","
" \"annotations\": {\"title\": \"About the Python sandbox\", \"readOnlyHint\": true,"
"   \"openWorldHint\": false},"
" \"inputSchema\": {\"type\": \"object\", \"properties\": {}, \"additionalProperties\": false}}";

json_t *mcp_tools_list(enum mcp_rev rev)
{
	json_t *list = json_array();
	const char *const texts[] = { run_python, sandbox_info };

	for (size_t i = 0; i < 2; i++) {
		json_error_t e;
		json_t *t = json_loads(texts[i], 0, &e);
		if (!t) {
			/* a typo in the text above: said plainly, never silently */
			fprintf(stderr, "sandpit mcp: tool %zu: %s at %d\n", i, e.text, e.position);
			continue;
		}
		if (!mcp_rev_has(rev, MCP_RICH_RESULTS)) {
			json_object_del(t, "outputSchema");
			json_object_del(t, "title");
		}
		if (!mcp_rev_has(rev, MCP_TOOL_ANNOTATIONS))
			json_object_del(t, "annotations");
		json_array_append_new(list, t);
	}
	return list;
}
