#!/bin/sh
# SPDX-License-Identifier: MIT
# `sandpit mcp` with real MCP clients: the official TypeScript SDK's Client
# over StdioClientTransport (client.mjs: every tool, images, resources,
# cancellation, progress, 8 concurrent calls, each bad input, the output
# schema checked with ajv; content.mjs: what a result carries, from a NUL
# byte to four large charts, within its size budget) and the MCP
# inspector's command line
# (tools/list, tools/call). The clients are installed from the npm
# registry into BUILD/mcp-node on first use (node_deps.sh; node 20 and
# npm needed); without node the test is skipped.
#   sh tests/mcp/test_mcp.sh /abs/path/to/sandpit
set -u
SP=${1:?usage: sh test_mcp.sh /abs/path/to/sandpit}
case $SP in /*) ;; *) SP=$(pwd)/$SP ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
NODE_DIR=${SANDPIT_MCP_NODE_DIR:-$(dirname "$SP")/mcp-node}
sh "$HERE/node_deps.sh" "$NODE_DIR" || exit $?

node "$HERE/client.mjs" "$SP" "$NODE_DIR" || exit 1
node "$HERE/content.mjs" "$SP" "$NODE_DIR" || exit 1

# the inspector's command line, when it installed; it reads its own
# package.json as ../package.json from the current dir, hence the cwd
CLI=$NODE_DIR/node_modules/.bin/mcp-inspector-cli
if [ -x "$CLI" ]; then
	W=$(mktemp -d "${TMPDIR:-/tmp}/sp-mcp-cli.XXXXXX") || exit 1
	trap 'rm -rf "$W"' EXIT
	mkdir -p "$NODE_DIR/cwd"
	(cd "$NODE_DIR/cwd" && XDG_STATE_HOME=$W timeout 120 "$CLI" --cli "$SP" mcp --method tools/list) \
		> "$W/list" 2> "$W/err" || { echo "FAIL: inspector tools/list"; cat "$W/err"; exit 1; }
	grep -q '"run_python"' "$W/list" && grep -q '"sandbox_info"' "$W/list" ||
		{ echo "FAIL: inspector tools/list lacks the tools"; cat "$W/list"; exit 1; }
	echo "ok - inspector-cli tools/list"
	(cd "$NODE_DIR/cwd" && XDG_STATE_HOME=$W timeout 120 "$CLI" --cli "$SP" mcp --method tools/call \
		--tool-name run_python --tool-arg 'code=print(6 * 7)') > "$W/call" 2> "$W/err" ||
		{ echo "FAIL: inspector tools/call"; cat "$W/err"; exit 1; }
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["structuredContent"]["stdout"] == "42\n", r
assert r["isError"] is False, r
' "$W/call" || { echo "FAIL: inspector tools/call result"; cat "$W/call"; exit 1; }
	echo "ok - inspector-cli tools/call"
else
	echo "note: @modelcontextprotocol/inspector-cli did not install: its checks not run"
fi
echo "all ok"
