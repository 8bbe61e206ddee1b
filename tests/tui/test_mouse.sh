#!/bin/sh
# SPDX-License-Identifier: MIT
# The mouse: a click focuses the pane under the pointer, the wheel scrolls
# it, and F9 switches mouse capture off (and on) with a message. tmux's
# send-keys cannot make mouse events, so the test types what a terminal
# sends for them in the encoding terminfo's kmous names (X10: ESC [ M,
# then button, column and row, each plus 32).
. "$(dirname "$0")/lib.sh"
need_sandbox

infocmp "$TERMINAL" 2>/dev/null | grep -q 'kmous=\\E\[M' ||
	{ echo "$NAME: skip: $TERMINAL does not use X10 mouse reports"; exit 77; }

# mouse BUTTON COL ROW: one report (1-based cell coordinates).
mouse() {
	keys -l "$(printf '\033[M%b%b%b' "\\0$(printf %o $(( $1 + 32 )))" \
		"\\0$(printf %o $(( $2 + 32 )))" "\\0$(printf %o $(( $3 + 32 )))")"
}

printf 'for i in range(200):\n    print("row", i)\n' > "$T/rows.py"
start "$T/rows.py"
ready
keys F5
wait_for "row 199"
wait_status "ok"
# the Output pane is the lower left one at 120x40: row 30 is inside it
screen | grep -q "═\[ Output \]" && fail "Output was focused before the click"
mouse 0 10 30
mouse 3 10 30
wait_for "═[ Output ]"
screen | grep -q "═\[ Editor \]" && fail "the Editor kept the focus"
# wheel up (button 64) three times: older rows come into view
mouse 64 10 30
mouse 64 10 30
mouse 64 10 30
_end=$(( $(date +%s) + 10 ))
until ! screen | grep -q "row 199"; do
	[ "$(date +%s)" -ge "$_end" ] && fail "the wheel did not scroll the Output pane"
	sleep 0.05
done
# wheel down brings the newest rows back
for _ in 1 2 3 4 5 6; do mouse 65 10 30; done
wait_for "row 199"
keys F9
wait_for "mouse off"
keys F9
wait_for "mouse on"
keys C-q
wait_exit
echo "$NAME: ok"
