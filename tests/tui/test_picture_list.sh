#!/bin/sh
# SPDX-License-Identifier: MIT
# Every picture of the runs in Output is one list (issue 29): Enter in
# Output opens the newest drawn large, saying its place ("3 of 3"), and n
# and p move to the next and the previous, round; Esc closes. A click on
# a picture opens that one in the same list.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/three.py" <<'PY'
import matplotlib.pyplot as plt
for i, colour in enumerate(["red", "green", "blue"]):
    plt.figure()
    plt.plot([1, 3 + i, 2], color=colour)
    plt.show()
PY
start "$T/three.py"
ready
keys F5
wait_status "ok" 60
wait_for "figure-3.png"
keys F6
wait_for "═[ Output ]"
keys Enter
wait_for "figure-3.png (3 of 3: n/p the others)"
keys n
wait_for "figure-1.png (1 of 3: n/p the others)"
keys n
wait_for "figure-2.png (2 of 3: n/p the others)"
keys p p
wait_for "figure-3.png (3 of 3: n/p the others)"
keys Escape
wait_gone "n/p the others"
# a click on a picture opens that one, in its place in the list (X10
# mouse reports, as test_mouse)
if infocmp "$TERMINAL" 2>/dev/null | grep -q 'kmous=\\E\[M'; then
	n=$(screen | grep -n 'figure-3.png (Enter in Output' | tail -n 1 | cut -d: -f1)
	[ -n "$n" ] || fail "the newest picture's caption is not in view"
	click 6 $((n + 1))
	wait_for "figure-3.png (3 of 3: n/p the others)"
	keys n
	wait_for "figure-1.png (1 of 3: n/p the others)"
	keys Escape
	wait_gone "n/p the others"
fi
keys C-q
wait_exit
echo "$NAME: ok"
