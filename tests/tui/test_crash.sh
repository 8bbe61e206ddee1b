#!/bin/sh
# SPDX-License-Identifier: MIT
# A crash (SIGSEGV) leaves the terminal sane for the shell that comes
# back (main screen, cursor shown, no mouse reports), and the buffer
# recoverable on the next start. A normal quit leaves it sane too.
. "$(dirname "$0")/lib.sh"

start_then_shell "$T/crash.py"
ready
[ "$(tm display -p -t t '#{alternate_on}')" = 1 ] || fail "the playground is not on the alternate screen"
type_text 'survivor = 42'
wait_for 'survivor = 42'
# the playground is the child of the pane's shell (by parent, not by a
# command line that holds the checkout's path)
pid=$(pgrep -P "$(tm display -p -t t '#{pane_pid}')" | head -n 1)
[ -n "$pid" ] || fail "cannot find the playground's pid"
kill -SEGV "$pid"
wait_for "SHELL-AGAIN"
term_sane
grep -q 'survivor = 42' "$XDG_STATE_HOME/sandpit/recovery.py" 2>/dev/null ||
	fail "no recovery file with the text after the crash"
# the same terminal, a new playground (the shell line after it says BACK)
tm respawn-pane -k -t t "$QBIN; echo BACK-AGAIN; sleep 60"
wait_for "Unsaved work from the last session"
wait_for "crash.py"
keys r
wait_for 'survivor = 42'
# restored under its own file's name: Ctrl-S saves it there
keys C-s
wait_for "saved"
keys C-q
wait_for "BACK-AGAIN"
term_sane
grep -q 'survivor = 42' "$T/crash.py" || fail "the recovered text was not saved to its file"
echo "$NAME: ok"
