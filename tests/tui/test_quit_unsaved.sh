#!/bin/sh
# SPDX-License-Identifier: MIT
# Quit with unsaved changes asks first; "n" stays, "y" quits; the file on
# disk is untouched and the recovery file is gone after a clean quit.
. "$(dirname "$0")/lib.sh"

printf 'x = 1\n' > "$T/q.py"
start "$T/q.py"
ready
keys C-End
type_text "y = 2"
wait_for "y = 2"
keys C-q
wait_for "Quit without saving?"
keys n
wait_gone "Quit without saving?"
[ "$(pane_dead)" = 0 ] || fail "quit without asking"
keys C-q
wait_for "Quit without saving?"
keys y
wait_exit
[ "$(cat "$T/q.py")" = "x = 1" ] || fail "the file changed"
echo "$NAME: ok"
