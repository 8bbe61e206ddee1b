#!/bin/sh
# SPDX-License-Identifier: MIT
# Two runs share nothing but the carry buffer: run 1 carries a total out,
# F2 merges it into the buffer (highlighted), run 2 sees it as a global.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/total.py" <<'PY'
total = globals().get("total", 0) + 10
print("total is", total)
carry(total=total)
PY
start "$T/total.py"
ready
keys F5
wait_for "total is 10"
wait_status "ok"
keys F2
wait_for '"total": 10'
wait_for "carried forward: total"
keys F5
wait_for "total is 20" 30
wait_status "ok"
keys F2
wait_for '"total": 20'
keys C-q
wait_exit
grep -q '"total": 20' "$XDG_STATE_HOME/sandpit/carry.json" || fail "carry buffer not kept"
# the buffer survives a restart
tm kill-server
start "$T/total.py"
ready
wait_for '"total": 20'
echo "$NAME: ok"
