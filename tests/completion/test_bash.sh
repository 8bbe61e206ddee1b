#!/bin/sh
# SPDX-License-Identifier: MIT
# The bash completion offers the commands, each command's options, the
# files an argument takes (by kind: *.py, *.json, images, directories),
# the values of options that take one of a list (themes, sizes), and
# every option `sandpit --help` names.
#   tests/completion/test_bash.sh BUILD/sandpit
set -u
SANDPIT=${1:?usage: test_bash.sh BUILD/sandpit}
B=$(cd "$(dirname "$SANDPIT")" && pwd)
TOP=${SANDPIT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
comp=$B/completion/sandpit
command -v bash >/dev/null || { echo "bash is missing"; exit 77; }
[ -f "$comp" ] || { echo "FAIL: no $comp (make all)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# every option the help names is offered somewhere
fail=0
for o in $("$SANDPIT" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
	grep -q -- "$o\\b" "$comp" || { echo "FAIL: the completion lacks $o (in sandpit --help)"; fail=1; }
done

mkdir "$tmp/dir" "$tmp/dir/sub"
cd "$tmp/dir" || exit 1
touch a.py b.txt c.json pic.png photo.JPEG "my prog.py"
cat >"$tmp/check.bash" <<'EOS'
source "$COMP"
# complete the line as bash would with the cursor at its end; print one
# candidate a line, sorted
try() {
	COMP_LINE=$1
	read -r -a COMP_WORDS <<<"$1"
	[[ $1 == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
	COMPREPLY=()
	_sandpit
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' '|'
}
fails=0
expect() {  # LINE WANT: the candidates joined by |
	local got
	got=$(try "$1")
	if [ "$got" != "$2" ]; then
		echo "FAIL: '$1' completed to '$got', wanted '$2'"
		fails=1
	fi
}
expect "sandpit " "a.py|doctor|learn|mcp|my prog.py|run|sub|view|"
expect "sandpit mcp --allow" "--allow-dir|"
expect "sandpit mcp --max-q" "--max-queue|"
expect "sandpit mcp --max-queue " "0|16|4|64|"
expect "sandpit r" "run|"
expect "sandpit run --ca" "--carry|--carry-max|--carry-out|"
expect "sandpit run --carry " "c.json|sub|"
expect "sandpit run --keep " "sub|"
expect "sandpit run --memory 5" "512M|"
expect "sandpit run --file " "a.py|b.txt|c.json|my prog.py|photo.JPEG|pic.png|sub|"
expect "sandpit run my" "my prog.py|"
expect "sandpit run --json " "a.py|my prog.py|sub|"
expect "sandpit --theme " "default|high-contrast|light|monochrome|sub|"
expect "sandpit --theme l" "light|"
expect "sandpit --no" "--no-mouse|"
expect "sandpit view " "photo.JPEG|pic.png|sub|"
expect "sandpit doctor -" "--help|"
expect "sandpit learn --l" "--lessons|--list|"
expect "sandpit learn --v" "--verify|"
exit $fails
EOS
COMP=$comp SANDPIT_THEMEDIR=$TOP/themes bash --norc --noprofile "$tmp/check.bash" || fail=1
[ "$fail" = 0 ] && echo "ok: every case completed as wanted"
exit "$fail"
