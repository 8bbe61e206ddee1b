#!/bin/sh
# SPDX-License-Identifier: MIT
# Errors the sandbox's rules cause are explained in the Output pane, right
# under the traceback (issue 12): each program ends on one such error from
# a known line, and its hint must show, word for word as the engine says
# it. Enter in Output (and a click on the traceback line) goes to the line.
. "$(dirname "$0")/lib.sh"
need_sandbox

need_x10_mouse

# case NAME LINE "EXPECTED TEXT" CODE: run CODE, see the hint in Output
check_case() {
	printf '%b' "$4" > "$T/$1.py"
	tm kill-server >/dev/null 2>&1
	new_terminal 120 40 "$QBIN $QT/$1.py"
	ready
	keys F5
	wait_for "hint, line $2:" 30
	# Output zoomed: the whole hint on screen, as one text
	_p=$(where "─ Output ")
	click ${_p% *} ${_p#* }
	wait_for "═[ Output ]"
	keys F11
	wait_status "F11 back"
	joined | grep -qF -- "hint, line $2: $3" || fail "$1: the hint is not shown in full"
	# Enter: the traceback's line in the Editor
	keys Enter
	wait_for "═[ Editor ]"
	wait_status "Ln $2, Col 1"
}

# a module no host has (requests may well be installed: the hint names
# whichever module is missing)
check_case module 2 "There is no module named 'sandpit_absent_module' in the sandbox, and a run cannot install one: it has no network, so pip reaches nothing (constraint 1)." \
	'import math\nimport sandpit_absent_module\n'
check_case file 3 "There is no 'results.csv' here. Runs are stateless (constraint 3)" \
	'import csv\n\nrows = list(csv.reader(open("results.csv")))\n'
check_case input 1 "input() found nothing to read: nobody types into a run" \
	'name = input("name? ")\n'
check_case memory 2 "The program asked for more memory than the run's limit of 512 MiB (constraint 5)." \
	'x = 1\nblock = bytearray(1 << 40)\n'
check_case recursion 2 "The calls nested deeper than Python allows" \
	'def f(n):\n    return f(n + 1)\nf(0)\n'
check_case readonly 1 "'/usr/out.txt' cannot be written: only the work dir /work (and /tmp) can be" \
	'open("/usr/out.txt", "w")\n'
check_case network 2 "The program tried to reach a network, and a run has none (constraint 1)" \
	'import socket\nsocket.gethostbyname("example.com")\n'

# a click on a traceback line goes to it too
printf 'def f():\n    import sandpit_absent_module\n\nf()\n' > "$T/click.py"
tm kill-server >/dev/null 2>&1
new_terminal 120 40 "$QBIN $QT/click.py"
ready
keys F5
wait_for "hint, line 2:" 30
_p=$(where 'File "click.py", line 4')
[ -n "$_p" ] || fail "no traceback line for line 4"
click ${_p% *} ${_p#* }
wait_status "Ln 4, Col 1"
echo "$NAME: ok"
