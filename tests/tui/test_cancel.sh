#!/bin/sh
# SPDX-License-Identifier: MIT
# A busy loop is cancelled with Esc; while it runs the UI stays responsive
# (F6 moves the focus, the running clock moves). Esc in another pane
# cancels the run first; only the next Esc goes back to the Editor.
. "$(dirname "$0")/lib.sh"
need_sandbox

printf 'while True:\n    pass\n' > "$T/spin.py"
start --cpu 60 --wall 60 "$T/spin.py"
ready
keys F5
wait_status "running"
wait_for "[ Editor ]"
keys F6
wait_for "[ Output ]" 5
keys F6
wait_for "[ Resources ]" 5
wait_status "running 1." 10
keys F5
wait_for "a run is already going"
keys Escape
wait_status "killed" 5
wait_for "run 1 · spin.py · killed"
screen | grep -q "\[ Resources \]" || fail "the Esc that cancelled also moved the focus"
keys Escape
wait_for "[ Editor ]"
echo "$NAME: ok"
