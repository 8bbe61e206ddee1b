#!/bin/sh
# SPDX-License-Identifier: MIT
# Step mode (--step, or p in the demo menu) shows a run at a teacher's
# pace: nothing of the network demo's output shows until Space; Space
# shows up to the first violation and stops there (the record listed);
# the next Space the next one; Esc shows the rest and the run ends as usual.
. "$(dirname "$0")/lib.sh"
need_sandbox

start --step
ready
keys F3
wait_for "p step mode"
# twelve demos: 1 waits for a second digit, Enter takes 1
keys 1 Enter
wait_for "network.py"
keys F5
wait_for "violations to show - Space shows the next" 30
screen | grep -q "│ 1. Fetching a web page" && fail "output showed before Space"
keys Space
wait_for "│ 1. Fetching a web page"
wait_for "2 more violations"
screen | grep -q "│ 2. Looking up a name" && fail "Space went past the first violation"
screen | grep -q "Violations ─* 1/1 " || fail "the first violation is not listed alone"
keys Space
wait_for "│ 2. Looking up a name"
screen | grep -q "│ 3. Opening a TCP socket" && fail "Space went past the second violation"
keys Escape
wait_for "Data pasted into the program works fine"
wait_status "run 1"
# and off again: a run shows at once
keys F3
wait_for "p step mode"
keys p
wait_for "step mode off"
keys Escape
keys F5
wait_for "run 2 ·" 30
wait_status "run 2" 30
screen | grep -q "violations to show" && fail "step mode is still on"
# quit, so nothing is still writing when the temp dir goes
quit_anyway
echo "$NAME: ok"
