#!/bin/sh
# SPDX-License-Identifier: MIT
# The playground keeps a prepared sandbox for F5 (tui/app/app_prewarm.c), at
# 80x24 and 120x40: the Resources pane says it is there and what it
# preloaded, F5 runs the program in it (the run's header in Output says
# "prepared"); with prewarm = false the run is cold. Limits changed with
# F4 throw it away: the next F5 runs prepared under the new limits (a
# 200 MiB allocation under 64M ends memory_limit), and so do a lesson's.
# A prepared run gets the attached file, stdin and the carry buffer, and
# its files are kept. A preparation that fails is said once and F5 runs
# cold. Quitting while one waits leaves no process of it and no cgroup. A bad prewarm or preload
# line is named; a preload module that is not installed is skipped and
# said so.
. "$(dirname "$0")/lib.sh"
need_sandbox

mkdir -p "$XDG_CONFIG_HOME/sandpit"
CONF="$XDG_CONFIG_HOME/sandpit/config"
printf 'print("HELLO" + "-PREP")\n' > "$T/hello.py"
cat > "$T/alloc.py" <<'PY'
b = bytearray(200 << 20)
print("ALLOC" + "-DONE", len(b))
PY

# the playground's own pid (tmux may start it under a shell)
playground_pid() {
	_p=$(tm display -p -t t '#{pane_pid}')
	case $(cat /proc/"$_p"/comm 2>/dev/null) in
	sandpit) echo "$_p" ;;
	*) pgrep -P "$_p" -x sandpit | head -n 1 ;;
	esac
}

# wait_joined TEXT [SECONDS]: until TEXT reads whole in the panes (it may wrap)
wait_joined() {
	_end=$(( $(date +%s) + ${2:-15} ))
	until joined | grep -qF -- "$1"; do
		[ "$(date +%s)" -ge "$_end" ] && fail "'$1' did not appear within ${2:-15} s"
		sleep 0.05
	done
}

# every process under pid $1 (children, their children, ...)
descendants() {
	for _c in $(pgrep -P "$1"); do
		echo "$_c"
		descendants "$_c"
	done
}

# the note names the modules that were preloaded (python3 has numpy here)
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then PRE=" · numpy preloaded"; else PRE=""; fi

for size in 80x24 120x40; do
	printf 'preload = numpy\n' > "$CONF"
	new_terminal "${size%x*}" "${size#*x}" "$QBIN $QT/hello.py"
	ready
	wait_for "prepared$PRE ─" 30
	keys F5
	wait_for "HELLO-PREP"
	wait_for "ok · " 
	screen | grep -F "run 1" | grep -qF "· prepared" ||
		fail "$size: the run's header does not say it was prepared"
	# after the run, the next one is prepared again
	wait_for "prepared$PRE ─" 30
	keys F5
	wait_for "run 2 · hello.py · ok"
	screen | grep -F "run 2" | grep -qF "· prepared" || fail "$size: the second run was not prepared"
	keys C-q
	wait_exit
	tm kill-server

	# prewarm = false: cold, and nothing said about preparing
	printf 'prewarm = false\n' > "$CONF"
	new_terminal "${size%x*}" "${size#*x}" "$QBIN $QT/hello.py"
	ready
	keys F5
	wait_for "HELLO-PREP"
	wait_for "ok · "
	screen | grep -F "run 1" | grep -qF "prepared" && fail "$size: prewarm = false, yet the run was prepared"
	screen | grep -qF "preparing" && fail "$size: prewarm = false, yet something is preparing"
	keys C-q
	wait_exit
	tm kill-server
done

# a prepared run gets what a cold one gets: an attached file, the carry
# buffer (as globals), stdin, and the files it leaves are kept
printf 'preload = numpy\n' > "$CONF"
printf 'FROM-HOST\n' > "$T/data.txt"
cat > "$T/io.py" <<'PY'
import sys
total = globals().get("total", 0) + 10
print("FILE-" + open("data.txt").read().strip())
print("STDIN-" + sys.stdin.read().strip())
print("TOTAL-%d" % total)
open("out.txt", "w").write("LEFT-BEHIND\n")
carry(total=total)
PY
start "$T/io.py"
ready
keys F7
wait_for "No files attached"
type_text "$T/data.txt"
keys Enter
wait_for "files in: data.txt"
keys F12
wait_for "═[ Stdin ]"
type_text "Ada"
wait_for "3 bytes: the next run reads them"
wait_for "prepared$PRE ─" 30
keys F5
wait_for "FILE-FROM-HOST"
wait_for "STDIN-Ada"
wait_for "TOTAL-10"
wait_for "out.txt"
# the header says how the run went only once it has ended
wait_for "run 1 · io.py · ok"
screen | grep -F "run 1" | grep -qF "· prepared" || fail "the run with files, stdin and carry was not prepared"
kept=$(find "$XDG_STATE_HOME/sandpit/runs" -name out.txt | head -n 1)
[ -n "$kept" ] && [ "$(cat "$kept")" = "LEFT-BEHIND" ] || fail "out.txt of a prepared run was not kept"
keys F2
wait_for "carried forward: total"
wait_for "prepared$PRE ─" 30
keys F5
wait_for "TOTAL-20"
wait_for "run 2 · io.py · ok"
screen | grep -F "run 2" | grep -qF "· prepared" || fail "the run with a carry buffer was not prepared"
keys C-q
wait_exit
tm kill-server

