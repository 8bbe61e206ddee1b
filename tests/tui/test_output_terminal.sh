#!/bin/sh
# SPDX-License-Identifier: MIT
# Output as a terminal shows it, still never obeyed: a tqdm-style bar
# redrawn with '\r' ends as one line at 100 %, '\b' backs up, SGR red
# shows red (and no ^[ is left of it), other escapes stay inert and
# visible. Under NO_COLOR the colour is dropped, the sequence still eaten.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/bar.py" <<'PY'
import sys, time
for i in range(101):
    sys.stdout.write("\r%3d%%|%-20s| %d/100" % (i, "#" * (i // 5), i))
    sys.stdout.flush()
    time.sleep(0.001)
sys.stdout.write("\n")
for i in range(11):
    sys.stdout.write("\rU%3d%%|%s%s|" % (i * 10, "\u2588" * i, " " * (10 - i)))
    sys.stdout.flush()
sys.stdout.write("\n")
print("\x1b[31m" + "red" + "\x1b[0m after")
print("ab\bX" + "-bs")
print("\x1b[2J" + "inert \x1b]0;title\x07 end")
print("DONE-" + "ALL")
PY
start "$T/bar.py"
ready
keys F5
wait_for "DONE-ALL"
wait_status "ok"
out=$(screen | sed -n '/── run 1/,/DONE-ALL/p')
[ "$(echo "$out" | grep -c '[0-9]/100')" = 1 ] || fail "the bar left more than one line: $out"
echo "$out" | grep -qF "100%|####################| 100/100" || fail "the bar did not end at 100 %: $out"
echo "$out" | grep -qF "aX-bs" || fail "backspace did not back up: $out"
[ "$(echo "$out" | grep -c '^│ U')" = 1 ] || fail "the block bar left more than one line: $out"
echo "$out" | grep -qF "U100%|██████████|" || fail "the block bar did not end full: $out"
echo "$out" | grep -qF "^[[2Jinert ^[]0;title^G end" || fail "other escapes are not shown inert: $out"
echo "$out" | grep -q "red after" || fail "the red text is missing: $out"
echo "$out" | grep -qF "^[[31m" && fail "the SGR sequence shows as text: $out"
tm capture-pane -p -e -t t | grep -a "red" | grep -v "print" | grep -qF "$(printf '\033[31mred')" ||
	fail "red is not drawn red: $(tm capture-pane -p -e -t t | grep -a 'red after' | cat -v)"
keys C-q
wait_exit
tm kill-server
sleep 0.2

export NO_COLOR=1
start "$T/bar.py"
ready
keys F5
wait_for "DONE-ALL"
screen | grep -q "red after" || fail "NO_COLOR lost the text"
screen | grep -qF "^[[31m" && fail "NO_COLOR shows the sequence as text"
tm capture-pane -p -e -t t | grep -a "red after" | grep -qF "$(printf '\033[31m')" && fail "NO_COLOR still draws red"
echo "$NAME: ok"
