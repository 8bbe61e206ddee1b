#!/bin/sh
# SPDX-License-Identifier: MIT
# Step mode with a record that grows: the same call again on its line is
# announced again with the record's id, and Space selects that record
# (not the last one listed).
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/again.py" <<'PY'
import socket
for i in range(2):
    try: socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    except OSError: pass
    if i == 0:
        try: socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        except OSError: pass
PY
start --step "$T/again.py"
ready
keys F5
wait_for "3 violations to show - Space shows the next" 30
keys Space
wait_for "2 more violations"
keys Space
wait_for "1 more violation "
screen | grep -q "Violations ─* 2/2" || fail "the second record is not selected"
keys Space
wait_status "run 1" 30
screen | grep -q "Violations ─* 1/2" || fail "the grown record is not the one selected"
keys C-q
wait_exit
echo "$NAME: ok"
