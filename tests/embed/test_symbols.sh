#!/bin/sh
# SPDX-License-Identifier: MIT
# libsandpit exports its API and nothing else: the shared library's
# dynamic symbols are exactly the functions sandpit.h marks SP_API, and
# every global the static library defines is sp_-prefixed, so neither
# can clash with a name of the program that links it.
#   tests/embed/test_symbols.sh BUILD/sandpit
set -u
B=$(dirname "${1:?usage: test_symbols.sh BUILD/sandpit}")
TOP=${SANDPIT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
so=$B/libsandpit.so
a=$B/libsandpit.a
command -v nm >/dev/null || { echo "nm (binutils) is missing"; exit 77; }
[ -f "$so" ] && [ -f "$a" ] || { echo "FAIL: no $so or $a (make all)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# Every function sandpit.h declares is marked SP_API (else it would be
# hidden, and both lists below would agree without it).
unmarked=$(grep -nE '^[a-z][a-z0-9_ *]*[ *]sp_[a-z0-9_]*\(' "$TOP/core/sandpit.h" | grep -v 'static inline')
if [ -n "$unmarked" ]; then
	echo "FAIL: sandpit.h declares functions without SP_API:"
	echo "$unmarked"
	fail=1
fi

# The API: each SP_API declaration's function name.
sed -n 's/^SP_API .*[^a-z0-9_]\(sp_[a-z0-9_]*\)(.*/\1/p' "$TOP/core/sandpit.h" |
	sort -u >"$tmp/api"
[ "$(wc -l <"$tmp/api")" -ge 20 ] || { echo "FAIL: read only $(wc -l <"$tmp/api") API names"; exit 1; }
nm -D --defined-only "$so" | awk '$2 ~ /^[A-Z]$/ { print $3 }' | sort -u >"$tmp/exported"
if ! cmp -s "$tmp/api" "$tmp/exported"; then
	echo "FAIL: $so exports other than sandpit.h's SP_API functions"
	echo "(< declared, not exported; > exported, not declared)"
	diff "$tmp/api" "$tmp/exported" | grep '^[<>]'
	fail=1
fi

# The static library: no global without the sp_ prefix (internal ones
# are hidden in the shared library but would still meet the caller's).
# (AddressSanitizer adds an __odr_asan.NAME beside each global: its own)
nm -g --defined-only "$a" | awk 'NF == 3 { print $3 }' | grep -v '^sp_\|^__odr_asan\.sp_' |
	sort -u >"$tmp/bare"
if [ -s "$tmp/bare" ]; then
	echo "FAIL: $a defines globals without the sp_ prefix:"
	tr '\n' ' ' <"$tmp/bare"; echo
	fail=1
fi
[ "$fail" = 0 ] && echo "ok: $(wc -l <"$tmp/api") API functions exported, nothing else; every global sp_"
exit "$fail"
