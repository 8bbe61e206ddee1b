#!/bin/sh
# SPDX-License-Identifier: MIT
# Step mode at 80x24 brings each violation's line into the Editor's view
# (centred) and marks it in the gutter, as a normal run does: demo 1's
# second violation is at line 17, below the first screen of the Editor.
. "$(dirname "$0")/lib.sh"
need_sandbox

new_terminal 80 24 "$QBIN --step"
ready
keys F3
wait_for "p step mode"
keys 1 Enter
wait_for "network.py"
keys F5
wait_status "step" 30
screen | grep -q 'socket.gethostbyname' && fail "line 17 is in view before the step"
keys Space
wait_for "1. Fetching a web page"
keys Space
wait_for "2. Looking up a name"
wait_for 'socket.gethostbyname'
# the gutter glyph of a violation beside line 17
screen | grep 'socket.gethostbyname' | grep -q '17' || fail "line 17's number is not beside its text"
row=$(screen | grep 'socket.gethostbyname' | head -n 1)
case $row in
*" 17 "*) fail "no gutter glyph beside line 17: $row" ;;
*"17"?*"print("*) ;;
*) fail "line 17 is not shown: $row" ;;
esac
# centred: lines above it are in view too
screen | grep -q ' 15 print("2. Looking up a name' || fail "line 17 is not centred"
keys Escape
wait_status "run 1" 30
echo "$NAME: ok"
