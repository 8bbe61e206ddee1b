#!/bin/sh
# SPDX-License-Identifier: MIT
# F2 never makes a carry buffer that F5 would refuse: a merge over the
# size limit is refused with a message and the buffer is left as it was.
# And a run whose carry() calls were all dropped offers nothing to F2;
# its record says sandpit found it (not the kernel).
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/big.py" <<'PY'
import time
name = "b%d" % time.time_ns()
carry(**{name: "x" * 700000})
print("carried", len(name))
PY
start "$T/big.py"
ready
keys F5
wait_for "carried"
wait_status "ok"
keys F2
wait_for "carried forward: b"
keys F5
wait_for "run 2"
wait_status "ok"
keys F2
wait_for "not merged"
screen | grep -q "invalid" && fail "F2 made an invalid carry buffer"
keys F5
wait_for "run 3"
wait_status "ok"
screen | grep -q "Run refused" && fail "the next run was refused"

# every carry() value refused (nested too deep): carry() raises, and the
# same message sent around it is dropped by sandpit: nothing to carry
cat > "$T/deep.py" <<'PY'
import os
try:
    carry(d=eval("[" * 65 + "]" * 65))
except ValueError as e:
    print("refused:", e)
os.write(3, b'{"t": "carry", "v": {"d": ' + b"[" * 65 + b"]" * 65 + b'}}\n')
PY
keys C-q
wait_exit
tm kill-server
sleep 1
start "$T/deep.py"
ready
keys F5
wait_for "run 1 · deep.py"
wait_for "refused: carry()"
wait_for "nests deeper"
wait_for "carry, found by sandpit"
screen | grep -q "results ready" && fail "offers results though every value was dropped"
echo "$NAME: ok"
