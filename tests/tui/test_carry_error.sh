#!/bin/sh
# SPDX-License-Identifier: MIT
# A carry buffer that is not JSON is explained in full at 80x24 (issue
# 12): F5 refuses the run, Output shows the whole reason with its line and
# column, and the cursor goes to the error in the Carry pane.
. "$(dirname "$0")/lib.sh"
need_sandbox

need_x10_mouse

new_terminal 80 24 "$QBIN"
ready
click_title "Carry"
wait_for "═[ Carry ]"
# replace the buffer: Ctrl-A selects nothing here, so select by keys
keys C-Home
keys S-C-End
keys BSpace
type_text '{"a": 1,'
keys Enter
type_text '"b": lx}'
keys F5
wait_for "Run refused:"
joined | grep -qF "Run refused: the carry buffer is not valid JSON: line 2, column 6: a syntax error." ||
	fail "Output does not give the whole reason, with line and column"
wait_status "Ln 2, Col 6"
screen | grep -q "═\[ Carry \]" || fail "the Carry pane lost the focus"
keys C-q
echo "$NAME: ok"
