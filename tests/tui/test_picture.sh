#!/bin/sh
# SPDX-License-Identifier: MIT
# The chart demo's picture is drawn in the Output pane right under the run
# after F5: in 256 colours, at 8 colours (TERM=screen), with NO_COLOR
# (symbols only) and in a locale that is not UTF-8 (ASCII only); Enter in
# Output opens it large with its name and size, Esc closes it.
. "$(dirname "$0")/lib.sh"
need_sandbox
TOP=$(cd "$(dirname "$0")/../.." && pwd)

printf 'import matplotlib\n' > "$T/probe_mpl.py"
"$BIN" run "$T/probe_mpl.py" > /dev/null 2>&1 ||
	{ echo "$NAME: skip: the sandbox's Python has no matplotlib"; exit 77; }

# the chart demo's place in the F3 menu (demos are listed in file order)
demo_index=$(ls "$TOP"/tui/demos/*.py | sort | grep -n '_chart\.py$' | cut -d: -f1)
[ -n "$demo_index" ] || fail "no chart demo in tui/demos"

# run_chart: open the chart demo from F3, run it, wait for its picture
run_chart() {
	ready
	keys F3
	wait_for "Demos (F3)"
	keys Home
	i=1
	while [ "$i" -lt "$demo_index" ]; do keys Down; i=$((i + 1)); done
	keys Enter
	wait_gone "Demos (F3)"
	keys F5
	wait_status "ok" 60
	wait_for ".png (Enter in Output" 10
}

# picture_rows: the rows (with -e escapes) under the caption, in Output
picture_rows() {
	n=$(screen | grep -n '\.png (Enter in Output' | tail -n 1 | cut -d: -f1)
	[ -n "$n" ] || fail "no picture caption"
	# only the Output pane's part: between its left and right borders
	# (and not the colour the right border is drawn in)
	tm capture-pane -e -p -t t | sed -n "$((n + 1)),$((n + 6))p" | awk -F'│' '{ print $2 }' |
		sed 's/\x1b\[[0-9;]*m$//'
}
# picture_text: the same rows as plain text, the pane's inside only
picture_text() {
	n=$(screen | grep -n '\.png (Enter in Output' | tail -n 1 | cut -d: -f1)
	screen | sed -n "$((n + 1)),$((n + 6))p" | cut -c 2-70
}
# blocks: the picture rows hold block symbols
blocks() { picture_rows | grep -q '[▀▁▂▃▄▅▆▇█▉▊▋▌▍▎▏▐▕▖▗▘▙▚▛▜▝▞▟]'; }
# inked: the picture's rows hold at least 40 symbols (the chart's lines and
# axes drawn, not a few specks)
inked() {
	[ "$(picture_rows | sed 's/\x1b\[[0-9;]*m//g' | grep -o '[▀▁▂▃▄▅▆▇█▉▊▋▌▍▎▏▐▕▖▗▘▙▚▛▜▝▞▟]' | wc -l)" -ge 40 ]
}

# restart TERMINAL: a fresh tmux server (on its own socket: a dying one
# may still hold the old) whose terminal is TERMINAL
phase=0
fresh_server() {
	tm kill-server >/dev/null 2>&1
	phase=$((phase + 1))
	SOCK=sandpit-test-$$-$phase
}
restart() {
	fresh_server
	sed -i "s/^set -g default-terminal .*/set -g default-terminal $1/" "$T/tmux.conf"
	start
}

