#!/bin/sh
# SPDX-License-Identifier: MIT
# SIGHUP (the terminal went away) writes the recovery file; the next start
# offers it, naming the file and the time, and restoring brings the text
# back under its own file's name, so Ctrl-S saves it where it belongs.
. "$(dirname "$0")/lib.sh"

start "$T/lost.py"
ready
type_text 'precious = "not saved yet"'
wait_for 'precious = "not saved yet"'
pid=$(tm display -p -t t '#{pane_pid}')
kill -HUP "$pid"
wait_exit
[ -s "$XDG_STATE_HOME/sandpit/recovery.py" ] || fail "no recovery file"
grep -q 'precious = "not saved yet"' "$XDG_STATE_HOME/sandpit/recovery.py" ||
	fail "recovery file lacks the text"
[ -e "$T/lost.py" ] && fail "the file was written without a save"
tm kill-server
start
wait_for "Unsaved work from the last session"
wait_for "lost.py"
screen | tr -d "\n" | grep -qE "kept at [0-9]{2}:[0-9]{2} on" || fail "the offer does not say when"
keys r
wait_for 'precious = "not saved yet"'
wait_for "Ctrl-S saves it to"
wait_for "lost.py"
keys C-s
wait_for "saved $T/lost.py"
[ "$(cat "$T/lost.py")" = 'precious = "not saved yet"' ] || fail "saved elsewhere or changed: $(ls "$T")"
echo "$NAME: ok"
