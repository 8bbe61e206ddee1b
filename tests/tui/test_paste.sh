#!/bin/sh
# SPDX-License-Identifier: MIT
# Bracketed paste: the text arrives as typed, in one piece; an end marker
# split on a slow link (ESC, then "[201~" later) still ends it; and a paste
# whose end never comes gives the keyboard back after a second.
. "$(dirname "$0")/lib.sh"

ESC=$(printf '\033')
: > "$T/p.py"
start "$T/p.py"
ready

# whole: the markers arrive with the text
type_text "${ESC}[200~first = 1${ESC}[201~"
wait_for "first = 1"

# split: ESC alone (ncurses waits 25 ms for the rest), the rest later
keys Enter
type_text "${ESC}[200~second = 2"
type_text "$ESC"
sleep 0.3
type_text "[201~"
type_text " # typed"
wait_for "second = 2 # typed"
screen | grep -q '201~' && fail "the end marker went into the buffer"
keys C-q
wait_for "Quit without saving?"
keys n
wait_gone "Quit without saving?"
[ "$(pane_dead)" = 0 ] || fail "the keyboard is still held by the paste"

# lost: no end at all; after a second without keys, keys work again
keys Enter
type_text "${ESC}[200~third = 3"
sleep 2
type_text " # after"
wait_for "third = 3 # after"
keys C-q
wait_for "Quit without saving?"
keys y
wait_exit
echo "$NAME: ok"
