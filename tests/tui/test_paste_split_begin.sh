#!/bin/sh
# SPDX-License-Identifier: MIT
# A paste whose start marker a slow link splits after "ESC [2" (ncurses
# gives up on it after 25 ms and hands the bytes over one by one) still
# starts a paste: the text goes in as it is, with no auto-indent staircase,
# and no "[200~" or stray "00~" in the buffer.
. "$(dirname "$0")/lib.sh"

ESC=$(printf '\033')
: > "$T/split.py"
start "$T/split.py"
ready
type_text "${ESC}[2"
# the split itself: the rest comes later than ncurses waits (not a wait
# for the screen)
sleep 0.3
type_text "00~if x:"
type_text "$(printf '\r')"
type_text "y = 1${ESC}[201~"
type_text " # after"
wait_for "y = 1 # after"
screen | grep -q "  2     y = 1" && fail "the paste was typed key by key (auto-indent)"
screen | grep -qE "00~|\[2" && fail "part of the marker went into the buffer"
screen | grep -q "  1 if x:" || fail "the first line is not as pasted"
echo "$NAME: ok"
