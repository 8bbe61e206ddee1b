#!/bin/sh
# SPDX-License-Identifier: MIT
# A colleague's lesson in the playground: its file name carries a title
# escape (OSC 0) and its title a bidi override; it asks for 10^9 s of CPU
# and 10^6 G of memory. The list and the strip show the name and the
# title made visible, the terminal's title is never set, the Output pane
# says which limits were lowered to the lesson maxima, the full text (z)
# says it again, and the run passes the lesson's own check of the limits
# in force ("limit cpu <= 60").
. "$(dirname "$0")/lib.sh"
need_sandbox

mkdir -p "$T/class"
cat > "$T/class/$(printf '01_\033]0;PWNED\007')greedy.lesson" <<LESSON
title = Greedy $(printf '\342\200\256')limits
cpu = 1000000000
memory = 1000000G
[goal]
Print hi.
[start]
print("no")
[solution]
print("hi")
[check]
stdout has hi
limit cpu <= 60
limit memory <= 2G
LESSON

start --lessons "$T/class"
ready
keys F3
wait_for "l lessons"
keys l
wait_for "Lessons (F3)"
wait_for "9          Greedy <U+202E>limits"
keys 9
wait_for "Lesson 9/9: Greedy <U+202E>limits"
wait_for "its limits are lowered to the most a lesson may set"
joined | grep -qF "cpu = 1000000000 lowered to 60; memory = 1000000G lowered to 2G" ||
	fail "the Output pane does not say which limits were lowered"
keys C-d
wait_for "Lessons (F3)"
keys z
wait_for "Limits: cpu = 1000000000 lowered to 60"
keys Escape
wait_gone "Limits: cpu"
take_solution
keys F5
wait_for "passed - F3 picks the next lesson" 30
grep -q '"class/01_^\[\]0;PWNED^Ggreedy"' "$XDG_STATE_HOME/sandpit/lessons.json" ||
	fail "the progress is not kept under the visible id: $(cat "$XDG_STATE_HOME/sandpit/lessons.json")"
[ "$(tm display -p -t t '#{pane_title}')" = PWNED ] && fail "the lesson's file name set the terminal's title"
quit_anyway
echo "$NAME: ok"
