#!/bin/sh
# SPDX-License-Identifier: MIT
# make fuzz: build every tests/fuzz/fuzz_*.c with libFuzzer + ASan + UBSan
# and run each for SECONDS on a temporary copy of its corpus, so the repo
# is not modified. Any crash fails the run; its input is kept in
# build-fuzz/ (add it to tests/fuzz/corpus_NAME/ as a regression input).
#   sh tests/fuzz/run.sh [SECONDS] [TARGET...]
# A target names the sources it needs on its first lines:
#   /* fuzz-sources: core/carry.c core/util.c */
#   /* fuzz-pkgs: jansson libutf8proc */
# FUZZ_MERGE=1 merges new interesting inputs into the corpus dirs too.
# FUZZ_JOBS=N runs N targets at a time (default: one a CPU).
set -u
SECS=${1:-30}
[ $# -gt 0 ] && shift
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 2
OUT=build-fuzz
CC=${FUZZ_CC:-clang}
mkdir -p "$OUT/gen"
# the built-in theme is themes/default.theme itself, embedded as make does
sh tools/embed.sh theme_default_text themes/default.theme > "$OUT/gen/default_theme.c" || exit 2
command -v "$CC" >/dev/null 2>&1 || { echo "fuzz: $CC is needed (apt-get install clang)" >&2; exit 2; }

targets=${*:-$(ls tests/fuzz/fuzz_*.c 2>/dev/null | sed 's|.*/||; s|\.c$||')}
[ -n "$targets" ] || { echo "fuzz: no targets"; exit 2; }
failed="" built=0 ran=""
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}

# run_one TARGET: fuzz one built target on a copy of its corpus; its
# verdict goes to build-fuzz/TARGET.rc, its log to build-fuzz/TARGET.log
run_one() {
	t=$1
	name=${t#fuzz_}
	corpus=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-$name.XXXXXX")
	[ -d "tests/fuzz/corpus_$name" ] && cp -R "tests/fuzz/corpus_$name/." "$corpus/"
	dict=""
	[ -f "tests/fuzz/$name.dict" ] && dict="-dict=tests/fuzz/$name.dict"
	echo "== $t: $SECS s, $(ls "$corpus" | wc -l) corpus inputs"
	# shellcheck disable=SC2086
	"$OUT/$t" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 \
		-artifact_prefix="$OUT/$t-" $dict "$corpus" > "$OUT/$t.log" 2>&1
	echo $? > "$OUT/$t.rc"
	if [ "${FUZZ_MERGE:-0}" = 1 ] && [ -d "tests/fuzz/corpus_$name" ]; then
		"$OUT/$t" -merge=1 "tests/fuzz/corpus_$name" "$corpus" > /dev/null 2>&1
	fi
	rm -rf "$corpus"
}

for t in $targets; do
	src=tests/fuzz/$t.c
	srcs=$(sed -n '1,6s/.*fuzz-sources:\(.*\)\*\/.*/\1/p' "$src")
	# the libraries core/ and tui/ lean on are always linked; more by comment
	pkgs="libutf8proc jansson $(sed -n '1,6s/.*fuzz-pkgs:\(.*\)\*\/.*/\1/p' "$src")"
	# shellcheck disable=SC2086,SC2046
	if ! $CC -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		-std=c11 -D_GNU_SOURCE -Wall -Wextra -I core -I tui \
		$(pkg-config --cflags $pkgs 2>/dev/null) -o "$OUT/$t" "$src" $srcs \
		$(pkg-config --libs $pkgs 2>/dev/null) -lm; then
		echo "---- FAIL $t: does not build"
		failed="$failed $t"
		continue
	fi
	built=$((built + 1))
	rm -f "$OUT/$t.rc"
	ran="$ran $t"
done

# JOBS targets at a time (one a core): each still gets its SECS in full
set -- $ran
while [ $# -gt 0 ]; do
	pids=""
	i=0
	while [ $# -gt 0 ] && [ $i -lt "$JOBS" ]; do
		run_one "$1" &
		pids="$pids $!"
		shift
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	wait $pids
done

for t in $ran; do
	rc=$(cat "$OUT/$t.rc" 2>/dev/null || echo 1)
	if [ "$rc" -ne 0 ]; then
		echo "---- FAIL $t (exit $rc): the crashing input is in $OUT/"
		grep -v -E '^(#[0-9]|INFO:|    #|MS:|base unit:|0x|\\|artifact_prefix|Running:|Executed)' \
			"$OUT/$t.log" | grep -v '^$' | head -n 12
		failed="$failed $t"
	else
		tail -n 3 "$OUT/$t.log" | grep -E '^#|Done' | tail -n 1
		echo "ok   $t"
	fi
done
if [ -n "$failed" ]; then
	echo "fuzz: failed:$failed"
	exit 1
fi
echo "fuzz: $built target(s), no crash"
