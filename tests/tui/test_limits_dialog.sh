#!/bin/sh
# SPDX-License-Identifier: MIT
# F4 sets the limits from inside the playground: memory 64 MiB shows in the
# Resources pane at once and a 200 MiB allocation then ends with
# memory_limit. A value under the floor is refused with the same words as
# the command line, and nothing changes. Presets (the built-in "tight" and
# one from the config file) fill the fields; only Ctrl-S writes the config
# file, keeping its other lines.
. "$(dirname "$0")/lib.sh"
need_sandbox

mkdir -p "$XDG_CONFIG_HOME/sandpit"
CONF="$XDG_CONFIG_HOME/sandpit/config"
printf '# my settings\nmouse = no\n\n[preset roomy]\nmemory = 1G\nwall = 30\n' > "$CONF"
cp "$CONF" "$T/conf.before"
cat > "$T/alloc.py" <<'PY'
b = bytearray(200 << 20)
print("ALLOC" + "-DONE", len(b))
PY
start "$T/alloc.py"
ready
screen | grep -F "mem" | grep -qF "/512 MiB" || fail "the default memory limit is not shown"

# under the floor: refused, the dialog stays, nothing changes
keys F4
wait_for "Preset"
type_text "8M"
keys Enter
wait_for "too small: give at least 16M"
keys Escape
wait_gone "Preset"
screen | grep -F "mem" | grep -qF "/512 MiB" || fail "a refused value changed the limit"

# 64M, then the run is stopped at it
keys F4
wait_for "Preset"
type_text "64M"
keys Enter
wait_gone "Preset"
wait_for "/64 MiB"
wait_for "limits set, not saved"
keys F5
wait_status "memory_limit" 30
screen | grep -q "ALLOC-DONE" && fail "the 200 MiB allocation succeeded under 64 MiB"
cmp -s "$CONF" "$T/conf.before" || fail "Enter wrote the config file"

# presets: the config's own one, then tight
keys F4
wait_for "Preset"
keys Up Up Up
keys Right Right
wait_for "< roomy >"
screen | grep -F "Memory" | grep -qF "1G" || fail "the roomy preset did not fill memory"
keys Left
wait_for "< tight >"
screen | grep -F "Processes" | grep -q " 8 " || fail "the tight preset did not fill processes"
keys C-s
wait_gone "Preset"
wait_for "limits saved to"
grep -qx "memory = 64M" "$CONF" || fail "memory not saved: $(cat "$CONF")"
grep -qx "procs = 8" "$CONF" || fail "procs not saved: $(cat "$CONF")"
grep -qx "# my settings" "$CONF" || fail "a comment was lost: $(cat "$CONF")"
grep -qx "mouse = no" "$CONF" || fail "a setting was lost: $(cat "$CONF")"
grep -qx "\[preset roomy\]" "$CONF" || fail "the preset was lost: $(cat "$CONF")"
[ "$(grep -c '^memory' "$CONF")" = 2 ] || fail "the top memory line was not replaced in place: $(cat "$CONF")"
[ "$(sed -n '/\[preset roomy\]/,$p' "$CONF" | grep -c '^memory = 1G')" = 1 ] || fail "the preset's line changed: $(cat "$CONF")"
screen | grep -F "proc" | grep -qF "/8" || fail "the Resources pane does not show the saved limits"

# Ctrl-P is F4's twin; a fresh start reads the saved file
keys C-q
wait_exit
tm kill-server
sleep 0.2
start "$T/alloc.py"
ready
wait_for "/64 MiB"
keys C-p
wait_for "Preset"
keys Escape
wait_for "limits unchanged"
echo "$NAME: ok"
