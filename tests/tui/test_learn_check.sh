#!/bin/sh
# SPDX-License-Identifier: MIT
# `sandpit learn --check LESSON FILE` on every shipped lesson, through
# real sandboxed runs: the starting program fails, the reference solution
# passes, and each fake in lesson_fakes/ fails (a printed answer, a
# carry written down in one run, empty files named like the pictures);
# a fake named *.pass.py is a fair answer that must pass (lesson 5's
# sample); for every lesson, a program that prints every wanted line of
# every run (the main check's and each [again]'s) fails too, and no
# verdict shows an [again] run's hidden carry values (lesson 4's said
# N=2000000, so a lookup table passed). Exit codes: 0 passed, 1 not yet,
# 2 bad usage.
set -u
BIN=${1:?usage: $0 PATH/TO/sandpit}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
NAME=$(basename "$0" .sh)
HERE=$(cd "$(dirname "$0")" && pwd)
LESSONS=$HERE/../../tui/lessons
T=$(mktemp -d "${TMPDIR:-/tmp}/sandpit-check.XXXXXX")
trap 'rm -rf "$T"' EXIT
export HOME="$T/home" XDG_STATE_HOME="$T/state" XDG_CONFIG_HOME="$T/config"
mkdir -p "$HOME"
fail() { echo "$NAME: FAIL: $*"; exit 1; }

printf 'print("probe")\n' > "$T/probe.py"
"$BIN" run "$T/probe.py" > /dev/null 2> "$T/probe.err" ||
	{ echo "$NAME: skip: the sandbox does not run here: $(head -c 300 "$T/probe.err")"; exit 77; }

# section FILE NAME: the text of [NAME] in a lesson file
section() {
	awk -v want="[$2]" '
		/^\[[A-Za-z][^]]*\]$/ { on = ($0 == want); next }
		on { print }' "$1"
}

# judge LESSON FILE WANT(0|1): the exit code must be WANT
judge() {
	"$BIN" learn --check "$1" "$2" > "$T/out" 2>&1
	rc=$?
	[ "$rc" -eq "$3" ] || fail "lesson $1, $(basename "$2"): exit $rc, wanted $3: $(cat "$T/out")"
	echo "  $1 $(basename "$2"): $(cat "$T/out")"
}

n=0
for f in "$LESSONS"/*.lesson; do
	id=$(basename "$f" .lesson)
	n=$((n + 1))
	section "$f" start > "$T/start.py"
	section "$f" solution > "$T/solution.py"
	judge "$n" "$T/start.py" 1
	judge "$id" "$T/solution.py" 0
	# the print-everything fake: every stdout line any run wants
	awk '/^stdout has / { sub(/^stdout has /, ""); sub(/ \| .*$/, ""); print }
	     /^stdout number / { sub(/^stdout number /, ""); sub(/ \| .*$/, "");
				 sub(/ within .*$/, ""); print }' "$f" |
		python3 -c 'import sys; print("".join("print(%r)\n" % l.rstrip("\n") for l in sys.stdin))' \
		> "$T/print_all.py"
	if [ -s "$T/print_all.py" ]; then
		judge "$id" "$T/print_all.py" 1
		# the verdict names no hidden input of an [again] run
		sed -n 's/^with carry //p' "$f" | python3 -c '
import json, sys
for line in sys.stdin:
    for v in json.loads(line).values():
        print(json.dumps(v))' > "$T/hidden"
		while read -r v; do
			grep -qF -- "$v" "$T/out" && fail "lesson $id's verdict shows a hidden input ($v): $(cat "$T/out")"
		done < "$T/hidden"
	fi
	for fake in "$HERE"/lesson_fakes/"$id".*.py; do
		[ -f "$fake" ] || continue
		case $fake in
		*.pass.py) judge "$id.lesson" "$fake" 0 ;;
		*) judge "$id" "$fake" 1 ;;
		esac
	done
done
[ "$n" -eq 8 ] || fail "expected the 8 shipped lessons, found $n"

# a class folder: every file judged, a line each and a summary; the exit
# status is the worst (2 when one could not be judged); --json gives one
# object a file with each condition's verdict, and no [again] condition's
# text (its hidden inputs); a crafted file name is made visible
class="$T/class"
mkdir -p "$class"
section "$LESSONS/04_time.lesson" solution > "$class/ada.py"
section "$LESSONS/04_time.lesson" start > "$class/bob.py"
printf 'print("primes: 216816")\nprint("primes: 148933")\n' > "$class/cy.py"
printf 'print(1)\n' > "$class/$(printf 'e\033]52;c;cHduZWQ=\007').py"
"$BIN" learn --check 4 "$class" > "$T/out" 2>&1
rc=$?
cat "$T/out"
[ "$rc" -eq 1 ] || fail "a class with one not yet: exit $rc, wanted 1"
grep -q "ada.py: passed" "$T/out" || fail "ada.py not judged passed"
grep -q "bob.py: not yet" "$T/out" || fail "bob.py not judged not yet"
grep -q "cy.py: not yet" "$T/out" || fail "the print-everything cy.py passed"
grep -q "^1 passed, 3 not yet (lesson 4, 04_time)$" "$T/out" || fail "no summary line"
LC_ALL=C grep -q "$(printf '\033')" "$T/out" && fail "a file name's escape reached the terminal"
printf 'x\000y' > "$class/dan.py"
"$BIN" learn --check 04_time "$class/ada.py" "$class/dan.py" --json > "$T/out" 2> "$T/err"
rc=$?
[ "$rc" -eq 2 ] || fail "a file not judged: exit $rc, wanted 2"
grep -q "^1 passed, 0 not yet, 1 not judged" "$T/err" || fail "the summary is not on stderr: $(cat "$T/err")"
python3 - "$T/out" <<'PY' || fail "--json: $(cat "$T/out")"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 2, rows
ada, dan = rows
assert ada["lesson"] == "04_time" and ada["number"] == 4 and ada["passed"] is True
assert ada["file"].endswith("ada.py") and ada["error"] is None and ada["verdict"] == "passed"
main = [c for c in ada["checks"] if not c["again"]]
again = [c for c in ada["checks"] if c["again"]]
assert main and again and all(c["passed"] for c in ada["checks"])
assert any(c["check"].startswith("stdout number primes:") for c in main)
assert all(c["check"] is None for c in again), "an [again] condition's text shows"
assert dan["passed"] is False and "NUL" in dan["error"] and dan["checks"] == []
PY

# bad usage: exit 2 and a sentence
"$BIN" learn --check 99 "$T/start.py" > "$T/out" 2>&1
[ $? -eq 2 ] && grep -q "no lesson '99'" "$T/out" || fail "an unknown lesson: $(cat "$T/out")"
"$BIN" learn --check 1 "$T/nope.py" > "$T/out" 2>&1
[ $? -eq 2 ] && grep -q "cannot read the program" "$T/out" || fail "a missing file: $(cat "$T/out")"
"$BIN" learn --check 1 > "$T/out" 2>&1
[ $? -eq 2 ] || fail "--check without FILE: $(cat "$T/out")"
echo "$NAME: ok"
