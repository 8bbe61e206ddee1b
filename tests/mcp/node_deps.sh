#!/bin/sh
# SPDX-License-Identifier: MIT
# The npm packages the MCP tests use, installed from the npm registry into
# NODE_DIR on first use, one install at a time (the tests run side by
# side): the official TypeScript SDK, the inspector's command line, ajv
# and ajv-formats (the schema checks). Exit 0 when they are there, 77
# without node (the caller skips), 1 when the install failed.
#   sh tests/mcp/node_deps.sh NODE_DIR
set -u
NODE_DIR=${1:?usage: sh node_deps.sh NODE_DIR}
PKGS="@modelcontextprotocol/sdk @modelcontextprotocol/inspector-cli ajv ajv-formats"
if ! command -v node >/dev/null 2>&1; then
	echo "node is not installed: the MCP client tests need node 20 (apt-get install nodejs npm)"
	exit 77
fi
have() {
	for p in $PKGS; do
		[ -d "$NODE_DIR/node_modules/$p" ] || return 1
	done
}
have && exit 0
mkdir -p "$NODE_DIR" || exit 1
(
	flock 9
	have && exit 0
	cd "$NODE_DIR" && npm install --no-audit --no-fund --loglevel=error $PKGS
) 9> "$NODE_DIR.lock" || { echo "FAIL: npm install of the MCP clients did not work"; exit 1; }
have || { echo "FAIL: npm install left out one of: $PKGS"; exit 1; }
