#!/bin/sh
# SPDX-License-Identifier: MIT
# `sandpit mcp`'s JSON-RPC in each MCP revision it speaks, by raw lines
# (protocol.mjs), every message it sends checked against that revision's
# official schema (schema/, vendored) with ajv: ids kept whatever the
# request held, -32700 for no JSON alone, batches in 2025-03-26 alone,
# 2024-11-05 spoken when asked. node and the npm packages as for
# test_mcp.sh (node_deps.sh); without node the test is skipped.
#   sh tests/mcp/test_protocol.sh /abs/path/to/sandpit
set -u
SP=${1:?usage: sh test_protocol.sh /abs/path/to/sandpit}
case $SP in /*) ;; *) SP=$(pwd)/$SP ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
NODE_DIR=${SANDPIT_MCP_NODE_DIR:-$(dirname "$SP")/mcp-node}
sh "$HERE/node_deps.sh" "$NODE_DIR" || exit $?
node "$HERE/protocol.mjs" "$SP" "$NODE_DIR" "$HERE/schema" || exit 1
