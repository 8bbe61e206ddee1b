#!/bin/sh
# SPDX-License-Identifier: MIT
# At 80 columns everything a person must read fits (issue 12): the help
# wraps at words, so every line reads whole once the rows are joined; the
# status line keeps its message whole; our own Output lines wrap at
# words ("64 processes", never "64 processe" / "s").
. "$(dirname "$0")/lib.sh"

new_terminal 80 24 "$QBIN"
ready
# the message reads whole (the key hints give way to it: issue 41), and
# it names the key that runs the demo
status | grep -q "demo: Network: no HTTP, no DNS, no sockets - F5 runs it" ||
	fail "the status line cut its message at 80 columns"
screen | grep -q "64 processes" || fail "the limits line broke a word"
# help: the rows inside its frame, page by page, joined into one text
keys F1
wait_for "Help"
: > "$T/help.txt"
for _ in 1 2 3 4 5 6 7 8; do
	# the help box starts at column 2: two cells of the panes under it,
	# then its border, the text, its border
	screen | sed -n '/\[ Help \]/,/╚═══/p' | sed '1d;$d' | sed 's/^..║//; s/║.*$//' >> "$T/help.txt"
	screen | grep -q "PgDn more" || break
	keys NPage
	sleep 0.1
done
tr '\n' ' ' < "$T/help.txt" | tr -s ' ' > "$T/help.one"
for line in "cancel the running program (Ctrl-C copies when not running)" \
	    "carry the last run's carry() results into the Carry pane" \
	    "zoom the focused pane to the whole screen, and back" \
	    "Enter (or a second click) goes to its line in the Editor" \
	    "Esc, q or F1 closes this help."; do
	grep -qF -- "$line" "$T/help.one" || fail "help does not read whole at 80 columns: $line"
done
keys Escape
wait_gone "Esc closes"
keys C-q
wait_exit
echo "$NAME: ok"
