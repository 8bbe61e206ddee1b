#!/bin/sh
# SPDX-License-Identifier: MIT
# Pictures in real pixels (issue 29): the playground on a pty (not tmux,
# which would keep the images to itself), with SANDPIT_GRAPHICS=kitty and
# =sixel, runs a chart and writes the picture as kitty's graphics APC
# (ESC _ G a=T ...) or as a sixel DCS (ESC P ... q "); under =symbols, and
# under NO_COLOR whatever is asked, it writes neither.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/chart.py" <<'PY'
import matplotlib.pyplot as plt
plt.plot([1, 3, 2, 4], color="red", linewidth=3)
plt.show()
PY
drive() { python3 "$(dirname "$0")/pixels_pty.py" "$BIN" "$T/chart.py" "$1"; }
got=$(drive kitty)
echo "$got" | grep -q "^kitty " || fail "no kitty graphics written under SANDPIT_GRAPHICS=kitty ($got)"
got=$(drive sixel)
echo "$got" | grep -q " sixel " || fail "no sixel written under SANDPIT_GRAPHICS=sixel ($got)"
for m in symbols nocolor; do
	got=$(drive $m)
	echo "$got" | grep -q "bytes [1-9]" || fail "the $m run wrote nothing ($got)"
	echo "$got" | grep -qE "kitty|sixel" && fail "pixels written under $m ($got)"
done
echo "$NAME: ok"
