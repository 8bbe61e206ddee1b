#!/bin/sh
# SPDX-License-Identifier: MIT
# Small things a data analyst's walk found (issue 29): Esc from a zoomed
# Output goes back to the Editor with every pane shown (not the Editor
# zoomed, hiding the next run's output); while a dialog is open the status
# line's keys are the dialog's, not the panes'; the EOFError hint in the
# playground names the Stdin tab (F12).
. "$(dirname "$0")/lib.sh"
need_sandbox

printf 'name = input("name? ")\n' > "$T/ask.py"
new_terminal 80 24 "$QBIN $QT/ask.py"
ready
keys F5
wait_status "error" 30
keys F6 F11
wait_for "═[ Output ]"
wait_for "Stdin tab (F12"
wait_gone "─ Editor "
keys Escape
wait_for "═[ Editor ]"
wait_for "─ Output "
# the next run's output is in sight
keys F5
# the pane's title names the run (its header may scroll past a long hint)
wait_for "─ run 2 ─"

keys F7
wait_for "Attach files (F7)"
wait_status "Enter OK  Esc cancel"
status | grep -q "F5 run" && fail "the panes' keys are offered while a dialog is open"
keys Escape
wait_gone "Attach files (F7)"
wait_status "F5 run"
keys C-q
wait_exit
echo "$NAME: ok"
