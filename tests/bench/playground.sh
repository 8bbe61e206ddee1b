#!/bin/sh
# SPDX-License-Identifier: MIT
# The playground's row of `make bench`: F5 to the program's first line
# running, with a prepared sandbox (prewarm = true, the default) against
# prewarm = false, each in a real playground in tmux, interleaved.
#   sh tests/bench/playground.sh SANDPIT
# The program prints time.time(); the time is taken just before tmux
# sends F5, so tmux's own key delivery is in both figures (its own row
# says how much). Before each F5 the playground is left idle for
# BENCH_PAUSE_MS (default 300: a person's pause, and the prepared side
# must have its sandbox ready, which the Resources pane says). Medians
# of BENCH_RUNS (default 21) presses each. Nothing here is a test: no
# bar fails a build.
set -u
BIN=${1:?usage: tests/bench/playground.sh SANDPIT}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
RUNS=${BENCH_RUNS:-21}
PAUSE_MS=${BENCH_PAUSE_MS:-300}
command -v tmux >/dev/null 2>&1 || { echo "playground bench: tmux is not installed; not measured"; exit 0; }

T=$(mktemp -d "${TMPDIR:-/tmp}/sandpit-bench-pg.XXXXXX")
SOCK=sandpit-bench-$$
cleanup() {
	for s in prep cold key; do tmux -L "$SOCK-$s" kill-server >/dev/null 2>&1; done
	rm -rf "$T"
}
trap cleanup EXIT
pause=$(awk -v m="$PAUSE_MS" 'BEGIN { printf "%.3f", m / 1000 }')

printf 'import time\nprint("T=%%.6f" %% time.time())\n' > "$T/first.py"
cat > "$T/keys.py" <<'PY'
import os, sys, time, tty
tty.setraw(0)
while True:
    b = os.read(0, 64)
    t = time.time()
    os.write(1, ("T=%.6f\r\n" % t).encode())
PY

# session NAME PREWARM COMMAND: a 120x40 playground with its own home
session() {
	h=$T/$1
	mkdir -p "$h/home" "$h/config/sandpit" "$h/state" "$h/data" "$h/cache"
	printf 'prewarm = %s\n' "$2" > "$h/config/sandpit/config"
	HOME=$h/home XDG_CONFIG_HOME=$h/config XDG_STATE_HOME=$h/state \
	XDG_DATA_HOME=$h/data XDG_CACHE_HOME=$h/cache LANG=C.UTF-8 LC_ALL=C.UTF-8 \
		tmux -L "$SOCK-$1" -f /dev/null new-session -d -s t -x 120 -y 40 "$3"
}
screen() { tmux -L "$SOCK-$1" capture-pane -p -t t; }
# wait_screen NAME REGEX: until it shows (20 s at most)
wait_screen() {
	_end=$(( $(date +%s) + 20 ))
	until screen "$1" | grep -qE -- "$2"; do
		[ "$(date +%s)" -ge "$_end" ] && return 1
		sleep 0.02
	done
}
last_t() { screen "$1" | grep -o 'T=[0-9.]*' | tail -n 1; }

# press NAME WAIT_TEXT KEY: idle, F5, then the ms from the key to the
# program's first line (it does not poll the screen while the run starts:
# tmux clients started every few ms would slow what they measure)
press() {
	[ -z "$2" ] || wait_screen "$1" "$2" || { echo fail; return; }
	before=$(last_t "$1")
	sleep "$pause"
	t0=$(date +%s.%N)
	tmux -L "$SOCK-$1" send-keys -t t "$3"
	sleep 0.25
	_end=$(( $(date +%s) + 20 ))
	while :; do
		now=$(last_t "$1")
		if [ -n "$now" ] && [ "$now" != "$before" ] && screen "$1" | tail -n 1 | grep -qv running; then
			break
		fi
		[ "$(date +%s)" -ge "$_end" ] && { echo fail; return; }
		sleep 0.02
	done
	awk -v a="$t0" -v b="${now#T=}" 'BEGIN { printf "%.2f\n", (b - a) * 1000 }'
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (!NR) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
row() { printf '%-44s | %-34s | %-40s | %-22s | %s\n' "$1" "$2" "$3" "$4" "$5"; }

session prep true "$BIN $T/first.py"
session cold false "$BIN $T/first.py"
session key true "python3 $T/keys.py"
wait_screen prep "ready" && wait_screen cold "ready" || {
	echo "playground bench: the playground did not start; not measured"; exit 0; }
: > "$T/prep.ms"; : > "$T/cold.ms"; : > "$T/key.ms"
# one of each first (page cache), not counted
# the Resources pane's note, not a run's header ("ok · 0.01 s · prepared")
READY='prepared( · [^─]* preloaded)? ─'
press prep "$READY" F5 >/dev/null
press cold "" F5 >/dev/null
i=0
while [ $i -lt "$RUNS" ]; do
	press prep "$READY" F5 >> "$T/prep.ms"
	# the prepared side makes its next sandbox after a run: let it finish
	# first, so it does not share the CPUs with the cold side's F5
	wait_screen prep "$READY"
	press cold "" F5 >> "$T/cold.ms"
	press key "" x >> "$T/key.ms"
	i=$((i + 1))
done
fails=$(cat "$T/prep.ms" "$T/cold.ms" | grep -c fail)
mp=$(grep -v fail "$T/prep.ms" | median)
mc=$(grep -v fail "$T/cold.ms" | median)
mk=$(grep -v fail "$T/key.ms" | median)
# the ratio of each round's pair (prepared / cold), its median and 10th-90th
# percentile, as bench.c prints its comparisons
ratio=$(paste "$T/prep.ms" "$T/cold.ms" | awk '$1 != "fail" && $2 != "fail" && $2 > 0 { print $1 / $2 }' |
	sort -n | awk '{ v[NR] = $1 } END {
		if (!NR) { print "nan"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "x%.2f (%.2f-%.2f)", m, v[int(0.1 * (NR - 1) + 1.5)], v[int(0.9 * (NR - 1) + 1.5)] }')
row "playground: F5 to first line" "$mp ms prepared, cold $ratio" "prewarm = false $mc ms ($PAUSE_MS ms idle)" "reported" "-"
row "  tmux's key delivery in both" "$mk ms" "a raw-mode reader's time of the key" "reported" "-"
[ "$fails" -eq 0 ] || echo "playground bench: $fails press(es) showed no new line within 20 s"
exit 0
