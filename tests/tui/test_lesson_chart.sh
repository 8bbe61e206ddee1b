#!/bin/sh
# SPDX-License-Identifier: MIT
# The files-out lesson in the playground: the chart and the CSV the
# solution leaves in its work dir are kept by the playground, and the
# check's "kept" conditions see them (not yet for the start, passed after).
. "$(dirname "$0")/lib.sh"
need_sandbox

start learn
wait_for "Lesson 1/8"
ready
keys F3
wait_for "Lessons (F3)"
keys 6
wait_for "Lesson 6/8: Files and charts out"
keys F5
# savefig to the Desktop: a violation at the program's line, though the library opened it
wait_for "not yet: the program still writes outside its work dir at line 8" 60
keys S-F10
wait_for "Replace the Editor's program with the lesson's"
keys y
wait_for 'fig.savefig("chart.png")'
keys F5
wait_for "passed - F3 picks the next lesson" 60
ls "$XDG_STATE_HOME"/sandpit/runs/*/chart.png >/dev/null 2>&1 || fail "no kept chart.png under runs/"
keys C-q
_end=$(( $(date +%s) + 10 ))
until [ "$(pane_dead)" = 1 ]; do
	screen | grep -q "Quit without saving" && keys y
	[ "$(date +%s)" -ge "$_end" ] && fail "the playground did not quit"
	sleep 0.05
done
echo "$NAME: ok"
