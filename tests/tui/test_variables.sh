#!/bin/sh
# SPDX-License-Identifier: MIT
# The Variables tab (F12 from Stdin) shows the globals a run left, as
# "name  type  repr", and Enter carries the selected one into the Carry
# buffer, where the next run gets it as a global. What JSON cannot carry
# says so, and a repr with escapes in it shows inert.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/left.py" <<'PY'
try:
    print("BEFORE-" + str(x))
except NameError:
    print("NO-" + "X")
x = 41
PY
start "$T/left.py"
ready
keys F5
wait_for "NO-X"
wait_status "ok"
keys F12 F12
wait_for "═[ Variables ]"
wait_for "x  int  41"
wait_for "1 variable - Enter carries it"
status | grep -q "c carry" || fail "the Variables tab's own keys are not on the status line: $(status)"
status | grep -q "S save" && fail "the Variables tab offers ^S save: $(status)"
keys Enter
wait_for "carried forward: x"
keys F12
wait_for "═[ Carry ]"
wait_for '"x": 41'
keys F5
wait_for "BEFORE-41"
wait_for "sent with it: carry x"

# a value JSON cannot carry is refused with the reason; an escape is inert
cat > "$T/odd.py" <<'PY'
class Loud:
    def __repr__(self):
        return "\x1b[2J\x1b]0;pwned\x07LOUD"
loud = Loud()
PY
keys C-q
wait_exit
tm kill-server
sleep 0.2
start "$T/odd.py"
ready
keys F5
wait_status "ok"
keys F12 F12
wait_for "═[ Variables ]"
wait_for "loud  Loud  ^[[2J^[]0;pwned^GLOUD"
keys Down c
wait_for "JSON cannot carry it"
echo "$NAME: ok"
