#!/bin/sh
# SPDX-License-Identifier: MIT
# Keys that mean nothing never type text. An Alt-chord and an unknown
# escape sequence are dropped whole, with a word in the status line; with
# a TERM that does not match the terminal (linux inside tmux), F3 and F5
# still open the demos and run, instead of typing "OR" and "[15~" into
# the program; so do Alt-arrows (focus).
. "$(dirname "$0")/lib.sh"
need_sandbox

: > "$T/keys.py"
start "$T/keys.py"
ready
type_text 'a'
keys M-x
wait_status "ignored Alt-x"
type_text 'b'
# an escape sequence no terminal key sends: ESC [ 9 9 ~
tm send-keys -t t -H 1b 5b 39 39 7e
wait_status "ignored the key sequence ESC [99~"
type_text 'c'
wait_for "  1 abc"
# a key bound to nothing says so (F10 is the lessons' hint, F12 shows the
# Carry pane's tabs: every F-key is bound now)
keys IC
wait_status "Insert does nothing here"
screen | grep -q "  1 abc " || fail "something was typed with the text"
keys C-q
wait_for "Quit without saving?"
keys y
wait_exit
tm kill-server

# linux's terminfo names F3 ESC [[C and F5 ESC [[E; tmux sends ESC O R
# and ESC [15~, so ncurses leaves them to us
printf 'print("ran " + "fine")\n' > "$T/wrong_term.py"
new_terminal 120 40 "TERM=linux $QBIN $QT/wrong_term.py"
ready
keys F3
wait_for "Demos (F3)"
keys Escape
wait_gone "Demos (F3)"
keys F5
wait_for "ran fine"
wait_status "ok"
keys M-Right
wait_for "[ Output ]"
keys M-Left
wait_for "[ Editor ]"
screen | grep -qE "OR|\[15~|1;3C" && fail "a key sequence was typed as text"
keys C-s
wait_for "saved"
[ "$(cat "$T/wrong_term.py")" = 'print("ran " + "fine")' ] ||
	fail "the program changed: $(od -c "$T/wrong_term.py" | head)"
echo "$NAME: ok"
