# SPDX-License-Identifier: MIT
# lib.sh - shared helpers for the playground's end-to-end tests.
#
# Each test drives the real binary in a real terminal (tmux), against the
# real sandbox, and checks what a person would see. Sourced by test_*.sh
# with the binary's path as $1. Nothing of the real user is touched: HOME
# and the XDG dirs point into a temp dir that is removed afterwards.
# Waits poll the screen until the expected text appears (or time runs
# out); nothing sleeps and hopes.

set -u
BIN=${1:?usage: $0 PATH/TO/sandpit}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
NAME=$(basename "$0" .sh)

command -v tmux >/dev/null 2>&1 || { echo "$NAME: skip: tmux is not installed"; exit 77; }
[ -x "$BIN" ] || { echo "$NAME: FAIL: no binary at $BIN"; exit 1; }

# The test's files live under /tmp whatever TMPDIR says: the screens
# show their paths on 120 columns, and a long TMPDIR would wrap or cut
# them (docs/testing.md, "Paths"); sandpit itself still gets TMPDIR.
T=$(mktemp -d /tmp/sandpit-tui.XXXXXX)

# The checkout's path and TMPDIR may hold spaces, quotes and UTF-8, and
# be of any length (docs/testing.md, "Paths"). tmux runs a terminal's
# command through the shell, so a path in it goes quoted: shq WORD quotes
# one word, shargs WORD... each of them; QBIN and QT are the binary and
# the temp dir so quoted ("$QBIN $QT/prog.py" is one command line).
shq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
shargs() {
	_s=""
	for _a; do _s="$_s${_s:+ }$(shq "$_a")"; done
	printf '%s' "$_s"
}
QBIN=$(shq "$BIN")
QT=$(shq "$T")
SOCK=sandpit-test-$$
export HOME="$T/home" XDG_CONFIG_HOME="$T/config" XDG_STATE_HOME="$T/state"
export XDG_DATA_HOME="$T/data" XDG_CACHE_HOME="$T/cache"
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_STATE_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME"
export LANG=C.UTF-8 LC_ALL=C.UTF-8
unset TMUX NO_COLOR 2>/dev/null || true

TERMINAL=tmux-256color
infocmp "$TERMINAL" >/dev/null 2>&1 || TERMINAL=screen-256color
cat > "$T/tmux.conf" <<CONF
set -g default-terminal $TERMINAL
set -g remain-on-exit on
set -g status off
set -g escape-time 0
CONF

# tmux's socket file: tmux 3.3a leaves it behind after kill-server.
SOCK_PATH="${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK"

# The terminals' programs (pane pids, from new_terminal and at cleanup):
# cleanup waits until they have exited, since a playground hung up on
# by kill-server still writes its state (recovery.py.info) into $T, and
# removing $T before that left the file's directories behind in /tmp.
PANE_PIDS=""
pane_gone() {
	case $(ps -o stat= -p "$1" 2>/dev/null) in ''|Z*) return 0 ;; esac
	return 1
}
cleanup() {
	PANE_PIDS="$PANE_PIDS $(tm display -p -t t '#{pane_pid}' 2>/dev/null)"
	tmux -L "$SOCK" kill-server >/dev/null 2>&1
	server_gone
	for _p in $PANE_PIDS; do
		_n=0
		until pane_gone "$_p" || [ $_n -ge 200 ]; do
			_n=$((_n + 1))
			sleep 0.05
		done
	done
	rm -f "$SOCK_PATH"
	rm -rf "$T"
}
trap cleanup EXIT
# a test stopped from outside (run.sh's timeout, ^C) cleans up too: the
# tmux server is a daemon, and it and the playground in it outlived the
# script, running (and holding a prepared sandbox) for good
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

tm() { tmux -u -L "$SOCK" -f "$T/tmux.conf" "$@"; }

# server_gone: after a kill-server, until the old server has let go of its
# socket (a new session started sooner can meet it dying: "server exited
# unexpectedly"). tmux says "no server running" once nothing listens
# (the file itself may stay) and "error connecting" once the file is gone;
# anything else (the session, or a dying server's answer) means not yet.
server_gone() {
	_end=$(( $(date +%s) + 10 ))
	while [ "$(date +%s)" -lt "$_end" ]; do
		case $(tm has-session 2>&1) in
		*"no server running"*|*"error connecting"*) return 0 ;;
		esac
		sleep 0.05
	done
}

