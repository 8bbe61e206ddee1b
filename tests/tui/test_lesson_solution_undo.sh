#!/bin/sh
# SPDX-License-Identifier: MIT
# Loading a lesson's reference solution never destroys the learner's
# program: it is one undo step (Ctrl-Z brings the learner's text back)
# and the learner's version is set aside in the state dir as ID.mine.py.
. "$(dirname "$0")/lib.sh"
need_sandbox

new_terminal 80 24 "$QBIN learn"
wait_for "Lesson 1/8"
ready
type_text "# my own attempt"
keys Enter
wait_for "# my own attempt"
keys C-d
wait_for "Lessons (F3)"
keys s
wait_for "reference solution?"
keys y
wait_for "The data comes with the run"
screen | grep -q "# my own attempt" && fail "the solution did not replace the program"
mine="$XDG_STATE_HOME/sandpit/lessons/01_network.mine.py"
[ -f "$mine" ] || fail "the learner's version was not set aside"
grep -q "# my own attempt" "$mine" || fail "the set-aside copy is not the learner's: $(cat "$mine")"
keys C-z
wait_gone "The data comes with the run"
keys C-Home
wait_for "# my own attempt"
screen | grep -q "The data comes with the run" && fail "Ctrl-Z left the solution in place"
quit_anyway
echo "$NAME: ok"
