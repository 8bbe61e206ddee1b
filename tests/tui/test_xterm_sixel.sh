#!/bin/sh
# SPDX-License-Identifier: MIT
# Pixels in a real terminal (issue 29): Debian's xterm as a VT340 (which
# draws sixel) under Xvfb. The chart demo's picture, kept by a run, is
# opened with `sandpit view` under `graphics = auto`, so sandpit asks the
# terminal as it would at anyone's desk; a screenshot must then hold the
# demo's line colour (matplotlib's blue, #1f77b4, as near as a sixel
# palette comes: each channel within 40) and its light fill in
# numbers only a picture in pixels has, and after q not one of them (the
# sixel was taken away, not left behind). Then the playground runs the
# demo and draws the chart under the run in pixels too (its fill's colour,
# in numbers symbols in 256 colours cannot have); Enter in Output shows it
# full screen, many times the fill, and Esc takes that away and puts the
# one under the run back. Skipped where Xvfb, xterm, xwd or xdotool are
# missing.
. "$(dirname "$0")/lib.sh"
for tool in Xvfb xterm xwd xdotool; do
	command -v $tool >/dev/null 2>&1 ||
		{ echo "$NAME: skip: $tool is not installed (apt-get install xvfb xterm x11-apps xdotool)"; exit 77; }
done
need_sandbox

DEMO=$(cd "$(dirname "$0")/../.." && pwd)/tui/demos/11_chart.py
"$BIN" run --keep "$T/kept" "$DEMO" > /dev/null 2>&1 || fail "the chart demo did not run"
[ -f "$T/kept/figure-1.png" ] || fail "the chart demo kept no figure-1.png"

XV= XT=
stop_x() {
	[ -n "$XT" ] && kill "$XT" 2>/dev/null
	[ -n "$XV" ] && kill "$XV" 2>/dev/null
	wait 2>/dev/null
}
trap 'stop_x; cleanup' EXIT

# a display of its own: Xvfb picks a free number and writes it on fd 3
Xvfb -displayfd 3 -screen 0 800x600x24 -nolisten tcp 3> "$T/display" 2> "$T/xvfb.log" &
XV=$!
_end=$(( $(date +%s) + 15 ))
until grep -q '^[0-9]' "$T/display" 2>/dev/null; do
	kill -0 "$XV" 2>/dev/null || fail "Xvfb did not start: $(tail -n 3 "$T/xvfb.log")"
	[ "$(date +%s)" -ge "$_end" ] && fail "Xvfb gave no display within 15 s"
	sleep 0.1
done
export DISPLAY=:$(head -n 1 "$T/display")
unset SANDPIT_GRAPHICS

shot() { python3 "$(dirname "$0")/xshot.py" "$@"; }
# the terminal, at the screen's top left; COMMAND runs in it, and what
# it writes is logged too (to wait for the playground's words)
xterm_run() {
	rm -f "$T/xterm.out"
	xterm -ti vt340 -geometry "$1+0+0" -l -lf "$T/xterm.out" -e sh -c "$2" 2> "$T/xterm.log" &
	XT=$!
}
# xterm_state: for a failure's message, whether xterm lives and what it
# said and was last sent
xterm_state() {
	kill -0 "$XT" 2>/dev/null && echo "xterm runs;" || echo "xterm is gone;"
	head -c 300 "$T/xterm.log" 2>/dev/null
	echo "; $(wc -c < "$T/xterm.out" 2>/dev/null) bytes sent, the last:"
	tail -c 300 "$T/xterm.out" 2>/dev/null | tr -c '[:print:]' '.'
}
# logged TEXT SECONDS: until the terminal has been sent TEXT
logged() {
	_end=$(( $(date +%s) + $2 ))
	until grep -qF -- "$1" "$T/xterm.out" 2>/dev/null; do
		[ "$(date +%s)" -ge "$_end" ] && fail "the terminal was never sent '$1' in $2 s ($(xterm_state))"
		sleep 0.1
	done
}

# 1: sandpit view of the demo's chart
xterm_run 100x30 "$QBIN view $QT/kept/figure-1.png 2> $QT/view.err; echo \$? > $QT/rc; sleep 60"
n=$(shot wait "$DISPLAY" 1f77b4 40 300 25) ||
	fail "the chart's blue line is not on the screen ($n pixels of #1f77b4; rc $(cat "$T/rc" 2>/dev/null), $(cat "$T/view.err" 2>/dev/null))"
fill=$(shot count "$DISPLAY" d2e3f0 12)
[ "$fill" -gt 2000 ] || fail "the chart's light blue fill is missing ($fill pixels of #d2e3f0)"
# q closes: the picture goes with the view
xdotool mousemove 100 100 key q
_end=$(( $(date +%s) + 10 ))
until [ -s "$T/rc" ]; do
	[ "$(date +%s)" -ge "$_end" ] && fail "sandpit view did not close on q"
	sleep 0.1
done
[ "$(cat "$T/rc")" = 0 ] || fail "sandpit view exited $(cat "$T/rc"): $(cat "$T/view.err")"
n=$(shot gone "$DISPLAY" 1f77b4 40 0 5) || fail "the picture outlived its view: $n pixels of #1f77b4"
kill "$XT" 2>/dev/null
wait "$XT" 2>/dev/null
XT=

# 2: the playground runs the demo: the chart under the run, in pixels
# (120x40 cells of 6x13 pixels: the picture takes 8 rows, its line is
# thin there, its fill is not)
xterm_run 120x40 "cd $QT && $QBIN $(shq "$DEMO"); sleep 60"
logged "ready" 30
xdotool mousemove 100 100 key F5
logged "run 1: ok" 60
small=$(shot wait "$DISPLAY" d2e3f0 12 300 15) ||
	fail "no chart in pixels under the run ($small pixels of its fill, #d2e3f0)"
# 3: Enter in Output: the chart full screen, in pixels; Esc: the view's
# go (the repaint) and the one under the run comes back
xdotool key F6 Return   # the focus to Output, then its picture large
n=$(shot wait "$DISPLAY" d2e3f0 12 $((small * 5)) 15) ||
	fail "the large view is not in pixels ($n pixels of the fill, $small under the run)"
xdotool key Escape
n=$(shot gone "$DISPLAY" d2e3f0 12 $((small * 2)) 10) ||
	fail "the large view's pixels outlived it ($n pixels of the fill)"
n=$(shot wait "$DISPLAY" d2e3f0 12 300 10) ||
	fail "the chart under the run did not come back after the view ($n pixels)"
echo "$NAME: ok"
