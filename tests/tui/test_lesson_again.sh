#!/bin/sh
# SPDX-License-Identifier: MIT
# A printed answer does not pass in the playground: the time lesson's
# run of `print("primes: 216816")` passes its first run, then the program
# runs again with another N (on a thread of its own, the keys live) and
# the verdict says the count does not follow N, naming the other input
# but not the answer wanted.
. "$(dirname "$0")/lib.sh"
need_sandbox

learn_lesson 4 "Time limits" C-d
# the Editor's text replaced by a fake: select all is not a key here, so
# the starting program is cut line by line (Ctrl-K) until it is empty
for _ in $(seq 1 20); do keys C-k; done
type_text 'print("primes: 216816")'
keys Enter
wait_for 'print("primes: 216816")'
keys F5
wait_for "checking: the program runs again on 1 other input" 30
wait_for 'run again on other inputs (another N)' 60
joined | grep -qF "the count does not follow N" || fail "the verdict does not say why: $(joined)"
joined | grep -qF "148933" && fail "the verdict gives the answer away"
screen | grep -q "passed - F3" && fail "the fake passed"
quit_anyway
echo "$NAME: ok"
