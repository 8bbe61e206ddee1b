#!/bin/sh
# SPDX-License-Identifier: MIT
# Every F-key action has a Ctrl twin (laptops and some terminals eat the
# F-keys), and the help lists both: Ctrl-R runs, Ctrl-B carries forward,
# Ctrl-D opens the demos, Ctrl-G the help, Ctrl-W moves the focus, Ctrl-]
# turns the mouse off and on.
. "$(dirname "$0")/lib.sh"
need_sandbox

printf 'print("twin run")\ncarry(twin=1)\n' > "$T/twins.py"
start "$T/twins.py"
ready
keys C-r
wait_for "twin run"
wait_status "ok"
keys C-b
wait_for '"twin": 1'
keys C-g
wait_for "every F-key has a Ctrl twin"
for pair in "F5, Ctrl-R" "F2, Ctrl-B" "F3, Ctrl-D" "F1, Ctrl-G" "F6, Ctrl-W" "F9, Ctrl-]"; do
	screen | grep -qF -- "$pair" || fail "the help does not list '$pair'"
done
keys Escape
wait_gone "every F-key has a Ctrl twin"
keys C-d
wait_for "Demos (F3)"
keys Escape
wait_gone "Demos (F3)"
keys C-w
wait_for "[ Output ]"
keys C-]
wait_status "mouse off"
keys C-]
wait_status "mouse on"
echo "$NAME: ok"
