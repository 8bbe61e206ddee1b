#!/bin/sh
# SPDX-License-Identifier: MIT
# A person sees what the assistant ran: two runs made through `sandpit
# mcp` (a print and a network attempt) show in the playground's history
# view at 80x24 (F3, then h) with time, status, violations and first
# line; Enter shows one run's code, output and violation; e loads its
# code into the Editor, and F5 runs it there.
#   sh tests/mcp/test_history.sh /abs/path/to/sandpit
. "$(dirname "$0")/../tui/lib.sh"
need_sandbox
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed to drive sandpit mcp"; exit 77; }

# two runs through the server, as a client makes them (XDG_STATE_HOME is lib.sh's)
python3 - "$BIN" <<'PY' || fail "sandpit mcp did not answer the two calls"
import json, subprocess, sys
srv = subprocess.Popen([sys.argv[1], "mcp", "--jobs", "1"], stdin=subprocess.PIPE,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
def rpc(i, method, params):
    srv.stdin.write((json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n").encode())
    srv.stdin.flush()
    while True:
        m = json.loads(srv.stdout.readline())
        if m.get("id") == i:
            return m
rpc(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})
a = rpc(2, "tools/call", {"name": "run_python", "arguments": {"code": "print('from the assistant', 6 * 7)\n"}})
b = rpc(3, "tools/call", {"name": "run_python", "arguments": {"code": "import socket\nsocket.create_connection(('1.1.1.1', 80), timeout=1)\n"}})
srv.stdin.close()
srv.wait()
assert a["result"]["structuredContent"]["stdout"] == "from the assistant 42\n", a
assert b["result"]["isError"] is True, b
PY

new_terminal 80 24 "$QBIN"
ready
keys F3
wait_for "h assistant's runs"
keys h
wait_for "Assistant's runs (sandpit mcp): 2"
wait_for "import socket"
screen | grep -q "print('from the assistant', 6 \* 7)" || fail "the print run is not listed"
screen | grep "import socket" | grep -q "viol" || fail "the network run's violations are not shown in the list"
# the newest first: the network attempt; the print is the second row
keys Down Enter
wait_for "--- code ---"
wait_for "from the assistant 42"
keys Escape
wait_for "Assistant's runs (sandpit mcp): 2"
keys Up Enter
wait_for "--- stderr ---"
keys NPage
wait_for "network at line 2"
keys Escape
wait_for "Assistant's runs (sandpit mcp): 2"
keys Down
keys e
wait_for "loaded the run of"
screen | grep -q "assistant.py" || fail "the Editor does not hold the assistant's code"
wait_gone "Assistant's runs"
keys F5
wait_for "from the assistant 42" 30
wait_status "run 1"
echo "ok: the assistant's runs listed, shown, and loaded into the Editor at 80x24"
