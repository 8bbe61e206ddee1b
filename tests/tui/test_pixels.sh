#!/bin/sh
# SPDX-License-Identifier: MIT
# Pictures in real pixels (issue 29): sandpit on a pty (not tmux, which
# would keep the images to itself), with SANDPIT_GRAPHICS=kitty and
# =sixel. Under Output the run's chart is written as kitty's graphics APC
# (ESC _ G a=T ...) or as a sixel DCS (ESC P ... q " ... ESC \). The large
# view (Enter in Output, n to the next picture, F8's list, `sandpit view`)
# draws its picture the same way, kitty's under its own id: n, a dialog
# over it, a new size and closing delete that id (and Output's come back
# on close); the assistant's runs view (F3, h) covers Output's as a menu
# does; sixel's are taken away by a repaint of the screen, what is
# shown put again after it. Under =symbols, and under NO_COLOR whatever
# is asked, neither is ever written. Under auto the terminal's answer to
# sandpit's question decides.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/two.py" <<'PY'
import matplotlib.pyplot as plt
for colour in ["red", "blue"]:
    plt.figure()
    plt.plot([1, 3, 2, 4], color=colour, linewidth=3)
    plt.show()
PY
drive() { python3 "$(dirname "$0")/pixels_pty.py" "$BIN" "$1" "$2" "$3" > "$T/got" 2>&1; }
# has STEP WORD...: the step's line says each word
has() {
	_l=$(grep "^$1 " "$T/got")
	[ -n "$_l" ] || fail "no step '$1' ($what): $(cat "$T/got")"
	shift
	for _w in "$@"; do
		case " $_l " in *" $_w "*) ;; *) fail "'$_w' missing ($what): $_l" ;; esac
	done
}
# hasnt STEP WORD...: the step's line says none of them
hasnt() {
	_l=$(grep "^$1 " "$T/got")
	shift
	for _w in "$@"; do
		case " $_l " in *" $_w "*) fail "'$_w' written ($what): $_l" ;; esac
	done
}

what="kitty, the picture list and F8"
drive views "$T/two.py" kitty
has run inline
has open view
has next view view-del
has close view-del inline
has f8-open view
has f8-save view-del
hasnt f8-save view
has f8-save-esc view
has f8-close view-del
hasnt open timeout
hasnt f8-open timeout

what="sixel, the picture list and F8"
drive views "$T/two.py" sixel
has run sixel
has open sixel repaint sixel-after
has next sixel repaint sixel-after
has close repaint sixel-after
has f8-open sixel
has f8-save repaint
hasnt f8-save sixel
has f8-save-esc sixel
has f8-close repaint
hasnt f8-close sixel
hasnt open timeout

# the assistant's runs view (F3, h) covers Output: its pictures go with
# the menu and are not put again over the view, only once it closes
what="kitty, the assistant's runs view"
drive history "$T/two.py" kitty
has menu del-all
has history
hasnt history inline
has back inline

# sandpit view of a kept picture
png=$(ls "$XDG_STATE_HOME"/sandpit/runs/*/figure-1.png 2>/dev/null | head -n 1)
[ -f "$png" ] || fail "no kept figure-1.png under the state dir"
what="kitty, sandpit view"
drive view "$png" kitty
has open view
has resize view-del view
has close view-del
what="sixel, sandpit view"
drive view "$png" sixel
has open sixel
has resize repaint sixel-after
hasnt close sixel

# graphics = auto: the terminal is asked (a kitty query, then DA1) and
# its answer chooses, as kitty's, as a VT340's (DA1 lists 4), as a
# terminal's with neither
what="auto, a kitty terminal"
drive view "$png" ask-kitty
has open view
has close view-del
what="auto, a sixel terminal"
drive view "$png" ask-sixel
has open sixel
what="auto, a terminal without pixels"
drive view "$png" ask-none
has open
hasnt open view sixel timeout

for m in symbols nocolor; do
	what="$m, the picture list and F8"
	drive views "$T/two.py" $m
	grep -q "^run .*bytes [1-9]" "$T/got" || fail "the $m run wrote nothing: $(cat "$T/got")"
	for step in run open next close f8 f8-open f8-save f8-save-esc f8-close; do
		has $step
		hasnt $step inline view view-del del-all sixel
	done
	hasnt open timeout
	hasnt f8-open timeout
	what="$m, sandpit view"
	drive view "$png" $m
	has open
	hasnt open view sixel timeout
	hasnt resize view view-del sixel
	hasnt close view-del sixel
done
echo "$NAME: ok"
