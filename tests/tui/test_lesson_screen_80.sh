#!/bin/sh
# SPDX-License-Identifier: MIT
# A lesson at 80x24 keeps the program in view: at least 12 rows of it in
# the Editor (it had 4, and 2 after a verdict or a hint), before and
# after a run; the strip is one folded row (the goal, then the verdict,
# "^D z" reads it whole); Output, Violations and Carry share the bottom
# row, and Alt-4 reads a violation whole.
. "$(dirname "$0")/lib.sh"
need_sandbox

# editor_rows: the program's numbered rows the Editor shows now
editor_rows() { screen | grep -cE '^[║│] *[0-9]+[^0-9]'; }

new_terminal 80 24 "$QBIN learn"
wait_for "Lesson 1/8"
ready
n=$(editor_rows)
[ "$n" -ge 12 ] || fail "the Editor shows $n rows of the program at 80x24, wanted 12"
screen | grep -q "... ^D z" || fail "the goal is not folded with the key that reads it whole"
keys F5
wait_for "not yet" 30
n=$(editor_rows)
[ "$n" -ge 12 ] || fail "after a verdict the Editor shows $n rows, wanted 12"
[ "$(screen | grep -c 'not yet')" -ge 1 ] || fail "the verdict is not on the screen"
screen | grep -q "Violations" || fail "no Violations pane"
keys F10
wait_for "hint 1/2"   # in the strip or, beside a verdict, in Output
n=$(editor_rows)
[ "$n" -ge 12 ] || fail "after a hint the Editor shows $n rows, wanted 12"
# the violation read whole, and back
keys M-4
wait_status "Violations zoomed"
screen | grep -q "network, line" || fail "the zoomed Violations pane does not explain the record"
keys M-4
wait_status "all panes"
# while Violations has the focus its row grows to be read; Esc gives the
# Editor its rows back
keys Escape
wait_for "╔═[ Editor ]"
n=$(editor_rows)
[ "$n" -ge 12 ] || fail "back in the Editor it shows $n rows"
quit_anyway
echo "$NAME: ok"
