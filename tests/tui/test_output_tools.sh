#!/bin/sh
# SPDX-License-Identifier: MIT
# The Output pane can be searched (/ then n), saved to a file (s) and
# cleared (c); when old lines fall off its history cap, a first line
# says how many.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/many.py" <<'PY'
for i in range(25000):
    print("line", i)
    if i == 24000:
        print("FIND" + "ME here")
print("END-" + "OF-RUN")
PY
start "$T/many.py"
ready
keys F5
wait_for "END-OF-RUN" 30
wait_status "ok"
keys F6
wait_for "═[ Output ]"
keys Home
wait_for "older lines fell off the history"
keys End
keys /
wait_for "Find in Output"
type_text "findme"
keys Enter
wait_for "found \"findme\""
screen | grep -q "FINDME here" || fail "the match is not scrolled into view"
keys s
wait_for "Save Output"
keys C-u
type_text "$T/saved.txt"
keys Enter
wait_for "Output saved to"
grep -q "^FINDME here$" "$T/saved.txt" || fail "the saved file lacks the output"
grep -q "^END-OF-RUN$" "$T/saved.txt" || fail "the saved file lacks the end"
grep -q "older lines fell off" "$T/saved.txt" || fail "the saved file lacks the notice"
keys c
wait_for "Output cleared"
wait_gone "END-OF-RUN"
echo "$NAME: ok"
