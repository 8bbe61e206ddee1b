#!/bin/sh
# SPDX-License-Identifier: MIT
# What hands expect in the Editor: Ctrl-A / Ctrl-E and Home / End to the
# line's ends, Ctrl-K cuts the line, Ctrl-/ (0x1f, as Ctrl-_ sends it)
# toggles a comment, find and replace ignoring case, copies reach the
# system clipboard by OSC 52 (tmux with set-clipboard on takes them), a
# saved file ends with a newline, and a path that does not exist opens as
# "new file".
. "$(dirname "$0")/lib.sh"

printf '    alpha = 1\nbeta = 2\ngamma = 3' > "$T/keys.py"
start "$T/keys.py"
ready
tm set -g set-clipboard on
keys C-e
wait_status "Ln 1, Col 14"
keys C-a
wait_status "Ln 1, Col 5"
keys C-a
wait_status "Ln 1, Col 1"
keys End
wait_status "Ln 1, Col 14"
keys Home
wait_status "Ln 1, Col 5"
# Ctrl-K: the line goes, into the clipboard and the terminal's
keys C-k
wait_gone "alpha = 1"
_end=$(( $(date +%s) + 10 ))
until [ "$(tm show-buffer 2>/dev/null)" = "    alpha = 1" ]; do
	[ "$(date +%s)" -ge "$_end" ] && fail "the terminal's clipboard has '$(tm show-buffer 2>&1)'"
	sleep 0.05
done
# Ctrl-/ comments the line, and again uncomments it
tm send-keys -t t -H 1f
wait_for "  1 # beta = 2"
keys C-_
wait_for "  1 beta = 2"
# Find "BETA" ignoring case (Tab), then replace it (Ctrl-F again)
keys C-f
type_text 'BETA'
wait_for "not found"
keys Tab
wait_for "Tab: ignoring case"
wait_gone "not found"
keys C-f
wait_for "Replace with:"
type_text 'delta'
keys Enter
wait_for "Replace this match?"
type_text 'y'
wait_for "  1 delta = 2"
wait_for "no more matches"
keys Escape
wait_gone "Replace this match?"
# copy a selection: the clipboard has it too
keys Down Home S-End C-c
_end=$(( $(date +%s) + 10 ))
until [ "$(tm show-buffer 2>/dev/null)" = "gamma = 3" ]; do
	[ "$(date +%s)" -ge "$_end" ] && fail "the copy did not reach the clipboard: '$(tm show-buffer 2>&1)'"
	sleep 0.05
done
keys C-s
wait_for "saved"
expected=$(printf 'delta = 2\ngamma = 3\n.')
actual=$(cat "$T/keys.py"; echo .)
[ "$actual" = "$expected" ] || fail "saved bytes differ: $(od -c "$T/keys.py" | head)"
keys C-q
wait_exit
tm kill-server

start "$T/not_yet.py"
ready
wait_status "new file"
[ -e "$T/not_yet.py" ] && fail "opening a missing path created it"
type_text 'x = 1'
keys C-s
wait_for "saved"
[ "$(cat "$T/not_yet.py"; echo .)" = "$(printf 'x = 1\n.')" ] || fail "new file content: $(od -c "$T/not_yet.py")"
echo "$NAME: ok"
