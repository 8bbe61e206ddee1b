#!/bin/sh
# SPDX-License-Identifier: MIT
# The Stdin tab of the Carry pane (F12): its text is what the next run
# reads on stdin, input() a line at a time, and the line under the run's
# header says stdin was sent; so does it for the carry buffer's names,
# run after run, even when neither changed. An empty buffer sends nothing.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/ask.py" <<'PY'
try:
    name = input("who? ")
    print("HELLO-" + name)
    print("REST-" + input())
except EOFError:
    print("NO-" + "INPUT")
PY
start "$T/ask.py"
ready
keys F5
wait_for "NO-INPUT"
screen | grep -q "sent with it" && fail "an empty stdin buffer was said to be sent"

keys F12
wait_for "═[ Stdin ]"
type_text "Ada"
keys Enter
type_text "Lovelace"
wait_for "12 bytes: the next run reads them"
# the status line speaks of the stdin text: its own line and column, and
# no ^S (that saves the carry buffer, on the Carry tab)
status | grep -q "Ln 2, Col 9" || fail "the status line's position is not the stdin text's: $(status)"
status | grep -q "S save" && fail "the Stdin tab offers ^S save: $(status)"
keys F5
wait_for "HELLO-Ada"
wait_for "REST-Lovelace"
wait_for "sent with it: stdin 2 lines (12 B)"

# the carry buffer's names too, and both again on an unchanged rerun
keys F12 F12
wait_for "═[ Carry ]"
keys Home DC DC
type_text '{"alpha": 1, "beta": [2]}'
wait_for "valid: goes with the next run"
keys F5
wait_for "run 3"
wait_status "ok"
wait_for "sent with it: carry alpha, beta · stdin 2 lines (12 B)"
keys F5
wait_for "run 4"
wait_status "ok"
[ "$(screen | grep -c 'sent with it: carry alpha, beta · stdin')" -ge 2 ] ||
	fail "an unchanged buffer was not named again under the next header"
echo "$NAME: ok"