# 1: 256 colours (tmux-256color): the chart's white shows as palette colours
start
run_chart
blocks || fail "no block symbols in the picture"
# as high as half the Output pane allows (issue 29: it took 7 of 17 rows)
set -- $(screen | awk '/(┌|╔).*Output/ { t = NR; next } t && /^(└|╚)/ { print t, NR; exit }')
inner=$(($2 - $1 - 1))
n=$(screen | grep -n '\.png (Enter in Output' | tail -n 1 | cut -d: -f1)
pic=$(screen | sed -n "$((n + 1)),$(($2 - 1))p" | cut -c 2-70 | grep -c '[^ ]')
[ "$pic" -eq $((inner / 2)) ] || fail "the picture takes $pic rows of the pane's $inner, not half"
picture_rows | grep -q '\[48;5;\(231\|255\|15\)m' || fail "the picture is not drawn in 256 colours"
# the large view: name, pixel size, bytes; Esc closes
keys F6
keys Enter
wait_for "pixels"
screen | head -n 1 | grep -q 'figure-1.png · [0-9]*x[0-9]* pixels · [0-9]* KiB · Esc closes' ||
	fail "the large view's title is wrong"
[ "$(screen | grep -c '[▀▁▂▃▄▅▆▇█▌▐▖▗▘▝▞▚]')" -gt 20 ] || fail "the large view shows no picture"
keys Escape
wait_gone "Esc closes"
wait_for "[ Output ]"
# a click on the picture opens it too (X10 mouse reports, as test_mouse)
if infocmp "$TERMINAL" 2>/dev/null | grep -q 'kmous=\\E\[M'; then
	n=$(screen | grep -n '\.png (Enter in Output' | tail -n 1 | cut -d: -f1)
	for b in 0 3; do
		keys -l "$(printf '\033[M%b%b%b' "\\0$(printf %o $((b + 32)))" \
			"\\0$(printf %o $((6 + 32)))" "\\0$(printf %o $((n + 3 + 32)))")"
	done
	wait_for "Esc closes"
	keys Escape
	wait_gone "Esc closes"
fi

# 1b: direct colour (TERM=xterm-direct, where terminfo has it): RGB
# (the playground alone gets that TERM: tmux's keys stay its own)
if infocmp xterm-direct >/dev/null 2>&1; then
	fresh_server
	chart=$(ls "$TOP"/tui/demos/*_chart.py)
	new_terminal 120 40 "TERM=xterm-direct $QBIN $(shq "$chart")"
	ready
	keys F5
	wait_status "ok" 60
	wait_for ".png (Enter in Output" 10
	blocks || fail "no block symbols in direct colour"
	rows=$(picture_rows)
	echo "$rows" | grep -q '\[48;2;255;255;255m' || fail "the chart's white is not sent as RGB"
	echo "$rows" | grep -q '\[3[0-7]m' && fail "an RGB colour was sent as an ANSI colour"
fi

# 2: 8 colours (TERM=screen: 8 colours, 64 pairs, 58 of them the theme's)
restart screen
run_chart
blocks || fail "no block symbols at 8 colours"
inked || fail "the chart's lines are lost at 8 colours"
rows=$(picture_rows)
echo "$rows" | grep -q '\[3[0-7]m' || fail "no 8-colour foregrounds in the picture"
echo "$rows" | grep -q '\[[34]8;5;' && fail "256-colour codes sent to an 8-colour terminal"

# 3: NO_COLOR: symbols only, no colour at all in the picture's rows
export NO_COLOR=1
restart tmux-256color
[ "$TERMINAL" = tmux-256color ] || restart "$TERMINAL"
run_chart
blocks || fail "no block symbols with NO_COLOR"
inked || fail "the chart's lines are lost with NO_COLOR"
picture_rows | grep -q '\[\(3[0-7]\|4[0-7]\|[34]8;\)' && fail "colour codes in the picture with NO_COLOR"
unset NO_COLOR

# 4: a locale that is not UTF-8: the picture in ASCII
export LANG=C LC_ALL=C
restart "$TERMINAL"
run_chart
rows=$(picture_text)
echo "$rows" | grep -q '[▀▁▂▃▄▅▆▇█▌▐▖▗▘▝▞▚]' && fail "Unicode symbols drawn in the C locale"
[ "$(echo "$rows" | tr -d ' \n' | wc -c)" -gt 10 ] || fail "no ASCII picture in the C locale"
keys C-q
echo "$NAME: ok"