# F4: new limits; the next F5 runs prepared under them (64M: nothing preloaded)
printf 'preload = numpy\n' > "$CONF"
start "$T/alloc.py"
ready
wait_for "prepared$PRE ─" 30
keys F4
wait_for "Preset"
type_text "64M"
keys Enter
wait_gone "Preset"
wait_for "/64 MiB"
wait_for "prepared ─" 30
keys F5
wait_status "memory_limit" 30
screen | grep -q "ALLOC-DONE" && fail "the 200 MiB allocation succeeded under 64 MiB"
screen | grep -F "run 1" | grep -qF "· prepared" || fail "the run under the new limits was not prepared"

# quitting while a prepared sandbox waits leaves nothing behind
wait_for "prepared ─" 30
SP=$(playground_pid)
[ -n "$SP" ] || fail "no playground process found"
KIDS=$(descendants "$SP")
[ -n "$KIDS" ] || fail "no prepared sandbox under the playground (pid $SP) while idle"
[ -n "$(find /sys/fs/cgroup -maxdepth 6 -type d -name "sandpit-$SP-*" 2>/dev/null | head -n 1)" ] ||
	[ "$(id -u)" -ne 0 ] || fail "the prepared sandbox has no cgroup (as root)"
keys C-q
wait_exit
for k in $KIDS; do
	_end=$(( $(date +%s) + 5 ))
	while kill -0 "$k" 2>/dev/null && [ "$(date +%s)" -lt "$_end" ]; do sleep 0.05; done
	kill -0 "$k" 2>/dev/null && fail "process $k of the prepared sandbox outlived the playground: $(cat /proc/"$k"/cmdline | tr '\0' ' ')"
done
left=$(find /sys/fs/cgroup -maxdepth 6 -type d -name "sandpit-$SP-*" 2>/dev/null)
[ -z "$left" ] || fail "cgroups left after quitting: $left"
tm kill-server

# a lesson whose limits override the config's: its runs are prepared for
# them (64M: the allocation ends memory_limit), and leaving it prepares
# for the config's limits again
mkdir -p "$T/class"
cat > "$T/class/01_small.lesson" <<'LESSON'
title = Teacher: small memory
constraint = memory
memory = 64M
[goal]
Allocate less.
[start]
b = bytearray(200 << 20)
print("ALLOC" + "-DONE", len(b))
[solution]
print("small")
[check]
status ok
LESSON
printf 'preload = numpy\n' > "$CONF"
start --lessons "$T/class"
ready
keys F3
wait_for "l lessons"
keys l
wait_for "Lessons (F3)"
wait_for "Teacher: small memory"
keys End
keys Enter
wait_for "Teacher: small memory" 
wait_for "/64 MiB"
wait_for "prepared ─" 30
keys F5
wait_status "memory_limit" 30
screen | grep -q "ALLOC-DONE" && fail "the lesson's 64M did not hold in a prepared run"
keys F6
wait_for "[ Output ]"
keys F11
wait_for "run 1 · 01_small.py"
screen | grep -F "run 1 · 01_small.py" | grep -qF "· prepared" ||
	fail "the lesson's run was not prepared for its limits"
keys F11
SP=$(playground_pid)
wait_for "prepared ─" 30
quit_anyway
left=$(find /sys/fs/cgroup -maxdepth 6 -type d -name "sandpit-$SP-*" 2>/dev/null)
[ -z "$left" ] || fail "cgroups left after quitting a lesson: $left"
tm kill-server

# a preparation that fails is said once, and F5 runs cold (an
# "interpreter" that exits at once never becomes ready)
printf 'python = /bin/true\n' > "$CONF"
new_terminal 80 24 "$QBIN $QT/hello.py"
ready
wait_for "not prepared: F5 starts cold ─" 30
wait_for "the sandbox prepared for F5 failed"
keys F5
wait_for "run 1 · hello.py · ok"
screen | grep -F "run 1" | grep -qF "prepared" && fail "a failed preparation was used"
wait_for "not prepared: F5 starts cold ─" 30
[ "$(screen | grep -c "the sandbox prepared for F5 failed")" = 1 ] || fail "the failure was said more than once"
keys C-q
wait_exit
tm kill-server

# a bad value names its line; a missing module is skipped and said so
# (Output zoomed, F6 then F11: its rows read whole when joined)
printf 'mouse = no\nprewarm = maybe\npreload = numpy, 9lives\n' > "$CONF"
start "$T/hello.py"
ready
keys F6
wait_for "[ Output ]"
keys F11
wait_joined "config:2: bad value 'maybe' for prewarm (line ignored)"
wait_joined "config:3: bad value 'numpy, 9lives' for preload: '9lives' is not a module name"
keys C-q
wait_exit
tm kill-server
printf 'preload = numpy, no_such_module_xyz\n' > "$CONF"
start "$T/hello.py"
ready
wait_for "prepared$PRE ─" 30
keys F6
wait_for "[ Output ]"
keys F11
wait_joined "preload: no_such_module_xyz not importable here: skipped" 30
keys F5
wait_for "HELLO-PREP"
echo "$NAME: ok"
