#!/bin/sh
# SPDX-License-Identifier: MIT
# The Resources pane graphs each gauge over the run's time: memory that
# climbs to its limit shows as rising blocks ending in the mark of the
# moment the limit stopped the run, and the graphs stay after the run.
# Without UTF-8 the same graph is drawn in ASCII.
. "$(dirname "$0")/lib.sh"
need_sandbox

mkdir -p "$XDG_CONFIG_HOME/sandpit"
printf 'memory = 64M\n' > "$XDG_CONFIG_HOME/sandpit/config"
cat > "$T/climb.py" <<'PY'
import time
x = []
print("climbing")
for i in range(200):
    x.append(bytearray(2 << 20))
    time.sleep(0.01)
PY
start "$T/climb.py"
ready
keys F5
wait_status "memory_limit" 30
mem=$(screen | grep -F "mem peak")
[ -n "$mem" ] || fail "no memory gauge"
echo "$mem" | grep -q "[▃▄▅▆▇]" || fail "the memory graph shows no climb: $mem"
echo "$mem" | grep -qF "✕" || fail "the memory graph does not mark the limit: $mem"
screen | grep -F "CPU" | grep -q "[▁▂▃▄▅▆▇█]" || fail "the CPU graph is not drawn"
# still there a while later, with nothing running
keys Escape
wait_for "climbing"
screen | grep -F "mem peak" | grep -qF "✕" || fail "the graph did not stay after the run"
keys C-q
wait_exit
tm kill-server
sleep 0.2

# ASCII twin: the same run in a terminal without UTF-8
export LANG=C LC_ALL=C
start "$T/climb.py"
ready
keys F5
wait_status "memory_limit" 30
mem=$(screen | grep -F "mem peak")
echo "$mem" | grep -q "[-=#]\{3,\}X" || fail "no ASCII graph ending in X: $mem"
echo "$NAME: ok"
