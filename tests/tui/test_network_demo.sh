#!/bin/sh
# SPDX-License-Identifier: MIT
# The network demo (F3, first entry) shows a network violation with its
# explanation in the Violations pane.
. "$(dirname "$0")/lib.sh"
need_sandbox

start
ready
keys F3
wait_for "Demos (F3)"
wait_for "Network"
keys Enter
wait_gone "Demos (F3)"
wait_for "network.py"
keys F5
wait_for "[ Editor ]"
wait_status "run 1" 30
# the Violations pane is the right column: keep only that part
right() { screen | cut -c 73-; }
_end=$(( $(date +%s) + 30 ))
until right | grep -q "network"; do
	[ "$(date +%s)" -ge "$_end" ] && fail "no network violation listed"
	sleep 0.1
done
right | grep -q "seen by the" || fail "the violation is not explained"
echo "$NAME: ok"
