#!/bin/sh
# SPDX-License-Identifier: MIT
# One stray key never destroys work: at the recovery offer, n, Enter and
# other keys do nothing, Esc keeps the text for later (in a file of its
# own), and deleting is a named choice (d) that asks again; Esc there
# goes back to the offer. A recovery equal to the saved file is not
# offered at all.
. "$(dirname "$0")/lib.sh"
S="$XDG_STATE_HOME/sandpit"

# lose_text FILE TEXT: a session on FILE types TEXT, then its terminal goes
lose_text() {
	start "$1"
	ready
	type_text "$2"
	wait_for "$2"
	kill -HUP "$(tm display -p -t t '#{pane_pid}')"
	wait_exit
	tm kill-server
	grep -qF "$2" "$S/recovery.py" || fail "no recovery file for $2"
}

lose_text "$T/a.py" 'first = "keep me"'
start
wait_for "Unsaved work from the last session"
wait_for "k/Esc: keep for later"
type_text 'n'
keys Enter
type_text 'N'
type_text 'q'
screen | grep -q "Unsaved work from the last session" || fail "a stray key closed the offer"
[ -s "$S/recovery.py" ] || fail "a stray key deleted the recovery file"
keys Escape
wait_status "kept for later"
wait_gone "Unsaved work from the last session"
kept=$(ls "$S"/recovery-*.py 2>/dev/null | head -n 1)
[ -n "$kept" ] || fail "Esc did not keep the text: $(ls -a "$S")"
grep -qF 'first = "keep me"' "$kept" || fail "the kept file lacks the text"
[ -e "$S/recovery.py" ] && fail "recovery.py is still there for this session"
keys C-q
wait_exit
tm kill-server
grep -qF 'first = "keep me"' "$kept" || fail "a clean quit removed the kept text"

# d asks again; Esc there goes back to the offer; d, y deletes
lose_text "$T/b.py" 'second = "delete me"'
start
wait_for "Unsaved work from the last session"
type_text 'd'
wait_for "Delete unsaved work"
wait_for "b.py for good?"
keys Escape
wait_for "Unsaved work from the last session"
[ -s "$S/recovery.py" ] || fail "Esc at the question deleted the text"
type_text 'd'
wait_for "Delete unsaved work"
type_text 'y'
wait_status "deleted the unsaved text of b.py"
[ -e "$S/recovery.py" ] && fail "d, y did not delete the recovery file"
[ -e "$S/recovery.py.info" ] && fail "the info file was left behind"
grep -qF 'first = "keep me"' "$kept" || fail "deleting touched the text kept before"
keys C-q
wait_exit
tm kill-server

# typed and taken back: the recovery equals the saved file, not offered
printf 'c = 1\n' > "$T/c.py"
start "$T/c.py"
ready
type_text 'x'
wait_for "  1 xc = 1"
keys BSpace
wait_gone "  1 xc = 1"
kill -HUP "$(tm display -p -t t '#{pane_pid}')"
wait_exit
tm kill-server
[ -s "$S/recovery.py" ] || fail "the test needs a recovery file here"
start
ready
wait_for "nothing to recover"
screen | grep -q "Unsaved work from the last session" && fail "a recovery equal to the saved file was offered"
# the text kept for later (Esc, above) is still pointed at, every start
screen | tr -d '\n│ ' | grep -q "unsavedtextofearliersessionskeptforlater" ||
	fail "the start does not say a text is kept for later"
grep -qF 'first = "keep me"' "$kept" || fail "the kept text is gone"
echo "$NAME: ok"
