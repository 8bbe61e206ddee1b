#!/bin/sh
# Output is shown, never obeyed: a title-setting OSC and a clear-screen
# CSI are drawn as text; the terminal's title and screen are unchanged.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/evil.py" <<'PY'
import sys
sys.stdout.write("A\x1b]0;pwned\x07B\x1b[2JC\x9bD\n")
sys.stdout.buffer.write(b"raw \x9b2J \xff end\n")
PY
start "$T/evil.py"
ready
title_before=$(tm display -p -t t '#{pane_title}')
keys F5
wait_status "ok"
wait_for 'A^[]0;pwned^GB^[[2JC\x9bD'
wait_for 'raw \x9b2J'
screen | grep -q "�" || fail "invalid UTF-8 not shown as U+FFFD"
title_after=$(tm display -p -t t '#{pane_title}')
[ "$title_before" = "$title_after" ] || fail "title changed: '$title_before' -> '$title_after'"
case $title_after in *pwned*) fail "title was set by the program" ;; esac
screen | grep -q "Editor" || fail "the screen was cleared"
screen | grep -q 'sys.stdout.write' || fail "the Editor's text is gone"
echo "$NAME: ok"
