#!/bin/sh
# SPDX-License-Identifier: MIT
# Each lesson starts clean: it has a carry buffer of its own, kept with
# its progress, and the playground's buffer is never touched by lessons
# (lesson 3's batch and total used to be sent with lesson 4's runs).
. "$(dirname "$0")/lib.sh"
need_sandbox

mkdir -p "$XDG_STATE_HOME/sandpit"
printf '{"mine": 7}\n' > "$XDG_STATE_HOME/sandpit/carry.json"
learn_lesson 3 "Stateless runs"
screen | grep -q '"mine"' && fail "the playground's carry buffer came into a lesson"
take_solution
wait_for "carry(batch=batch + 1, total=total)"
keys F5
wait_for "carry(): results ready" 30
keys F2
wait_for '"batch": 1'
# lesson 4: a buffer of its own, empty
keys F3
wait_for "Lessons (F3)"
keys 4
wait_for "Lesson 4/8"
wait_for "empty: the next run gets nothing"
screen | grep -q '"batch"' && fail "lesson 3's carry buffer followed into lesson 4"
# back to lesson 3: its buffer kept
keys F3
wait_for "Lessons (F3)"
keys 3
wait_for "Lesson 3/8"
wait_for '"batch": 1'
[ -f "$XDG_STATE_HOME/sandpit/lessons/03_carry.carry.json" ] ||
	ls "$XDG_STATE_HOME/sandpit/lessons/" | grep -q carry ||
	fail "lesson 3's buffer is not kept with its progress"
# a demo closes the lesson: the playground's own buffer, as it was
keys F3
wait_for "Lessons (F3)"
keys d
wait_for "Demos"
keys 1 Enter
wait_for '"mine": 7'
grep -q '"mine": 7' "$XDG_STATE_HOME/sandpit/carry.json" || fail "the playground's carry.json changed"
grep -q batch "$XDG_STATE_HOME/sandpit/carry.json" && fail "a lesson wrote into the playground's carry.json"
quit_anyway
echo "$NAME: ok"
