#!/bin/sh
# SPDX-License-Identifier: MIT
# Resize 120x40 -> 60x20 -> 40x10 (too small) -> 120x40: the layout adapts
# (stacked when narrow), the message names the minimum, nothing is lost.
. "$(dirname "$0")/lib.sh"

printf 'keep_me = "still here"\n' > "$T/r.py"
start "$T/r.py"
ready
wait_for 'keep_me = "still here"'
tm resize-window -t t -x 60 -y 20
_end=$(( $(date +%s) + 10 ))
until [ "$(screen | head -n 1 | wc -L)" -le 60 ] && screen | grep -q "Resources" \
	&& screen | grep -q "Carry"; do
	[ "$(date +%s)" -ge "$_end" ] && fail "no narrow layout at 60x20"
	sleep 0.05
done
wait_for 'keep_me = "still here"'
tm resize-window -t t -x 40 -y 10
wait_for "terminal too small: need"
tm resize-window -t t -x 120 -y 40
wait_gone "terminal too small"
wait_for 'keep_me = "still here"'
wait_for "Violations"
echo "$NAME: ok"
