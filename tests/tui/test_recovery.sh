#!/bin/sh
# SIGHUP (the terminal went away) writes the recovery file; the next start
# offers it, and accepting brings the text back.
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
wait_for "Recover that"
keys y
wait_for 'precious = "not saved yet"'
echo "$NAME: ok"
