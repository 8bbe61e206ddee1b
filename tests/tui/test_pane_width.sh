#!/bin/sh
# SPDX-License-Identifier: MIT
# A run is told the Output pane's size (issue 29): COLUMNS, LINES,
# shutil.get_terminal_size(), pandas' and numpy's widths, so a 9-column
# DataFrame comes out in blocks of the pane's width with no number split
# across rows, at 80x24 (Output zoomed) and at 120x40. A bare last
# expression shows "Out:" with its value. Program lines wrap at spaces; a
# line with no space is cut and marked, its rest not shown.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/df.py" <<'PY'
import os, shutil
import numpy as np
import pandas as pd
ts = shutil.get_terminal_size()
print("TOLD", os.environ["COLUMNS"], os.environ["LINES"], ts.columns, ts.lines,
      pd.get_option("display.width"), np.get_printoptions()["linewidth"])
print("x" * 300)
print("AFTER-LONG")
df = pd.DataFrame({c: [i * 1234.5678 + 166.05 for i in range(5)] for c in "abcdefghi"})
df.head()
PY

# The Output pane's text width: its frame's width less the two borders and
# the stderr gutter.
text_width() {
	screen | python3 -c '
import sys
for line in sys.stdin:
    if "─ Output " in line or "[ Output ]" in line:
        left = min(i for i in (line.find("┌"), line.find("╔")) if i >= 0)
        right = min(i for i in (line.find("┐", left), line.find("╗", left)) if i >= 0)
        print(right - left + 1 - 3)
        break'
}

# Every number in the pane's rows is whole: an index (0-4) or one of the
# frame's values with its four decimals; a split one leaves a piece.
numbers_whole() {
	screen | sed -n '/Out:/,/[└╚]/p' | tr -s '│║ \\' '\n' |
		grep -E '^[0-9.]+$' | grep -vE '^[0-4]$|^[0-9]{3,4}\.[0-9]{4}$' && return 1
	return 0
}

for size in "120 40" "80 24"; do
	set -- $size
	new_terminal "$1" "$2" "$QBIN $QT/df.py"
	ready
	keys F5
	wait_status "ok" 30
	keys F6    # the Output pane
	if [ "$1" = 80 ]; then
		keys F11   # zoomed: the whole screen
		wait_for "Output zoomed"
	fi
	wait_for "Out:"
	w=$(text_width)
	# the top of the history ("TOLD" and a number: the Editor shows the
	# program's own "TOLD")
	_n=0
	until screen | grep -q "TOLD [0-9]"; do
		keys Home
		_n=$((_n + 1))
		[ $_n -ge 50 ] && fail "Home never showed the top of Output"
		sleep 0.2
	done
	screen | grep -q "TOLD $w [0-9]* $w [0-9]* $w $w" ||
		fail "the run was not told the pane's width ($w) at $1x$2"
	screen | grep -q "xxxxxxxxxx›" || fail "a line with no space was not cut and marked"
	screen | grep -A1 "xxxxxxxxxx›" | tail -n 1 | grep -q "AFTER-LONG" ||
		fail "the rest of a cut line was shown"
	keys End
	# The screen may be caught mid-redraw after End: look until it shows
	# the frame's end whole, and fail only if it never does.
	_end=$(( $(date +%s) + 15 ))
	until screen | grep -q "  i" && numbers_whole; do
		if [ "$(date +%s)" -ge "$_end" ]; then
			screen | grep -q "  i" || fail "the DataFrame's last column is not shown at $1x$2"
			fail "a number was split across rows at $1x$2"
		fi
		sleep 0.1
	done
	keys C-q
	wait_exit
	tm kill-server
done
echo "$NAME: ok"
