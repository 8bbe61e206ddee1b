#!/bin/sh
# SPDX-License-Identifier: MIT
# docs/architecture.md is the newcomer's map: every source file of core/
# and tui/ and every build tool is named there, so a file added without a
# place in the map fails here (name it in "Where a change goes" or in the
# core's layer table).
#   sh tests/tools/test_file_map.sh BUILD/sandpit   (the binary is not used)
set -u
TOP=${SANDPIT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
MAP=$TOP/docs/architecture.md
[ -r "$MAP" ] || { echo "FAIL: no $MAP"; exit 1; }
missing=0
for f in "$TOP"/core/*.c "$TOP"/tui/*/*.c "$TOP"/tools/*.py "$TOP"/tools/*.sh "$TOP"/tools/gen/*.c; do
	[ -e "$f" ] || continue
	rel=${f#"$TOP"/}
	base=$(basename "$f")
	grep -qF "\`$base\`" "$MAP" || grep -qF "$rel" "$MAP" || {
		echo "FAIL: $rel is not named in docs/architecture.md"
		missing=1
	}
done
[ $missing = 0 ] && echo "test_file_map: ok"
exit $missing
