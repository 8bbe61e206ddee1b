#!/bin/sh
# SPDX-License-Identifier: MIT
# Run the test suites, several tests at a time, and print one closing
# line: "N passed, N failed, N skipped" (CI reads it).
#   tests/run.sh [-j N] [--tier check|long|timing] BUILD_DIR [SUITE...]
#   suites: unit integration hostile tui embed completion mcp tools
# unit/integration are cmocka programs (their own summaries are read);
# hostile/tui/embed/completion/mcp/tools are scripts given the sandpit
# binary: exit 0 pass, 77 skip.
#
# -j N: tests at once (default: the number of CPUs; J=N in the
# environment too). Each test is a process of its own, with its own
# TMPDIR inside this run's directory, so a test that compares the
# host's /tmp before and after sees only what its own runs made, never a
# neighbour's temp files. (The terminal tests keep the usual TMPDIR:
# they make root's files, which no such check counts.) tmux's sockets go
# in a short directory of each test's own under /tmp: a unix socket's
# path holds 108 bytes, fewer than a long TMPDIR may take.
#
# Tiers (docs/testing.md): check runs every suite; long and timing run
# only the tests of that tier (cmocka programs with SP_TIER_LONG or
# SP_TIMING in their source; scripts with a check_time line for timing),
# with SANDPIT_TIER set.
#
# Every test's output goes to BUILD_DIR/test-logs/TIER/SUITE_NAME.log;
# a failure prints its last lines and that file's path (the whole story).
# Each line says how long the test took; the ten slowest close the run,
# and the next run starts the slowest first (BUILD_DIR/test-logs/TIER/times).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)

# ---- one test (run by xargs, below): its log, its time, one line ----
# One argument, the job's line "SUITE PATH": the path may hold spaces.
if [ "${1:-}" = --one ]; then
	suite=${2%% *} t=${2#* }
	case $suite in
	unit|integration) name=$suite/$(basename "$t") ;;
	*) name=$suite/$(basename "$t" .sh) ;;
	esac
	id=$(echo "$name" | tr / _)
	log=$SP_LOGDIR/$id.log
	tmp=$SP_RUNDIR/tmp/$id
	mkdir -p "$tmp" && chmod 755 "$tmp"
	# tmux's socket must fit a unix socket's path (108 bytes), which a
	# long TMPDIR does not: the sockets get a short directory of their own
	socks=$SP_SOCKDIR/$id
	mkdir -p "$socks"
	t0=$(date +%s%N)
	case $suite in
	unit|integration)
		# a hang is a failure, not a stalled CI
		TMPDIR=$tmp TMUX_TMPDIR=$socks timeout 900 "$t" >"$log" 2>&1 ;;
	tui)
		# the caller's TMPDIR for sandpit (lib.sh keeps the test's own
		# files, whose paths the screens show, in a short dir of /tmp)
		TMUX_TMPDIR=$socks timeout 300 sh "$t" "$SANDPIT" >"$log" 2>&1 ;;
	*)
		TMPDIR=$tmp TMUX_TMPDIR=$socks timeout 300 sh "$t" "$SANDPIT" >"$log" 2>&1 ;;
	esac
	rc=$?
	t1=$(date +%s%N)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
	p=0 f=0 s=0
	case $suite in
	unit|integration)
		p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
		f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
		s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
		p=${p:-0} f=${f:-0} s=${s:-0}
		[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1 ;;
	*)
		case $rc in 0) p=1 ;; 77) s=1 ;; *) f=1 ;; esac ;;
	esac
	echo "$name $p $f $s $rc $secs" > "$SP_RUNDIR/res/$id"
	if [ "$f" -gt 0 ]; then
		echo "FAIL $name (exit $rc) ${secs} s: $log"
	elif [ "$s" -gt 0 ] && [ "$p" -eq 0 ]; then
		echo "skip $name ${secs} s: $(tail -n 1 "$log")"
	else
		echo "ok   $name ($p) ${secs} s"
	fi
	rm -rf "$tmp" "$socks"
	exit 0
fi

usage() { echo "usage: tests/run.sh [-j N] [--tier check|long|timing] BUILD_DIR [SUITE...]" >&2; exit 2; }
JOBS=${J:-}
TIER=check
while [ $# -gt 0 ]; do
	case $1 in
	-j) JOBS=${2:-}; shift 2 || usage ;;
	-j*) JOBS=${1#-j}; shift ;;
	--tier) TIER=${2:-}; shift 2 || usage ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ -n "$JOBS" ] || JOBS=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
