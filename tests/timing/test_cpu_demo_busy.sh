#!/bin/sh
# SPDX-License-Identifier: MIT
# A timed test, under load (not for `make check`): the CPU demo ends at
# its CPU limit (status cpu_limit) even with two CPU hogs running beside
# it, because its wall limit is at least 4x the CPU limit ("# wall: 4x
# cpu" in the demo), so a busy classroom machine cannot turn the CPU
# lesson into a wall-clock one.
#   sh tests/timing/test_cpu_demo_busy.sh build/sandpit
. "$(dirname "$0")/../tui/lib.sh"
need_sandbox

# two hogs, each a busy shell loop, for as long as the test lasts
sh -c 'while :; do :; done' & H1=$!
sh -c 'while :; do :; done' & H2=$!
trap 'kill $H1 $H2 2>/dev/null; cleanup' EXIT

start
ready
keys F3
wait_for "Demos (F3)"
keys 5
wait_for "cpu_limit.py"
keys F5
# the wall limit the run got: 4x the default 5 s of CPU
wait_for "/20 s" 10
wait_status "cpu_limit" 90
screen | grep -q "wall_limit" && fail "the CPU demo ended at its wall limit"
echo "$NAME: ok"
