#!/bin/sh
# SPDX-License-Identifier: MIT
# An earlier session's recovery file survives a later session opened on a
# FILE: it is kept under a name of its own, the later session keeps its own
# buffer meanwhile, and a clean quit deletes only that one. (The later
# session once wrote over the rescued text, then deleted the file.)
. "$(dirname "$0")/lib.sh"

start "$T/a.py"
ready
type_text 'session_a = "rescued text"'
wait_for 'session_a = "rescued text"'
pid=$(tm display -p -t t '#{pane_pid}')
kill -HUP "$pid"
wait_exit
grep -q 'session_a' "$XDG_STATE_HOME/sandpit/recovery.py" || fail "no recovery file"
tm kill-server

printf 'b = 1\n' > "$T/b.py"
start "$T/b.py"
ready
wait_for "is kept in"
kept=$(ls "$XDG_STATE_HOME"/sandpit/recovery-*.py 2>/dev/null | head -n 1)
[ -n "$kept" ] || fail "the earlier buffer was not kept under a name of its own"
grep -q 'session_a = "rescued text"' "$kept" || fail "the kept file lacks the text"
screen | tr -d '\n' | grep -q "recovery-" || fail "the screen does not say where it is kept"
keys C-End
type_text 'session_b = 2'
wait_for 'session_b = 2'
# the recovery file is written once typing has paused for 2 s: waited
# for, not slept on (a busy machine writes it later)
wait_file_has "$XDG_STATE_HOME/sandpit/recovery.py" 'session_b = 2'
grep -q 'session_a = "rescued text"' "$kept" || fail "the kept file was changed"
keys C-q
wait_for "Quit without saving?"
keys y
wait_exit
[ -e "$XDG_STATE_HOME/sandpit/recovery.py" ] && fail "a clean quit left this session's recovery file"
grep -q 'session_a = "rescued text"' "$kept" || fail "a clean quit removed the kept buffer"
echo "$NAME: ok"
