#!/bin/sh
# SPDX-License-Identifier: MIT
# Each run's files are kept under $XDG_STATE_HOME/sandpit/runs/, bounded
# by the config's keep_runs and keep_bytes (the oldest runs dropped first);
# a run that leaves nothing keeps no directory, and an attached input
# left as it was is not kept.
. "$(dirname "$0")/lib.sh"
need_sandbox

mkdir -p "$XDG_CONFIG_HOME/sandpit"
printf 'keep_runs = 2\nkeep_bytes = 700K\n' > "$XDG_CONFIG_HOME/sandpit/config"
echo go > "$T/go"
cat > "$T/out.py" <<'PY'
import os
if os.path.exists("go"):  # attached with F7: an input, not kept itself
    open("out.bin", "wb").write(b"x" * 300 * 1024)
    print("wrote out.bin")
PY
runs() { ls "$XDG_STATE_HOME/sandpit/runs" 2>/dev/null | wc -l; }
start "$T/out.py"
ready
keys F7
wait_for "No files attached"
type_text "$T/go"
keys Enter
wait_for "files in: go"
for n in 1 2 3; do
	keys F5
	wait_status "run $n: ok" 30
done
[ "$(runs)" -eq 2 ] || fail "keep_runs = 2 left $(runs) run dirs"
ls "$XDG_STATE_HOME/sandpit/runs" | grep -q -- '-1$' && fail "the oldest run was kept"
ls "$XDG_STATE_HOME/sandpit/runs" | grep -q -- '-3$' || fail "the newest run was dropped"
# three more runs of 300 KiB each: 700K holds two
keys F5
wait_status "run 4: ok" 30
[ "$(runs)" -eq 2 ] || fail "after run 4: $(runs) run dirs"
keys F7
wait_for "1 go"
type_text "-"
keys Enter
wait_for "F7 attaches files"
keys F5
wait_status "run 5: ok" 30
ls "$XDG_STATE_HOME/sandpit/runs" | grep -q -- '-5$' && fail "a run that left nothing kept a dir"
[ "$(runs)" -eq 2 ] || fail "after run 5: $(runs) run dirs"
echo "$NAME: ok"
