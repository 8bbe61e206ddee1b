#!/bin/sh
# SPDX-License-Identifier: MIT
# Output is shown, never obeyed: a title-setting OSC and a clear-screen
# CSI are drawn as text; the terminal's title and screen are unchanged.
# A file name with a line break in it stays one entry of the files left.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/evil.py" <<'PY'
import sys
sys.stdout.write("A\x1b]0;pwned\x07B\x1b[2JC\x9bD\n")
sys.stdout.buffer.write(b"raw \x9b2J \xff end\n")
open("a\nFAKE-ENTRY  4 KiB  now gone", "w").write("x")
PY
start "$T/evil.py"
ready
title_before=$(tm display -p -t t '#{pane_title}')
keys F5
wait_status "ok"
wait_for 'A^[]0;pwned^GB^[[2JC\x9bD'
wait_for 'raw \x9b2J'
screen | grep -q "�" || fail "invalid UTF-8 not shown as U+FFFD"
wait_for 'a^JFAKE-ENTRY  4 KiB  now gone  1 B  kept'
screen | grep -q '^│ *FAKE-ENTRY' && fail "a file name made an entry of its own"
title_after=$(tm display -p -t t '#{pane_title}')
[ "$title_before" = "$title_after" ] || fail "title changed: '$title_before' -> '$title_after'"
case $title_after in *pwned*) fail "title was set by the program" ;; esac
screen | grep -q "Editor" || fail "the screen was cleared"
screen | grep -q 'sys.stdout.write' || fail "the Editor's text is gone"
echo "$NAME: ok"
