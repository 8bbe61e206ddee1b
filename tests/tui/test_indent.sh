#!/bin/sh
# SPDX-License-Identifier: MIT
# Python indentation as a person types it: auto-indent after ':', Tab to
# indent by hand, Backspace removes one step; the program then runs and
# the saved bytes are what was meant (ending with a newline).
. "$(dirname "$0")/lib.sh"
need_sandbox

: > "$T/loop.py"
start "$T/loop.py"
ready
type_text 'for i in range(3):'
keys Enter
type_text 'if i:'
keys Enter
type_text 'print("odd-ish", i)'
keys Enter BSpace
type_text 'x = i'
keys Enter BSpace
type_text 'print("done")'
keys Enter
keys Tab
type_text '# indented by hand'
keys C-s
wait_for "saved"
expected=$(printf 'for i in range(3):\n    if i:\n        print("odd-ish", i)\n    x = i\nprint("done")\n    # indented by hand\n.')
actual=$(cat "$T/loop.py"; echo .)
[ "$actual" = "$expected" ] || fail "saved bytes differ: $(od -c "$T/loop.py" | head -20)"
keys F5
wait_for "odd-ish 2"
wait_for "done"
wait_status "ok"
# Tab indents, so the focus stays in the Editor
wait_for "[ Editor ]"
screen | grep -q "# indented by hand" || fail "the editor lost its text"
keys C-q
wait_exit
echo "$NAME: ok"
