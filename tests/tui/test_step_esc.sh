#!/bin/sh
# SPDX-License-Identifier: MIT
# Step mode's keys are the teacher's, never the program's or the Editor's:
# Esc while the program still runs shows what was held and lets the rest
# show as it comes, and the run goes on to its own end (Esc used to cancel
# it, and the screen said "running" until a second Esc); a Space while
# nothing is held yet, or after the last step, is not typed into the
# Editor (lesson 4's next run then failed with an IndentationError).
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/slow.py" <<'PY'
import socket, time
print("before the wall")
try:
    socket.socket(socket.AF_INET, socket.SOCK_STREAM)
except OSError as e:
    print("refused:", e.errno)
time.sleep(8)
print("after the wall")
PY
new_terminal 80 24 "$QBIN --step --wall 40 $QT/slow.py"
ready
keys F5
wait_status "running"
# a Space while it runs: nothing held yet, or (on a slow machine) the
# first violation already held and shown; either way a step, not a space
keys Space
_end=$(( $(date +%s) + 15 ))
until status | grep -qE "nothing to show yet|more violation"; do
	[ "$(date +%s)" -ge "$_end" ] && fail "a Space while the run goes was not a step: $(status)"
	sleep 0.05
done
keys Escape
wait_status "shows as it comes"
wait_for "before the wall"
wait_for "after the wall" 30
wait_for "run 1 · slow.py · ok" 30
screen | grep -q "cancelled" && fail "Esc cancelled the run"
status | grep -q "\[+\]" && fail "a step key was typed into the Editor"
# the last step, then Space again: nothing typed
keys F5
wait_status "violation to show" 30
keys Space
wait_status "0 more violations"
keys Space
wait_status "run 2: see Violations"
keys Space
wait_status "all of run 2 is shown"
status | grep -q "\[+\]" && fail "a Space after the last step was typed into the Editor"
# typing goes on as usual once the teacher types something else
keys End
type_text " "
wait_status "[+]"
quit_anyway
echo "$NAME: ok"
