#!/bin/sh
# SPDX-License-Identifier: MIT
# Every colour theme reads on a terminal of 8 colours (TERM=xterm, as on a
# projector's or a school's machine): the playground is drawn in tmux with
# each theme, after a run that fills Output, Violations and the gauges,
# and every character on the screen, in the colours the terminal was told
# to show (capture-pane -e), stands out from its background by 4.5:1
# (frames 3:1), xterm's default palette taken as what they look like. The
# light theme once drew comments, line numbers and frames white on white.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/prog.py" <<'PY'
# a comment the learner must read
import math  # why: the standard library
@staticmethod
def area(r):
    return math.pi * r ** 2
print("area", area(2.0), 'done')
open("/etc/shadow")
PY

for theme in default light high-contrast; do
	new_terminal 80 24 "env TERM=xterm $QBIN --theme $theme $QT/prog.py"
	ready
	keys F5
	wait_status "run 1"
	wait_status "1 violation"
	tm capture-pane -p -e -t t > "$T/$theme.ans"
	python3 - "$T/$theme.ans" "$theme" <<'PY' || fail "$theme: text too faint at 8 colours (above)"
import re, sys
# xterm's default palette: what colours 0..15 look like
PAL = [0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
       0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff]
def lum(c):
    def ch(v):
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    return 0.2126 * ch(c >> 16 & 255) + 0.7152 * ch(c >> 8 & 255) + 0.0722 * ch(c & 255)
def contrast(a, b):
    la, lb = sorted((lum(a), lum(b)))
    return (lb + 0.05) / (la + 0.05)
bad, seen = [], 0
fg = bg = None      # capture-pane -e carries a style over line ends
for row, line in enumerate(open(sys.argv[1], encoding="utf-8").read().split("\n")):
    for m in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b])", line):
        if m.group(1) is not None:
            codes = [int(c) for c in m.group(1).split(";") if c] or [0]
            i = 0
            while i < len(codes):
                c = codes[i]
                if c == 0: fg = bg = None
                elif 30 <= c <= 37: fg = c - 30
                elif 90 <= c <= 97: fg = c - 90 + 8
                elif c == 39: fg = None
                elif 40 <= c <= 47: bg = c - 40
                elif 100 <= c <= 107: bg = c - 100 + 8
                elif c == 49: bg = None
                elif c in (38, 48):
                    sys.exit(f"row {row}: a colour beyond 16 on an 8-colour terminal: {codes}")
                i += 1
            continue
        ch = m.group(2)
        if ch == " " or fg is None or bg is None:
            continue
        seen += 1
        frame = 0x2500 <= ord(ch) <= 0x257f
        k = contrast(PAL[fg], PAL[bg])
        if k < (3.0 if frame else 4.5):
            bad.append(f"row {row} {ch!r}: colour {fg} on {bg} is {k:.2f}:1")
if seen < 500:
    sys.exit(f"only {seen} coloured characters: the theme drew no colour?")
if bad:
    print(sys.argv[2], "at 8 colours:", *bad[:20], sep="\n  ")
    sys.exit(1)
PY
	quit_anyway
	tm kill-server >/dev/null 2>&1
done
echo "$NAME: ok"
