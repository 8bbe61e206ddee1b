#!/bin/sh
# SPDX-License-Identifier: MIT
# The MCP history is pruned only in a directory of the user's own, never
# through a link, and only of run dirs named as sandpit names them:
#   1. a symbolic link planted in place of mcp-runs/ (to a directory full
#      of entries): nothing there is removed or added, and the server says
#      why on stderr and keeps its runs in a temp dir;
#   2. (as root) an mcp-runs/ owned by another user: the same;
#   3. a run with violations outlives 100 newer runs without any, which
#      are pruned to 100 (docs/mcp.md's policy); a file of another name in
#      the dir stays.
# The playground's view (F3, h) does not read runs through such a link
# either, and says why.
#   sh tests/mcp/test_history_dir.sh /abs/path/to/sandpit
. "$(dirname "$0")/../tui/lib.sh"
need_sandbox
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed to drive sandpit mcp"; exit 77; }

# one call through the server; its stderr into $T/mcp.err
one_call() {
	python3 - "$BIN" "$T/mcp.err" <<'PY' || fail "sandpit mcp did not answer"
import json, subprocess, sys
err = open(sys.argv[2], "w")
srv = subprocess.Popen([sys.argv[1], "mcp", "--jobs", "1"], stdin=subprocess.PIPE,
                       stdout=subprocess.PIPE, stderr=err)
def rpc(i, method, params):
    srv.stdin.write((json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n").encode())
    srv.stdin.flush()
    while True:
        m = json.loads(srv.stdout.readline())
        if m.get("id") == i:
            return m
rpc(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}})
a = rpc(2, "tools/call", {"name": "run_python", "arguments": {"code": "print(6 * 7)\n"}})
srv.stdin.close()
srv.wait()
assert a["result"]["structuredContent"]["stdout"] == "42\n", a
PY
}

# DIR gets 105 entries named as run dirs, and a file of the user's
plant() {
	mkdir -p "$1"
	i=0
	while [ $i -lt 105 ]; do
		mkdir "$1/20200101-000000-1-$(printf %05d $i)"
		echo precious > "$1/20200101-000000-1-$(printf %05d $i)/data"
		i=$((i + 1))
	done
	echo precious > "$1/notes.txt"
}

count() { find "$1" -mindepth 1 -maxdepth 1 | wc -l; }

RUNS="$XDG_STATE_HOME/sandpit/mcp-runs"
mkdir -p "$XDG_STATE_HOME/sandpit"

# 1. a link in place of the history dir
plant "$T/victim"
ln -s "$T/victim" "$RUNS"
one_call
[ "$(count "$T/victim")" -eq 106 ] || fail "the link was followed: $(count "$T/victim") of 106 entries left in the linked dir"
[ -f "$T/victim/notes.txt" ] || fail "notes.txt was removed through the link"
grep -q "is a symbolic link" "$T/mcp.err" || fail "the server did not say the history dir is a link: $(cat "$T/mcp.err")"
grep -q "keeps its runs in" "$T/mcp.err" || fail "the server did not say where its runs go instead: $(cat "$T/mcp.err")"
# the playground's view does not read runs through the link, and says why
new_terminal 80 24 "$QBIN"
ready
keys F3
wait_for "h assistant's runs"
keys h
wait_for "Assistant's runs (sandpit mcp): 0"
wait_for "is a symbolic link"
tm kill-server
rm "$RUNS"

# 2. a history dir of another user's (root only: only root can make one)
if [ "$(id -u)" -eq 0 ]; then
	plant "$RUNS"
	chown -R 65534 "$RUNS"
	one_call
	[ "$(count "$RUNS")" -eq 106 ] || fail "another user's dir was pruned: $(count "$RUNS") of 106 entries left"
	grep -q "belongs to uid 65534" "$T/mcp.err" || fail "the server did not say whose dir it is: $(cat "$T/mcp.err")"
	rm -rf "$RUNS"
else
	echo "$NAME: (not root: the foreign-owned dir is not tried)"
fi

# 3. a run with violations, then 100 newer trivial runs, then one more
mkdir -p "$RUNS/20200101-000000-1-00000"
printf '1\n' > "$RUNS/20200101-000000-1-00000/violations"
i=1
while [ $i -le 100 ]; do
	mkdir "$RUNS/20200102-000000-1-$(printf %05d $i)"
	i=$((i + 1))
done
echo mine > "$RUNS/notes.txt"
one_call
[ -d "$RUNS/20200101-000000-1-00000" ] || fail "the run with violations was pruned by 101 trivial runs"
[ ! -d "$RUNS/20200102-000000-1-00001" ] || fail "the oldest trivial run was not pruned"
[ "$(find "$RUNS" -mindepth 1 -maxdepth 1 -type d | wc -l)" -eq 101 ] ||
	fail "$(find "$RUNS" -mindepth 1 -maxdepth 1 -type d | wc -l) run dirs left, not 100 trivial and 1 with violations"
[ -f "$RUNS/notes.txt" ] || fail "a file not named as a run was removed"
echo "ok: the history is pruned only in the user's own dir, never through a link; violations kept longer"
