#!/bin/sh
# SPDX-License-Identifier: MIT
# A colleague's lesson directory is input. `sandpit learn --list`,
# `--verify` and `--check` on lessons whose file names carry terminal
# controls (an OSC 52 that would set the clipboard, a title, a C1 CSI, a
# bidi override), a title with a bidi override and a broken file with such
# a name: no raw control byte reaches the output (checked byte by byte),
# the names show visibly. A lesson asking for 10^9 s of CPU, 10^6 G of
# memory and 100,000 processes runs under the lesson maxima, its check
# ("limit cpu <= 60") passes, and --check and --verify say what was lowered.
set -u
BIN=${1:?usage: $0 PATH/TO/sandpit}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
NAME=$(basename "$0" .sh)
T=$(mktemp -d "${TMPDIR:-/tmp}/sandpit-learn-hostile.XXXXXX")
trap 'rm -rf "$T"' EXIT
export HOME="$T/home" XDG_STATE_HOME="$T/state" XDG_CONFIG_HOME="$T/config"
mkdir -p "$HOME" "$T/class"
fail() { echo "$NAME: FAIL: $*"; exit 1; }

printf 'print("probe")\n' > "$T/probe.py"
"$BIN" run "$T/probe.py" > /dev/null 2> "$T/probe.err" ||
	{ echo "$NAME: skip: the sandbox does not run here: $(head -c 300 "$T/probe.err")"; exit 77; }

# ESC ] 52 ; c ; base64 BEL (the clipboard), ESC ] 0 ; title BEL, C1 CSI
# as UTF-8, U+202E: in a file name, which may hold any byte but / and NUL
evil=$(printf '01_\033]52;c;cHduZWQ=\007\033]0;PWNED\007\302\233\342\200\256x')
cat > "$T/class/$evil.lesson" <<LESSON
title = Greedy $(printf '\342\200\256')limits
cpu = 1000000000
wall = 1000000000
memory = 1000000G
disk = 1000000G
procs = 100000
[goal]
Print hi.
[start]
print("no")
[solution]
print("hi")
[check]
stdout has hi
limit cpu <= 60
limit wall <= 120
limit memory <= 2G
limit procs <= 256
LESSON
printf 'title = Broken\n[goal]\ng\n' > "$T/class/02_$(printf '\033]0;PWNED2\007')broken.lesson"
printf 'print("hi")\n' > "$T/hi.py"

# no_controls FILE WHAT: no C0 but newline and tab, no DEL, no C1 (raw or
# as UTF-8), no bidi control, no line or paragraph separator
no_controls() {
	if LC_ALL=C tr -d '\n\t' < "$1" | LC_ALL=C grep -q '[[:cntrl:]]'; then
		fail "$2: a raw control byte in the output: $(od -c "$1" | head -n 20)"
	fi
	# a C1 byte alone would be invalid UTF-8 (the sanitizer makes it U+FFFD)
	iconv -f UTF-8 -t UTF-8 "$1" > /dev/null 2>&1 || fail "$2: the output is not valid UTF-8"
	for seq in '\302[\200-\237]' '\342\200[\252-\256]' '\342\201[\246-\251]' \
		   '\342\200[\250\251]'; do
		if LC_ALL=C grep -q "$(printf "$seq")" "$1"; then
			fail "$2: a C1 or bidi control in the output ($seq): $(od -c "$1" | head -n 20)"
		fi
	done
}

"$BIN" learn --lessons "$T/class" --list > "$T/list" 2>&1
no_controls "$T/list" "--list"
grep -qF '01_^[]52;c;cHduZWQ=^G^[]0;PWNED^G\x9b<U+202E>x' "$T/list" ||
	fail "--list does not show the name made visible: $(cat "$T/list")"
grep -qF 'Greedy <U+202E>limits' "$T/list" || fail "--list: the title's override not shown: $(cat "$T/list")"
grep -qF '02_^[]0;PWNED2^Gbroken.lesson' "$T/list" ||
	fail "--list: the broken file's name not made visible: $(cat "$T/list")"

"$BIN" learn --lessons "$T/class" --check 9 "$T/hi.py" > "$T/check" 2>&1
rc=$?
no_controls "$T/check" "--check"
[ "$rc" -eq 0 ] || fail "--check: the solution did not pass under the lowered limits (exit $rc): $(cat "$T/check")"
grep -qF 'cpu = 1000000000 lowered to 60' "$T/check" || fail "--check does not say the CPU limit was lowered: $(cat "$T/check")"
grep -qF 'memory = 1000000G lowered to 2G' "$T/check" || fail "--check: memory: $(cat "$T/check")"
grep -qF 'procs = 100000 lowered to 256' "$T/check" || fail "--check: procs: $(cat "$T/check")"

"$BIN" learn --lessons "$T/class" --verify > "$T/verify" 2>&1
no_controls "$T/verify" "--verify"
grep -q '^ok  *class/01_' "$T/verify" || fail "--verify: the lesson does not behave: $(cat "$T/verify")"
grep -qF 'wall = 1000000000 lowered to 120' "$T/verify" || fail "--verify does not say the limits were lowered: $(cat "$T/verify")"
grep -qF 'disk = 1000000G lowered to 256M' "$T/verify" || fail "--verify: disk: $(cat "$T/verify")"
echo "$NAME: ok"