# new_terminal W H COMMAND: a tmux session of that size running COMMAND,
# once the last server is gone; tried again while tmux refuses (5 s).
new_terminal() {
	server_gone
	_n=0
	until tm new-session -d -s t -x "$1" -y "$2" "$3" 2>/dev/null; do
		_n=$((_n + 1))
		[ $_n -ge 100 ] && fail "tmux did not start a $1x$2 terminal"
		sleep 0.05
	done
	PANE_PIDS="$PANE_PIDS $(tm display -p -t t '#{pane_pid}' 2>/dev/null)"
}

# start [ARGS...]: the playground in a 120x40 terminal.
start() {
	new_terminal 120 40 "$(shargs "$BIN" "$@")"
}

# start_then_shell [ARGS...]: like start, but the pane lives on after the
# playground exits (a shell waits), with "SHELL-AGAIN" on the screen.
start_then_shell() {
	new_terminal 120 40 "$(shargs "$BIN" "$@"); echo SHELL-AGAIN; sleep 60"
}

# screen: what the terminal shows now.
screen() { tm capture-pane -p -t t; }

# keys KEY...: tmux key names (F5, Escape, C-s, Enter, Tab).
keys() { tm send-keys -t t "$@"; }

# type TEXT: literal text, as typed.
type_text() { tm send-keys -t t -l -- "$1"; }

fail() {
	echo "$NAME: FAIL: $*"
	echo "----- screen -----"
	screen 2>/dev/null
	echo "------------------"
	exit 1
}

# wait_for TEXT [SECONDS]: until TEXT is on the screen.
wait_for() {
	_end=$(( $(date +%s) + ${2:-15} ))
	while :; do
		screen | grep -qF -- "$1" && return 0
		[ "$(date +%s)" -ge "$_end" ] && fail "'$1' did not appear within ${2:-15} s"
		sleep 0.05
	done
}

# wait_gone TEXT [SECONDS]: until TEXT has left the screen.
wait_gone() {
	_end=$(( $(date +%s) + ${2:-15} ))
	while :; do
		screen | grep -qF -- "$1" || return 0
		[ "$(date +%s)" -ge "$_end" ] && fail "'$1' still on screen after ${2:-15} s"
		sleep 0.05
	done
}

# wait_file_has FILE TEXT [SECONDS]: until FILE holds TEXT (what the
# playground writes in its own time, as the recovery file after a pause
# in typing).
wait_file_has() {
	_end=$(( $(date +%s) + ${3:-15} ))
	until grep -qF -- "$2" "$1" 2>/dev/null; do
		[ "$(date +%s)" -ge "$_end" ] && fail "$1 did not hold '$2' within ${3:-15} s"
		sleep 0.05
	done
}

# status: the status line (the last row).
status() { screen | tail -n 1; }

# wait_status TEXT [SECONDS]: until the status line shows TEXT.
wait_status() {
	_end=$(( $(date +%s) + ${2:-15} ))
	while :; do
		status | grep -qF -- "$1" && return 0
		[ "$(date +%s)" -ge "$_end" ] && fail "status never showed '$1'"
		sleep 0.05
	done
}

# pane_dead: 1 when the program has exited (remain-on-exit keeps the pane).
pane_dead() { tm display -p -t t '#{pane_dead}'; }

# wait_exit [SECONDS]: until the playground has exited.
wait_exit() {
	_end=$(( $(date +%s) + ${1:-10} ))
	while [ "$(pane_dead)" != 1 ]; do
		[ "$(date +%s)" -ge "$_end" ] && fail "the playground did not exit"
		sleep 0.05
	done
}

# term_sane: after the playground exited, the terminal is as a shell
# needs it: main screen, cursor shown, no mouse reports. (Ask while the
# pane is still alive, see start_then_shell: a dead pane's flags are
# tmux's own.)
term_sane() {
	[ "$(tm display -p -t t '#{alternate_on}')" = 0 ] || fail "the terminal was left on the alternate screen"
	[ "$(tm display -p -t t '#{cursor_flag}')" = 1 ] || fail "the cursor was left hidden"
	[ "$(tm display -p -t t '#{mouse_any_flag}')" = 0 ] || fail "mouse reporting was left on"
}

# need_sandbox: skip (77) when this host cannot run the sandbox at all.
need_sandbox() {
	printf 'print("probe")\n' > "$T/probe.py"
	if ! "$BIN" run "$T/probe.py" > "$T/probe.out" 2> "$T/probe.err"; then
		echo "$NAME: skip: the sandbox does not run here: $(head -c 300 "$T/probe.err")"
		exit 77
	fi
}

