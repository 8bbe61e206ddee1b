#!/bin/sh
# SPDX-License-Identifier: MIT
# Tab indents in the Editor and Shift-Tab dedents the line or the selected
# block; the focus moves with F6 / Shift-F6, Ctrl-W and Alt-arrows; Tab
# moves it on in the other panes, and Esc there goes back to the Editor.
. "$(dirname "$0")/lib.sh"

printf 'def f():\nreturn 1\nx = 2\n' > "$T/tabs.py"
start "$T/tabs.py"
ready
wait_for "[ Editor ]"
# Tab on line 2 indents it (the cursor is at the line's start)
keys Down Tab
wait_for "    return 1"
screen | grep -q "[ Editor ]" || fail "Tab moved the focus out of the Editor"
# select lines 1-3 and indent them all, then dedent them back
keys C-Home S-Down S-Down S-Down Tab
wait_for "        return 1"
wait_for "    x = 2"
keys BTab
wait_for "    return 1"
wait_gone "    x = 2"
# Shift-Tab on a single line dedents that line
keys Up Up BTab
wait_for "  2 return 1"
# the focus keys
keys F6
wait_for "[ Output ]"
keys Tab
wait_for "[ Resources ]"
keys BTab
wait_for "[ Output ]"
keys S-F6
wait_for "[ Editor ]"
keys C-w
wait_for "[ Output ]"
keys C-w
wait_for "[ Resources ]"
keys M-Left
wait_for "[ Output ]"
keys M-Right
wait_for "[ Resources ]"
keys M-Up
wait_for "[ Output ]"
# typing into Output types nothing anywhere
type_text 'zzz'
keys Escape
wait_for "[ Editor ]"
screen | grep -q zzz && fail "keys typed into Output reached the text"
keys C-s
wait_for "saved"
expected=$(printf 'def f():\nreturn 1\nx = 2\n.')
actual=$(cat "$T/tabs.py"; echo .)
[ "$actual" = "$expected" ] || fail "saved bytes differ: $(od -c "$T/tabs.py" | head)"
echo "$NAME: ok"
