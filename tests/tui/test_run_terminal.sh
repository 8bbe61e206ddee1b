#!/bin/sh
# SPDX-License-Identifier: MIT
# Plain `sandpit run` to a terminal: the program's output is shown, never
# obeyed. A title, an OSC 52 clipboard write and a query for the terminal
# (which would type its answer into the shell) show inert as text; SGR red
# is still red; a progress bar's '\r' still redraws. To a file the output
# stays byte for byte.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/loud.py" <<'PY'
import sys
sys.stdout.write("\x1b]0;EVILTITLE\x07title-done\n")
sys.stdout.write("\x1b]52;c;Q0xJUEJPQVJE\x07clip-done\n")
sys.stdout.write("query\x1b[c-done\n")
sys.stdout.write("\x1b[31mRED\x1b[0m plain\n")
sys.stdout.write("10%\r100% bar\n")
sys.stderr.write("err\x1b]0;ERRTITLE\x07-done\n")
print("END-" + "OF-RUN")
PY
new_terminal 100 30 "$QBIN run $QT/loud.py; echo SHELL-DONE; sleep 60"
tm set -g set-clipboard on
wait_for "SHELL-DONE"
out=$(screen)
echo "$out" | grep -qF "^[]0;EVILTITLE^Gtitle-done" || fail "the title escape is not shown inert"
echo "$out" | grep -qF "^[]52;c;Q0xJUEJPQVJE^Gclip-done" || fail "the clipboard escape is not shown inert"
echo "$out" | grep -qF "query^[[c-done" || fail "the terminal query is not shown inert"
echo "$out" | grep -qF "err^[]0;ERRTITLE^G-done" || fail "stderr is not cleaned"
echo "$out" | grep -q "^100% bar" || fail "the carriage return did not redraw the line"
echo "$out" | grep -qF "^[[31m" && fail "the SGR colour shows as text"
tm capture-pane -p -e -t t | grep -a "RED" | grep -qF "$(printf '\033[31mRED')" ||
	fail "red is not drawn red"
case "$(tm display -p -t t '#{pane_title}')" in
*EVILTITLE*|*ERRTITLE*) fail "the program set the terminal's title" ;;
esac
[ -z "$(tm list-buffers 2>/dev/null)" ] || fail "the program wrote the clipboard: $(tm list-buffers)"

# to a file: byte for byte, escapes and all
"$BIN" run "$T/loud.py" > "$T/got.out" 2>/dev/null
python3 "$T/loud.py" > "$T/want.out" 2>/dev/null
cmp -s "$T/got.out" "$T/want.out" || fail "output to a file is not byte for byte"
echo "$NAME: ok"
