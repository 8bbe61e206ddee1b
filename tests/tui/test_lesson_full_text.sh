#!/bin/sh
# SPDX-License-Identifier: MIT
# Every word of a lesson readable at 80x24, a classroom projector's
# terminal: the status line names each key's Ctrl twin (the strip has no
# row for them there: the program comes first); a hint is written into
# Output in full; Ctrl-D then z shows the goal, the hints so far and the
# verdict in full, wrapped, never cut with "...".
. "$(dirname "$0")/lib.sh"
need_sandbox

new_terminal 80 24 "$QBIN learn"
wait_for "Lesson 1/8"
ready
wait_for "F5/^R run"
screen | grep -q "F10/^D h hint" || fail "the screen does not name F10's Ctrl twin"
keys C-d
wait_for "Lessons (F3)"
keys 4
wait_for "Lesson 4/8: Time limits"
# the hints by their Ctrl twin (F10 is taken by many terminals)
keys C-d
wait_for "Lessons (F3)"
keys h
wait_for "Hint 1/2"
keys C-d
wait_for "Lessons (F3)"
keys h
wait_for "Hint 2/2"
keys C-d
wait_for "Lessons (F3)"
keys z
wait_for "Esc closes"
hint="Hint 2/2: The sieve of Eratosthenes crosses out multiples instead of testing divisors. With a bytearray, one slice assignment crosses out a whole row: sieve[i*i::i] = bytes(len(range(i*i, N, i)))."
joined | grep -qF -- "$hint" || fail "the full hint is not readable in the lesson's full text: $(joined)"
joined | grep -qF -- "Goal: Count the primes below three million." || fail "no goal in the full text"
joined | grep -qF -- "keep the N = ... line)." || fail "the goal is cut in the full text"
screen | grep -qF -- "^D z" && fail "the full text is cut"
keys Escape
wait_gone "Esc closes"
# the hint is in Output too, whole: Output zoomed (Ctrl-W to it, Ctrl-U)
keys C-w
wait_for "[ Output ]"
keys C-u
wait_for "Output zoomed"
joined | grep -qF -- "lesson 4, hint 2/2: The sieve of Eratosthenes crosses out multiples instead of testing divisors." ||
	fail "the hint is not in Output: $(joined)"
echo "$NAME: ok"
