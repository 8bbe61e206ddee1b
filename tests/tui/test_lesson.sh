#!/bin/sh
# SPDX-License-Identifier: MIT
# `sandpit learn` walks the first lesson from "not yet" to "passed": the
# starting program's run is judged not yet (with the line that reaches for
# the network), hints show one at a time, past the last one F10 offers the
# solution, the solution key (Shift-F10) asks first and loads the
# reference solution only on yes, its run passes, and after a restart the
# progress is still there (strip, lesson list and lessons.json).
. "$(dirname "$0")/lib.sh"
need_sandbox

start learn
wait_for "Lesson 1/8: No network"
wait_for "0/8 passed"
ready
keys F5
wait_for "not yet: the program still reaches for the network at line 9" 30
keys F10
wait_for "Hint 1/2: Look at the Violations pane"
keys F10
wait_for "Hint 2/2:"
# past the last hint, F10 offers the solution; n keeps the learner's program
keys F10
wait_for "Replace the Editor's program with the lesson's"
keys n
wait_gone "Replace the Editor's program with the lesson's"
screen | grep -q 'urlopen("http://example.com' || fail "n still replaced the program"
take_solution
wait_for "The data comes with the run"
keys F5
# the run passes the main check, then the program runs again on another
# day's prices before the verdict
wait_for "passed - F3 picks the next lesson" 60
wait_for "1/8 passed"
grep -q '"01_network"' "$XDG_STATE_HOME/sandpit/lessons.json" || fail "no progress file"
quit_anyway

# a new session: the progress is kept
# the same terminal, a new session (no new tmux server to race with)
tm respawn-pane -k -t t "$QBIN learn"
wait_for "1/8 passed"
wait_for "passed before - F5 runs it again"
keys F3
wait_for "Lessons (F3)"
screen | grep -q "1 \[passed\] No network" || fail "the lesson list does not mark lesson 1 passed"
keys Escape
wait_gone "Lessons (F3)"
# a classroom's 80x24 terminal still has the strip (one folded row: the
# program comes first), and the status line names the lesson's keys
tm resize-window -t t -x 80 -y 24
wait_for "F5/^R run  F10/^D h hint  ^D s solution"
screen | head -n 1 | grep -q "Lesson 1/8: No network" || fail "no lesson strip at 80x24"
screen | grep -q "terminal too small" && fail "80x24 is too small with the strip"
keys C-q
wait_exit

# --reset forgets it
"$BIN" learn --reset > "$T/reset.out" || fail "learn --reset failed"
grep -q "lesson progress cleared" "$T/reset.out" || fail "reset said: $(cat "$T/reset.out")"
[ ! -e "$XDG_STATE_HOME/sandpit/lessons.json" ] || fail "lessons.json is still there"
echo "$NAME: ok"
