#!/bin/sh
# SPDX-License-Identifier: MIT
# A teacher's lesson directory with one broken file: the playground says
# which file and line is wrong, the other lessons still load, and the
# teacher's good lesson (with an attached file) goes from not yet to
# passed. Reached from the plain playground: F3, then l for the lessons.
. "$(dirname "$0")/lib.sh"
need_sandbox

mkdir -p "$T/class"
cat > "$T/class/01_marks.lesson" <<'LESSON'
title = Teacher: the mean of the marks
constraint = filesystem
[goal]
marks.txt is attached. Print its mean.
[start]
print(open("/home/teacher/marks.txt").read())
[hint]
It is in the work dir.
[solution]
xs = [int(x) for x in open("marks.txt")]
print("mean", sum(xs) / len(xs))
[file marks.txt]
4
6
[check]
status ok
stdout has mean 5.0
LESSON
# the verdict quotes the program's error: an escape sequence in it is shown, never obeyed
printf 'title = Teacher: hostile error\n[goal]\ng\n[start]\nraise ValueError("\\x1b]0;PWNED\\x07 gotcha")\n[solution]\nprint(1)\n[check]\nstatus ok\n' > "$T/class/03_hostile.lesson"
printf 'title = Broken\n[goal]\ng\n[start]\ns\n[solutoin]\nx\n' > "$T/class/02_broken.lesson"

start --lessons "$T/class"
ready
wait_for "02_broken.lesson:6: "
wait_for "[solutoin]"
keys F3
wait_for "l lessons"
keys l
wait_for "Lessons (F3)"
# the broken file is counted in the list, and z there says why
wait_for "1 lesson file not loaded - z shows why"
wait_for "9          Teacher: the mean of the marks"
keys 9
wait_for "Lesson 9/10: Teacher: the mean of the marks"
wait_for "0/10 passed · 1 file not loaded"
keys C-d
wait_for "Lessons (F3)"
keys z
wait_for "Not loaded: "
joined | grep -qF "unknown section [solutoin]" || fail "the full text does not say why the file was not loaded"
keys Escape
wait_gone "Not loaded: "
keys F5
wait_for "not yet: the run ended with an error" 30
take_solution
keys F5
wait_for "passed - F3 picks the next lesson" 30
wait_for "1/10 passed"
grep -q '"class/01_marks"' "$XDG_STATE_HOME/sandpit/lessons.json" || fail "no progress kept for the teacher's lesson"

keys C-d
wait_for "Lessons (F3)"
keys End
keys Enter
wait_for "Lesson 10/10: Teacher: hostile error"
keys F5
wait_for "lesson 10: not yet" 30
# in the strip (the top rows), not only in Output's copy of stderr
screen | head -n 8 | grep -qF "ValueError: ^[]0;PWNED^G gotcha" || fail "the strip does not show the error sanitized"
[ "$(tm display -p -t t '#{pane_title}')" = PWNED ] && fail "the verdict set the terminal's title"
# quit, so nothing is still writing when the temp dir goes
quit_anyway
echo "$NAME: ok"
