#!/bin/sh
# Python indentation as a person types it: auto-indent after ':', Ctrl-T
# to indent by hand (Tab moves focus), Backspace removes one step; the
# program then runs and the saved bytes are what was meant.
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
keys C-t
type_text '# indented by hand'
keys C-s
wait_for "saved"
expected=$(printf 'for i in range(3):\n    if i:\n        print("odd-ish", i)\n    x = i\nprint("done")\n    # indented by hand')
actual=$(cat "$T/loop.py")
[ "$actual" = "$expected" ] || fail "saved bytes differ: $(od -c "$T/loop.py" | head -20)"
keys F5
wait_for "odd-ish 2"
wait_for "done"
wait_status "ok"
# Tab still moves the focus, as the key contract says
keys Tab
sleep 0.2
screen | grep -q "# indented by hand" || fail "the editor lost its text"
keys C-q
wait_exit
echo "$NAME: ok"
