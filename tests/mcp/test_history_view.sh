#!/bin/sh
# SPDX-License-Identifier: MIT
# The history view shows everything the model got, wrapped to the box:
# two runs made through `sandpit mcp`,
#   - one whose output holds a byte that is not UTF-8: listed with its
#     status and shown with its output (U+FFFD for the byte), not "?";
#   - one sent a file, stdin, a carry and a CPU limit, whose last
#     expression has a value (Out), which carries a value out and prints
#     a line longer than the screen;
# are shown at 80x24 and at 120x40 with the limits, stdin, carry in, the
# file sent, its usage, Out, carry out, the variables, the long line's
# end (wrapped, not cut) and the text the model read;
# e loads the code with the file attached, its stdin and carry in their
# panes, and F5 runs it there to the same end (no FileNotFoundError).
#   sh tests/mcp/test_history_view.sh /abs/path/to/sandpit
. "$(dirname "$0")/../tui/lib.sh"
need_sandbox
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed to drive sandpit mcp"; exit 77; }

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
a = rpc(2, "tools/call", {"name": "run_python", "arguments": {
    "code": "import sys\nsys.stdout.buffer.write(b'bad \\xff byte here\\n')\n"}})
code = ("rows = open('data.csv').read().split()\n"
        "print('read', len(rows), 'rows:', rows[1])\n"
        "print('stdin said', input())\n"
        "print(' '.join('w%d' % i for i in range(60)), 'LONG' + 'END')\n"
        "carry(total=n * 3)\n"
        "n * 2\n")
b = rpc(3, "tools/call", {"name": "run_python", "arguments": {
    "code": code, "files": [{"name": "data.csv", "text": "a,b\n1,2\n"}],
    "stdin": "hello stdin\n", "carry": {"n": 21}, "limits": {"cpu": 3}}})
srv.stdin.close()
srv.wait()
assert a["result"]["structuredContent"]["status"] == "ok", a
assert "read 2 rows: 1,2" in b["result"]["structuredContent"]["stdout"], b
PY

# the newest first: the run with the file, then the one with the bad byte
view_run() { # ROW: open the view and the run on that row (0 the newest)
	keys F3
	wait_for "h assistant's runs"
	keys h
	wait_for "Assistant's runs (sandpit mcp): 2"
	[ "$1" -gt 0 ] && keys Down
	keys Enter
	wait_for "--- code ---"
}
# scroll_to TEXT: a page down (the view's pages do not overlap nor skip
# a row) until TEXT shows; each page waited for
scroll_to() {
	until screen | grep -qF -- "$1"; do
		_before=$(screen)
		keys NPage
		_end=$(( $(date +%s) + 10 ))
		while [ "$(screen)" = "$_before" ]; do
			[ "$(date +%s)" -ge "$_end" ] && fail "'$1' not found in the run's view"
			sleep 0.05
		done
	done
}

for size in "80 24" "120 40"; do
	new_terminal $size "$QBIN"
	ready
	keys F3
	wait_for "h assistant's runs"
	keys h
	wait_for "Assistant's runs (sandpit mcp): 2"
	screen | grep "import sys" | grep -q " ok " || fail "the run with a bad byte is not listed as ok at $size"
	keys q
	wait_gone "Assistant's runs"
	view_run 1
	wait_for "Run of"
	screen | grep -q "Run of .*: ok" || fail "the bad byte's run shows no status at $size"
	scroll_to "bad � byte here"
	keys q q
	wait_gone "Assistant's runs"
	view_run 0
	wait_for "limits: cpu 3 s"
	screen | grep -q "used: .* CPU, .* wall, peak memory" || fail "the run's usage is not shown at $size"
	scroll_to "hello stdin"
	scroll_to "carry in: {\"n\":21}"
	scroll_to "data.csv"
	scroll_to "LONGEND"
	scroll_to "--- Out (the last expression's value, of type int) ---"
	scroll_to "42"
	scroll_to "{\"total\":63}"
	scroll_to "rows: list = ['a,b', '1,2']"
	scroll_to "--- what the model read (the tool result's text) ---"
	scroll_to "Status: ok"
	tm kill-server
done

# e + F5: the code runs again with the file it was sent
new_terminal 80 24 "$QBIN"
ready
view_run 0
keys e
wait_for "loaded the run of"
screen | grep -q "files in: data.csv" || fail "data.csv is not attached"
keys F5
wait_status "run 1: ok" 30
screen | grep -q "FileNotFoundError" && fail "the run did not find its file"
screen | grep -q "LONGEND" || fail "the run's output is not the one the model got"
echo "ok: the history view shows what the model got, wrapped, and e + F5 reproduce a run with its file"