case $JOBS in ''|*[!0-9]*|0) echo "tests/run.sh: -j wants a number of tests at once, not '$JOBS'" >&2; exit 2 ;; esac
case $TIER in check|long|timing) ;; *) echo "tests/run.sh: no tier '$TIER' (check, long, timing)" >&2; exit 2 ;; esac
[ $# -ge 1 ] || usage
B=$1
shift
if [ "$TIER" = check ]; then
	SUITES=${*:-unit integration hostile tui embed completion mcp tools}
elif [ "$TIER" = timing ]; then
	SUITES=${*:-unit integration hostile}
	export SANDPIT_TIER=$TIER
else
	SUITES=${*:-unit integration}
	export SANDPIT_TIER=$TIER
fi
SANDPIT=$(cd "$B" && pwd)/sandpit
SP_LOGDIR=$(cd "$B" && pwd)/test-logs/$TIER
SP_RUNDIR=$(mktemp -d "${TMPDIR:-/tmp}/sandpit-tests.XXXXXX") || exit 2
SP_SOCKDIR=$(mktemp -d /tmp/sp-socks.XXXXXX) || exit 2
chmod 755 "$SP_RUNDIR"
mkdir -p "$SP_RUNDIR/res" "$SP_RUNDIR/tmp" "$SP_LOGDIR"
rm -f "$SP_LOGDIR"/*.log
export SANDPIT SP_LOGDIR SP_RUNDIR SP_SOCKDIR
export SANDPIT_TOP="$TOP"
trap 'rm -rf "$SP_RUNDIR" "$SP_SOCKDIR"' EXIT
trap 'exit 130' INT TERM

# which files of a suite are tests (of this tier)
tests_of() {
	case $1 in
	unit|integration)
		for t in "$B"/tests/$1/test_*; do
			[ -x "$t" ] && [ "${t%.d}" = "$t" ] || continue
			case $TIER in
			long) grep -q 'SP_TIER_LONG()' "$TOP/tests/$1/$(basename "$t").c" 2>/dev/null || continue ;;
			timing) grep -q 'SP_TIMING(' "$TOP/tests/$1/$(basename "$t").c" 2>/dev/null || continue ;;
			esac
			echo "$1 $t"
		done ;;
	hostile|tui|embed|completion|mcp|tools)
		[ "$TIER" = long ] && return 0
		for t in "$TOP"/tests/$1/test_*.sh; do
			[ -f "$t" ] || continue
			# timing: the scripts that hold a bound on time (check_time)
			[ "$TIER" = timing ] && ! grep -q '^check_time ' "$t" && continue
			echo "$1 $t"
		done ;;
	*)
		echo "tests/run.sh: unknown suite '$1'" >&2
		return 1 ;;
	esac
}
: > "$SP_RUNDIR/jobs"
for suite in $SUITES; do
	tests_of "$suite" >> "$SP_RUNDIR/jobs" || exit 2
done
# The slowest first (as the last run measured them), so that the long
# ones do not start last and keep the run waiting on one test. A time is
# kept under the test's name (SUITE/NAME), not its path: a path may hold
# spaces, and a clone moved elsewhere keeps its times.
times=$SP_LOGDIR/times
[ -f "$times" ] || : > "$times"
awk 'FILENAME == ARGV[1] { t[$2] = $1; next }
	{ n = $0; sub(/^[^ ]* /, "", n); sub(/.*\//, "", n); sub(/\.sh$/, "", n); n = $1 "/" n
	  print ((n in t) ? t[n] : 1000), $0 }' \
	"$times" "$SP_RUNDIR/jobs" | sort -k1,1 -rn -s | cut -d' ' -f2- > "$SP_RUNDIR/order"

echo "running $(wc -l < "$SP_RUNDIR/order") test programs and scripts, $JOBS at a time (tier $TIER; logs in $SP_LOGDIR)"
start=$(date +%s)
# one job a line, given whole (xargs would split a path at its spaces
# and quotes)
tr '\n' '\0' < "$SP_RUNDIR/order" | xargs -0 -r -P "$JOBS" -n 1 sh "$0" --one
wall=$(( $(date +%s) - start ))

pass=0 fail=0 skip=0 failed_names=""
cat "$SP_RUNDIR"/res/* 2>/dev/null > "$SP_RUNDIR/all"
while read -r name p f s rc secs; do
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	[ "$f" -gt 0 ] && failed_names="$failed_names $name"
done < "$SP_RUNDIR/all"
# a test that never reported (killed from outside) is a failure too
ran=$(wc -l < "$SP_RUNDIR/all")
want=$(wc -l < "$SP_RUNDIR/order")
if [ "$ran" -lt "$want" ]; then
	fail=$((fail + want - ran))
	failed_names="$failed_names (and $((want - ran)) that never finished)"
fi

echo
echo "slowest:"
sort -k6,6 -rn "$SP_RUNDIR/all" | head -n 10 | awk '{ printf "  %7.1f s  %s\n", $6, $1 }'
# remember the times for the next run's order (by name), keeping those
# of the tests this run did not run
awk '{ print $6, $1 }' "$SP_RUNDIR/all" > "$SP_RUNDIR/times"
awk 'FILENAME == ARGV[1] { new[$2] = 1; print; next }
	!($2 in new) && NF == 2 && $2 ~ /^[a-z]+\/[^\/]+$/' \
	"$SP_RUNDIR/times" "$times" > "$SP_RUNDIR/times.all" && cp "$SP_RUNDIR/times.all" "$times"

for n in $failed_names; do
	case $n in */*) ;; *) continue ;; esac
	log=$SP_LOGDIR/$(echo "$n" | tr / _).log
	echo
	echo "---- FAIL $n: the last 60 lines (the whole output: $log)"
	tail -n 60 "$log"
done
echo
echo "tests took ${wall} s wall with -j $JOBS"
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
