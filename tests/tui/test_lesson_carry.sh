#!/bin/sh
# SPDX-License-Identifier: MIT
# The stateless lesson in the playground: its solution passes only after
# three runs with F2 between them, and each verdict on the way says how
# far it is (the carry pane is the only thing that goes from run to run).
. "$(dirname "$0")/lib.sh"
need_sandbox

learn_lesson 3 "Stateless runs"
take_solution
wait_for "carry(batch=batch + 1, total=total)"
keys F5
wait_for "not yet: not all three batches are in yet" 30
wait_for "carry(): results ready"
keys F2
wait_for '"batch": 1'
keys F5
wait_for "run 2 ·" 30
wait_status "run 2" 30
wait_for "lesson 3: not yet: not all three batches are in yet" 
screen | grep -q "passed - F3" && fail "two runs passed a lesson that needs three"
keys F2
wait_for '"batch": 2'
keys F5
wait_for "passed - F3 picks the next lesson" 30
wait_for "1/8 passed"
# quit, so nothing is still writing when the temp dir goes
quit_anyway
echo "$NAME: ok"
