#!/bin/sh
# SPDX-License-Identifier: MIT
# Prompts as hands know them: the suggested name is selected, so typing
# replaces it (Save as once made "state_and_carry.pymine.py", the carry
# save "carry.jsonmycarry.json"); Left, Right, Home, End, Backspace,
# Delete and Ctrl-U edit the field; Tab completes a path; Up and Down
# bring back earlier entries, in file prompts, Find and Go to line.
. "$(dirname "$0")/lib.sh"

mkdir -p "$T/work"
start
ready
keys F3
wait_for "Demos (F3)"
type_text '4'
wait_for "state_and_carry.py"
keys C-s
wait_for "Save as"
wait_for "typing replaces the name"
type_text "$T/work/mine.py"
keys Enter
wait_for "saved $T/work/mine.py"
[ -f "$T/work/mine.py" ] || fail "mine.py was not written"
ls "$T/work" | grep -q "pymine" && fail "the suggestion was not replaced: $(ls "$T/work")"

# "~/" is the home directory, as in a shell
keys C-o
wait_for "File to open:"
type_text '~/at_home.py'
keys Enter
wait_status "new file $HOME/at_home.py"
type_text 'home = 1'
keys C-s
wait_status "saved"
[ -f "$HOME/at_home.py" ] || fail "~/ was not the home directory: $(ls -a "$HOME" "$T/work")"

# the carry buffer's save prompt suggests carry.json the same way
keys C-w C-w C-w C-w
wait_for "[ Carry ]"
keys C-s
wait_for "Save carry buffer"
type_text "$T/work/mycarry.json"
keys Enter
wait_status "carry buffer saved to"
[ -f "$T/work/mycarry.json" ] || fail "mycarry.json was not written: $(ls "$T/work")"
keys Escape
wait_for "[ Editor ]"

# Tab completes the path; Enter opens it
keys C-o
wait_for "File to open:"
type_text "$T/work/mi"
keys Tab
wait_for "$T/work/mine.py"
keys Enter
wait_for "opened $T/work/mine.py"

# Up brings the last entry back; End, Backspace and typing edit it
keys C-o
wait_for "File to open:"
keys Up
wait_for "$T/work/mine.py"
keys End BSpace BSpace
type_text 'txt'
wait_for "$T/work/mine.txt"
keys Home Delete
type_text '/'
keys C-u
wait_gone "$T/work/mine.txt"
keys Up
wait_for "$T/work/mine.py"
keys Left Left Left BSpace
type_text '2'
wait_for "$T/work/min2.py"
keys Enter
wait_status "new file"
wait_for "min2.py"

# Find: the last search is suggested, typing replaces it, Up brings it back
printf 'alpha = 1\nbeta = 2\ngamma = alpha + beta\n' > "$T/work/find.py"
keys C-o
wait_for "File to open:"
type_text "$T/work/find.py"
keys Enter
wait_for "opened"
keys C-f
type_text 'beta'
wait_for "Find: beta"
keys Escape
wait_gone "Find: beta"
keys C-f
wait_for "Find: beta"
type_text 'gamma'
wait_for "Find: gamma "
wait_status "Ln 3, Col 1"
keys Up
wait_for "Find: beta "
keys Down
wait_for "Find: gamma "
keys Escape
# Go to line remembers the line number
keys C-l
wait_for "Go to line:"
type_text '2'
keys Enter
wait_status "Ln 2, Col 1"
keys C-Home C-l
wait_for "Go to line:"
keys Up Enter
wait_status "Ln 2, Col 1"
echo "$NAME: ok"
