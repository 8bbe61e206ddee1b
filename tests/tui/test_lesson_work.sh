#!/bin/sh
# SPDX-License-Identifier: MIT
# A learner's own program of a lesson is kept: switching to another
# lesson and back, and a new session, bring it back (never the starting
# program over it); Ctrl-D then r starts the lesson afresh, after asking.
. "$(dirname "$0")/lib.sh"
need_sandbox

start learn
wait_for "Lesson 1/8"
ready
type_text "# my own try"
keys Enter
wait_for "# my own try"
keys C-d
wait_for "Lessons (F3)"
keys 2
# the lesson's buffer is kept, so there is nothing to ask
wait_for "Lesson 2/8: Filesystem"
screen | grep -q "# my own try" && fail "lesson 2 shows lesson 1's program"
keys C-d
wait_for "Lessons (F3)"
keys 1
wait_for "Lesson 1/8"
wait_for "# my own try"
wait_for "your program from last time"
[ -f "$XDG_STATE_HOME/sandpit/lessons/01_network.py" ] || fail "the work is not in the state dir"
quit_anyway

# the same terminal, a new session (no new tmux server to race with)
tm respawn-pane -k -t t "$QBIN learn"
wait_for "Lesson 1/8"
wait_for "# my own try"
keys C-d
wait_for "r afresh"
keys r
wait_for "Replace the Editor's program with the lesson's starting"
keys y
wait_gone "# my own try"
wait_for "the starting program again"
[ ! -e "$XDG_STATE_HOME/sandpit/lessons/01_network.py" ] || fail "the kept work was not forgotten"
# quit, so nothing is still writing when the temp dir goes
quit_anyway
echo "$NAME: ok"
