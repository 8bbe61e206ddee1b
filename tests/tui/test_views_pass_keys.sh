#!/bin/sh
# SPDX-License-Identifier: MIT
# Quit and run pass through every view over the panes: with the help,
# F8's files, the assistant's runs or the demo menu open, F5 (and Ctrl-R)
# closes the view and runs, Ctrl-Q quits (each view used to swallow every
# key, Ctrl-Q and F5 included).
. "$(dirname "$0")/lib.sh"
need_sandbox

printf 'print("ran", 6 * 7)\nopen("left.txt", "w").write("x")\n' > "$T/prog.py"
new_terminal 80 24 "$QBIN $QT/prog.py"
ready
n=0
for view in F1 F8 history F3; do
	case $view in
	history) keys F3; wait_for "h "; keys h ;;
	*) keys "$view" ;;
	esac
	case $view in
	F1) wait_for "Esc closes" ;;
	F8) wait_for "Files of run" ;;
	history) wait_for "runs" ;;
	F3) wait_for "Demos" ;;
	esac
	n=$((n + 1))
	if [ $((n % 2)) = 0 ]; then keys C-r; else keys F5; fi
	wait_for " run $n ─┐" 30
	wait_status "ok" 30
	screen | grep -q "Esc closes" && fail "the $view view stayed open over the run"
done
keys F1
wait_for "Esc closes"
keys C-q
_end=$(( $(date +%s) + 10 ))
until [ "$(pane_dead)" = 1 ]; do
	screen | grep -q "Quit without saving" && keys y
	[ "$(date +%s)" -ge "$_end" ] && fail "Ctrl-Q over the help did not quit"
	sleep 0.05
done
echo "$NAME: ok"
