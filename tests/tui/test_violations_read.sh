#!/bin/sh
# SPDX-License-Identifier: MIT
# The Violations pane can be read to its last word at 80x24, 100x30 and
# 120x40 (issue 12): the network demo's three records, each row with its
# line; PgDn scrolls the selected explanation to its end; F11 zooms the
# pane (the teacher's view) and the whole explanation reads as one text,
# wrapped at words; Enter goes to the record's line in the Editor; the
# status line counts the violations.
. "$(dirname "$0")/lib.sh"
need_sandbox

need_x10_mouse

# The whole explanation of a network record, as the engine words it.
WHOLE="The program tried to reach a network. Constraint 1, no network: the sandbox has no network at all (no HTTP, no DNS, no remote databases), so a run cannot leak data or depend on the outside world. Workaround: bring the data in yourself - attach the file (F7, or sandpit run --file), paste it into the program or put it in the carry buffer - instead of fetching it."

for size in 80x24 100x30 120x40; do
	# a fresh terminal of this size
	tm kill-server >/dev/null 2>&1
	new_terminal "${size%x*}" "${size#*x}" "$QBIN"
	ready
	keys F3
	wait_for "Demos (F3)"
	keys Enter
	wait_gone "Demos (F3)"
	wait_for "network.py"
	keys F5
	wait_status "ok · 3 violations" 30
	# each row shows its line: three records, two alike but for the line
	click_title "Violations"
	wait_for "═[ Violations ]"
	wait_for "> L10"
	# PgDn until the frame says the explanation is at its end
	for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do
		screen | grep -q "PgDn more" || break
		keys NPage
		sleep 0.1
	done
	screen | grep -q "PgDn more" && fail "$size: PgDn never reached the end of the explanation"
	screen | grep -q "fetching it." || [ "$size" = 120x40 ] ||
		fail "$size: the last words are not on screen after PgDn"
	# the teacher's view: zoomed, the whole text at once, wrapped at words
	keys F11
	wait_status "F11 back"
	wait_for "L23"
	joined | grep -qF -- "$WHOLE" || fail "$size: the zoomed explanation is not the whole text, word for word"
	screen | grep -q "Output" && fail "$size: other panes still show while zoomed"
	# Up/Down select records; Enter goes to the selected one's line
	keys Down
	wait_for "line 17"
	keys Enter
	wait_for "═[ Editor ]"
	wait_status "Ln 17, Col 1"
	wait_for "Output"
	screen | grep -q "17◆" || fail "$size: the Editor's gutter does not mark line 17"
	# F11 zooms whatever has the focus, and back
	keys F11
	wait_status "F11 back"
	screen | grep -q "Resources" && fail "$size: the Editor's zoom left other panes"
	keys F11
	wait_for "Resources"
	keys C-q
	wait_exit
	echo "$NAME: $size ok"
done
# monochrome: the gutter's marks have ASCII twins (N for network)
tm kill-server >/dev/null 2>&1
new_terminal 80 24 "NO_COLOR=1 $QBIN"
ready
keys F3
wait_for "Demos (F3)"
keys Enter
wait_gone "Demos (F3)"
keys F5
wait_status "ok · 3 violations" 30
click_title "Violations"
wait_for "═[ Violations ]"
# zoomed, a click selects a record, a second click goes to its line
keys F11
wait_for "  L17 "
_p=$(where "L17 ")
click ${_p% *} ${_p#* }
wait_for "network, line 17, seen by the kernel:"
screen | grep -q "═\[ Violations \]" || fail "the first click left the Violations pane"
click ${_p% *} ${_p#* }
wait_status "Ln 17, Col 1"
screen | grep -q " 17N " || fail "monochrome: line 17 is not marked N"
echo "$NAME: ok"
