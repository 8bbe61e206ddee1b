#!/bin/sh
# SPDX-License-Identifier: MIT
# tools/layers.py finds what it is for, on a tiny tree built here: two
# files that call each other are named as a circle (and --fail-on-circles
# fails on them, not on a tree without one), and a .c of a terminal-free
# folder that reaches curses through two headers is named with the whole
# include chain, while its clean neighbour is not.
#   sh tests/tools/test_layers.sh BUILD/sandpit   (the binary is not used)
set -u
TOP=${SANDPIT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
TOOL=$TOP/tools/layers.py
for c in cc nm python3; do
	command -v $c >/dev/null || { echo "skip: $c is not installed"; exit 77; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sandpit-layers.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# compile SRC...: each into build/SRC.o, with its dependency file (.d)
# as the project's build writes it; curses is a system header here
compile() {
	for s in "$@"; do
		mkdir -p "build/$(dirname "$s")"
		cc -std=c11 -isystem sysinc -MMD -MP -c -o "build/${s%.c}.o" "$s" ||
			{ echo "FAIL: $s did not compile"; exit 1; }
	done
}

# ---- a circle: ring/a.c and ring/b.c call each other; ring/c.c only
# calls a.c, so it is not in the circle ----
mkdir -p ring line sysinc free
cat > ring/a.c <<'C'
int ring_b(int n);
int ring_a(int n);
int ring_a(int n) { return n > 0 ? ring_b(n - 1) : 0; }
C
cat > ring/b.c <<'C'
int ring_a(int n);
int ring_b(int n);
int ring_b(int n) { return n > 0 ? ring_a(n - 1) : 1; }
C
cat > ring/c.c <<'C'
int ring_a(int n);
int ring_c(void);
int ring_c(void) { return ring_a(3); }
C
# ---- no circle: line/d.c calls line/e.c, not back ----
cat > line/d.c <<'C'
int line_e(void);
int line_d(void);
int line_d(void) { return line_e(); }
C
cat > line/e.c <<'C'
int line_e(void);
int line_e(void) { return 5; }
C
compile ring/a.c ring/b.c ring/c.c line/d.c line/e.c

out=$(python3 "$TOOL" --build build ring 2>&1)
rc=$?
echo "$out"
[ "$rc" = 0 ] || bad "without --fail-on-circles the report exits 0, not $rc"
echo "$out" | grep -qx '  circle 1 (2 files): ring/a.c ring/b.c' || bad "the circle of ring/a.c and ring/b.c is not named"
echo "$out" | grep -q 'ring/a.c -> ring/b.c: ring_b' || bad "the use that closes the circle is not named"
echo "$out" | grep -q 'ring/c.c' && bad "ring/c.c is named, but only calls into the circle"
echo "$out" | grep -qx 'circles between files: 1' || bad "not exactly one circle counted"

out=$(python3 "$TOOL" --build build --fail-on-circles ring 2>&1)
rc=$?
[ "$rc" = 1 ] || bad "--fail-on-circles exits $rc on a circle, not 1"
echo "$out" | grep -q 'Break each' || bad "the failure does not say what to do: $out"

out=$(python3 "$TOOL" --build build --fail-on-circles line 2>&1)
rc=$?
[ "$rc" = 0 ] || bad "--fail-on-circles fails ($rc) on a tree without a circle: $out"
echo "$out" | grep -qx 'circles between files: 0' || bad "a one-way call is counted as a circle: $out"

# object files given as they are work the same
python3 "$TOOL" build/ring/a.o build/ring/b.o | grep -q 'circle 1 (2 files)' ||
	bad "the circle is not found from the object files named"

# ---- curses through two headers: free/text.c -> view.h -> screen.h ->
# <curses.h>; free/ok.c includes a header that does not ----
printf 'int curses_stub;\n' > sysinc/curses.h
printf '#pragma once\n#include <curses.h>\n' > free/screen.h
printf '#pragma once\n#include "screen.h"\n' > free/view.h
printf '#pragma once\nint plain(void);\n' > free/plain.h
printf '#include <stddef.h>\n#include "view.h"\nint text(void);\nint text(void) { return 1; }\n' > free/text.c
printf '#include "plain.h"\nint plain(void) { return 2; }\n' > free/ok.c
compile free/text.c free/ok.c

out=$(python3 "$TOOL" --build build --free free 2>&1)
rc=$?
echo "$out"
[ "$rc" = 1 ] || bad "--free exits $rc when a file reaches curses, not 1"
echo "$out" | grep -qF 'free/text.c:2 -> free/view.h:2 -> free/screen.h:2 -> <curses.h>' ||
	bad "the include chain from free/text.c to curses is not named"
echo "$out" | grep -q 'free/ok.c' && bad "free/ok.c is named, but reaches no curses"
echo "$out" | grep -q 'TUI_FREE_DIRS' || bad "the message does not say where the folders are listed"

rm free/text.c
out=$(python3 "$TOOL" --build build --free free 2>&1)
rc=$?
[ "$rc" = 0 ] || bad "--free fails ($rc) on a folder without curses: $out"

# nothing to check (TUI_FREE_DIRS empty) passes, quietly
python3 "$TOOL" --build build --free || bad "--free without folders fails"

[ "$fail" = 0 ] && echo "ok: layers.py names circles and curses chains"
exit $fail
