#!/bin/sh
# SPDX-License-Identifier: MIT
# Unicode typed into the Editor shows right and saves byte-exact.
. "$(dirname "$0")/lib.sh"

start "$T/u.py"
ready
text='s = "héllo wörld 日本語 😀 é"'
type_text "$text"
wait_for 'héllo wörld 日本語 😀'
keys C-s
wait_for "saved"
printf '%s' "$text" > "$T/expect"
# the editor may end the file with a newline; compare the text itself
head -c "$(wc -c < "$T/expect")" "$T/u.py" > "$T/got"
cmp -s "$T/expect" "$T/got" || { od -c "$T/u.py" | head; fail "saved bytes differ"; }
keys C-q
wait_exit
echo "$NAME: ok"
