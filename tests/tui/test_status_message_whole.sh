#!/bin/sh
# SPDX-License-Identifier: MIT
# At 80 columns the status line never cuts its message: the key hints give
# way first ("run 1: see Violations (F11 zo" kept the hints and cut the
# advice). The advice is right: the key it names, Alt-4, shows Violations
# on the whole screen (F11 zoomed the focused pane, the Editor), and
# Alt-1 ... Alt-5 show each pane; the same key again shows every pane.
. "$(dirname "$0")/lib.sh"
need_sandbox

printf 'import socket\nsocket.create_connection(("192.0.2.1", 80), timeout=1)\n' > "$T/net.py"
new_terminal 80 24 "$QBIN $QT/net.py"
ready
keys F5
wait_status "see Violations (Alt-4)"
status | grep -q "run 1: [a-z]* - see Violations (Alt-4)" ||
	fail "the run's message was cut: $(status)"
keys M-4
wait_for "[ Violations ]" 5
wait_status "Violations zoomed: Alt-4 again shows all"
screen | grep -q "Editor " && fail "Alt-4 left the Editor on the screen"
screen | grep -q "192.0.2.1" || fail "the zoomed Violations pane does not show the violation"
keys M-4
wait_status "all panes"
screen | grep -q "Editor " || fail "Alt-4 again did not show every pane"
# each pane by its number, from anywhere
for n in 1 2 3 5; do
	keys "M-$n"
	wait_status "zoomed"
	keys "M-$n"
	wait_status "all panes"
done
# nothing was typed into the program by those keys
screen | grep -q '^║  1 import socket' || screen | grep -q 'import socket' || fail "the program changed"
screen | grep -qE '[0-9]import|^║  3 [0-9]' && fail "a digit was typed into the Editor"
quit_anyway
echo "$NAME: ok"
