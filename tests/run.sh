#!/bin/sh
# Run the test suites and print one closing line: "N passed, N failed, N skipped".
#   tests/run.sh BUILD_DIR [SUITE...]
#   suites: unit integration hostile tui embed completion mcp
# unit/integration are cmocka programs (their own summaries are read);
# hostile/tui/embed/completion are scripts given the sandpit binary:
# exit 0 pass, 77 skip.
set -u
B=${1:?usage: tests/run.sh BUILD_DIR [SUITE...]}
shift
SUITES=${*:-unit integration hostile tui embed completion mcp}
SANDPIT=$(cd "$B" && pwd)/sandpit
export SANDPIT
TOP=$(cd "$(dirname "$0")/.." && pwd)
export SANDPIT_TOP="$TOP"
pass=0 fail=0 skip=0 failed_names=""
log=$(mktemp)

for suite in $SUITES; do
	case $suite in
	unit|integration)
		for t in "$B"/tests/$suite/test_*; do
			[ -x "$t" ] || continue
			name=$suite/$(basename "$t")
			# a hang is a failure, not a stalled CI
			timeout 900 "$t" >"$log" 2>&1
			rc=$?
			p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
			f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
			s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | tail -n 1)
			pass=$((pass + ${p:-0}))
			skip=$((skip + ${s:-0}))
			if [ "$rc" -ne 0 ] || [ "${f:-0}" -gt 0 ]; then
				n=${f:-0}
				[ "$n" -gt 0 ] || n=1
				fail=$((fail + n))
				failed_names="$failed_names $name"
				echo "---- FAIL $name (exit $rc)"
				tail -n 40 "$log"
			else
				echo "ok   $name (${p:-0})"
			fi
		done ;;
	hostile|tui|embed|completion|mcp)
		for t in "$TOP"/tests/$suite/test_*.sh; do
			[ -f "$t" ] || continue
			name=$suite/$(basename "$t" .sh)
			timeout 300 sh "$t" "$SANDPIT" >"$log" 2>&1
			rc=$?
			if [ "$rc" -eq 0 ]; then
				pass=$((pass + 1)); echo "ok   $name"
			elif [ "$rc" -eq 77 ]; then
				skip=$((skip + 1)); echo "skip $name: $(tail -n 1 "$log")"
			else
				fail=$((fail + 1)); failed_names="$failed_names $name"
				echo "---- FAIL $name (exit $rc)"
				tail -n 40 "$log"
			fi
		done ;;
	*)
		echo "tests/run.sh: unknown suite '$suite'" >&2
		exit 2 ;;
	esac
done
rm -f "$log"
[ -n "$failed_names" ] && echo "failed:$failed_names"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