# ready: the playground is up and idle.
ready() { wait_status "ready"; }

# need_x10_mouse: skip (77) unless the terminal's mouse reports are X10's
# (ESC [ M, as `mouse` types them).
need_x10_mouse() {
	infocmp "$TERMINAL" 2>/dev/null | grep -q 'kmous=\\E\[M' ||
		{ echo "$NAME: skip: $TERMINAL does not use X10 mouse reports"; exit 77; }
}

# mouse BUTTON COL ROW: one X10 mouse report (1-based cell coordinates):
# tmux's send-keys cannot make mouse events, so type what a terminal sends.
mouse() {
	keys -l "$(printf '\033[M%b%b%b' "\\0$(printf %o $(( $1 + 32 )))" \
		"\\0$(printf %o $(( $2 + 32 )))" "\\0$(printf %o $(( $3 + 32 )))")"
}

# where TEXT: "COL ROW" (1-based cells) of the first TEXT on the screen
# (awk counts bytes: UTF-8 continuation bytes before it are dropped first).
where() {
	screen | awk -v t="$1" '{ i = index($0, t)
		if (i) { p = substr($0, 1, i - 1); gsub(/[\200-\277]/, "", p)
			 print length(p) + 1, NR; exit } }'
}

# click COL ROW: press and release the left button there.
click() { mouse 0 "$1" "$2"; mouse 3 "$1" "$2"; }

# click_title TITLE: click the top border of the pane titled TITLE, which
# focuses it without touching what is inside.
click_title() {
	_pos=$(where "─ $1 ")
	[ -n "$_pos" ] || fail "no pane titled $1"
	click $(( ${_pos% *} + 2 )) ${_pos#* }
}

# joined: the text inside the panes' borders, rows joined with one space
# (for text that wraps: it must read whole, word for word).
joined() {
	screen | sed 's/^[║│ ]*//; s/[║│ ]*$//' | tr '\n' ' ' | tr -s ' '
}

# box TITLE: the text inside the double-lined box titled TITLE (a dialog
# drawn over the panes), its rows joined with one space: a question that
# wraps (a long path in it) reads whole, word for word.
box() {
	screen | python3 -c '
import sys
rows = sys.stdin.read().split("\n")
mark = "\u2550[ " + sys.argv[1] + " ]"
for i, row in enumerate(rows):
    at = row.find(mark)
    if at < 0:
        continue
    left = row.rfind("\u2554", 0, at)
    right = row.find("\u2557", at)
    words = []
    for inner in rows[i + 1:]:
        if left < 0 or right < 0 or len(inner) <= right or inner[left] != "\u2551":
            break
        words += inner[left + 1:right].split()
    print(" ".join(words))
    break' "$1"
}

# wait_box TITLE TEXT [SECONDS]: until the box titled TITLE says TEXT.
wait_box() {
	_end=$(( $(date +%s) + ${3:-15} ))
	while :; do
		box "$1" | grep -qF -- "$2" && return 0
		[ "$(date +%s)" -ge "$_end" ] &&
			fail "the box '$1' did not say '$2' within ${3:-15} s (it said: $(box "$1"))"
		sleep 0.05
	done
}

# ---- lessons (sandpit learn) ----

# learn_lesson N TITLE [LIST_KEY]: `sandpit learn` in a 120x40 terminal,
# then lesson N picked from the lesson list (opened with LIST_KEY, F3 by
# default), until "Lesson N/8: TITLE" shows.
learn_lesson() {
	start learn
	wait_for "Lesson 1/8"
	ready
	keys "${3:-F3}"
	wait_for "Lessons (F3)"
	keys "$1"
	wait_for "Lesson $1/8: $2"
}

# quit_anyway: Ctrl-Q, and y when the playground asks about unsaved work
# (a lesson's buffer usually is), until it has exited (10 s).
quit_anyway() {
	keys C-q
	_end=$(( $(date +%s) + 10 ))
	until [ "$(pane_dead)" = 1 ]; do
		screen | grep -q "Quit without saving" && keys y
		[ "$(date +%s)" -ge "$_end" ] && fail "the playground did not quit"
		sleep 0.05
	done
}

# take_solution: the lesson's reference solution into the Editor
# (Shift-F10, and yes to the question it asks first).
take_solution() {
	keys S-F10
	wait_for "Replace the Editor's program with the lesson's"
	keys y
}
