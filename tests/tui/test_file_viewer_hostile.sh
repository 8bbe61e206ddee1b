#!/bin/sh
# SPDX-License-Identifier: MIT
# F8 views what an untrusted program left: escape sequences in a text file
# are drawn as text and never obeyed, binary bytes are never drawn, a
# symlink the program made is listed as not kept and is not in F8's list.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/evil.py" <<'PY'
import os
open("evil.txt", "w").write("line one\n\x1b]0;pwned\x07title\x1b[2J cleared\n")
open("blob.bin", "wb").write(b"\x00\x01\x02\x1b[31m" * 100)
os.symlink("/etc/passwd", "pw")
print("left them")
PY
start "$T/evil.py"
ready
title_before=$(tm display -p -t t '#{pane_title}')
keys F5
wait_status "ok" 30
wait_for "pw  11 B  not kept: symlink"
keys F8
wait_for "Files of run 1 (F8)"
screen | grep -q "║ pw " && fail "the symlink is in the list of kept files"
# sorted: blob.bin, evil.txt
keys Enter
wait_for "binary data, 800 bytes: not shown"
keys Escape
# Esc on its own: with Down in the same read it would be an Alt-Down
wait_gone "binary data"
keys Down Enter
wait_for "text: 2 lines"
wait_for '^[]0;pwned^Gtitle^[[2J cleared'
screen | grep -q "Editor" || fail "the screen was cleared"
title_after=$(tm display -p -t t '#{pane_title}')
[ "$title_before" = "$title_after" ] || fail "the title changed to '$title_after'"
keys Escape
wait_gone "text: 2 lines"
keys Escape
wait_gone "Files of run 1 (F8)"
keys C-q
wait_exit
echo "$NAME: ok"
