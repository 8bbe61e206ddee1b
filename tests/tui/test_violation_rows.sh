#!/bin/sh
# SPDX-License-Identifier: MIT
# One row a record (issue 12): the same call repeated on one line is one
# row with its count, the same call on another line is a row of its own,
# and each row shows its line; at 80x24.
. "$(dirname "$0")/lib.sh"
need_sandbox
need_x10_mouse

cat > "$T/rows.py" <<'PY'
import socket
for i in range(3):
    try: socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    except OSError: pass
try: socket.socket(socket.AF_INET, socket.SOCK_STREAM)
except OSError: pass
PY
new_terminal 80 24 "$QBIN $QT/rows.py"
ready
keys F5
wait_status "· 2 violations" 30
wait_for "> L3   network x3 socket(AF_INET, SOCK"
# the whole list, zoomed
click_title "Violations"
wait_for "═[ Violations ]"
keys F11
wait_status "F11 back"
wait_for "  L5   network socket(AF_INET, SOCK_STREAM)"
wait_for "network, line 3, seen by the kernel, 3 times:"
keys C-q
wait_exit
echo "$NAME: ok"
