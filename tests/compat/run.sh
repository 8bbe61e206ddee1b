#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh - the compatibility suite: CPython's own regression tests, bare
# and in sandpit, must agree. A test that passes bare and fails (or errs,
# or never reports) in the sandbox fails the suite, unless allowed.txt
# names it with the wall that blocks it.
#
#   sh tests/compat/run.sh SANDPIT [MODULE...]
#
# The tests are Debian's libpython3.11-testsuite, fetched with `apt-get
# download` and unpacked with `dpkg -x` into $COMPAT_DIR (build/compat by
# default), never installed: the package may be newer than the host's
# interpreter, and installing it would upgrade that. Both sides run
# /usr/bin/python3 -I -u -B (sandpit's own way) on tests/compat/runner.py
# in an empty directory holding a zip of the test package, with limits
# generous enough that only the walls differ. Exit 77 (skipped) when the
# package cannot be had or the interpreter is not 3.11.
set -u
SP=${1:?usage: sh tests/compat/run.sh /path/to/sandpit [MODULE...]}
case $SP in /*) ;; *) SP=$(pwd)/$SP ;; esac
shift
HERE=$(cd "$(dirname "$0")" && pwd)
PY=/usr/bin/python3
DIR=${COMPAT_DIR:-$(pwd)/build/compat}
LIMITS="--cpu 300 --wall 600 --memory 2G --disk 1G --procs 256 --output 64M"

# Left out: test_logging (its config listener waits for ever on a thread
# that the network wall stops: the run would end at the wall limit, not
# with a result), test_csv and test_threading (minutes bare, a subprocess
# test of the latter never ending on a busy host), and test_unittest (its
# tests live in the unittest package, outside the zip).
MODULES=${*:-"test_abc test_argparse test_array test_base64 test_bisect
test_calendar test_cmath test_collections test_contextlib test_copy
test_dataclasses test_datetime test_decimal test_difflib test_doctest
test_enum test_fnmatch test_fractions test_functools test_glob test_hashlib
test_heapq test_inspect test_itertools test_json test_linecache
test_math test_operator test_pathlib test_pickle test_pprint test_random
test_re test_shutil test_statistics test_string test_struct test_tempfile
test_textwrap test_timeit test_traceback test_typing
test_zipfile test_zlib test_concurrent_futures
test_multiprocessing_spawn"}

[ -x "$SP" ] || { echo "compat: no sandpit binary at $SP"; exit 2; }
case $("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) in
3.11) ;;
*) echo "compat: skip: $PY is not Python 3.11 (the test package is 3.11's)"; exit 77 ;;
esac

# the test package, fetched once
if [ ! -f "$DIR/pytests.zip" ]; then
	mkdir -p "$DIR/deb" || exit 2
	if ! (cd "$DIR/deb" && apt-get download libpython3.11-testsuite >/dev/null 2>&1); then
		echo "compat: skip: apt-get download libpython3.11-testsuite failed"
		exit 77
	fi
	rm -rf "$DIR/x"
	dpkg -x "$DIR"/deb/libpython3.11-testsuite_*.deb "$DIR/x" || exit 2
	# the package and the stdlib's part of it (test/__init__.py, support/),
	# which the testsuite package leaves to libpython3.11-stdlib
	ZIPOUT="$DIR/pytests.zip" "$PY" -c '
import os, sys, zipfile
seen = set()
with zipfile.ZipFile(os.environ["ZIPOUT"], "w", zipfile.ZIP_DEFLATED) as z:
    for top in sys.argv[1:]:
        os.chdir(top)
        for root, dirs, files in os.walk("test"):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for f in sorted(files):
                p = os.path.join(root, f)
                if p not in seen:
                    seen.add(p)
                    z.write(p)
' "$DIR/x/usr/lib/python3.11" /usr/lib/python3.11 || exit 2
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/sandpit-compat.XXXXXX") || exit 2
FAILS=0
for m in $MODULES; do
	sed "s/@MODULE@/test.$m/" "$HERE/runner.py" > "$W/compat_$m.py"
	rm -rf "$W/bare" && mkdir "$W/bare" && cp "$DIR/pytests.zip" "$W/bare/"
	(cd "$W/bare" && timeout 600 "$PY" -I -u -B "$W/compat_$m.py" \
		> "$W/$m.bare" 2> "$W/$m.bare.err" < /dev/null)
	(cd "$W" && "$SP" run $LIMITS --python "$PY" --file "$DIR/pytests.zip" \
		"compat_$m.py" > "$W/$m.sand" 2> "$W/$m.sand.err" < /dev/null)
	"$PY" - "$m" "$W/$m.bare" "$W/$m.sand" "$HERE/allowed.txt" "$W/$m.sand.err" <<'PY' || FAILS=$((FAILS + 1))
import json, sys
mod, bare_p, sand_p, allowed_p, err_p = sys.argv[1:]
def outcome(p):
    for line in open(p, errors="replace"):
        if line.startswith("COMPAT-RESULT "):
            return json.loads(line[len("COMPAT-RESULT "):])
    return None
allowed = {}
for line in open(allowed_p):
    line = line.strip()
    if line and not line.startswith("#"):
        name, _, why = line.partition(" ")
        allowed[name] = why.strip()
bare, sand = outcome(bare_p), outcome(sand_p)
if bare is None:
    print("compat: %s: SKIP: no result bare" % mod)
    sys.exit(0)
if sand is None:
    print("compat: %s: FAIL: no result in the sandbox; its summary:" % mod)
    print("".join(open(err_p, errors="replace").readlines()[-8:]))
    sys.exit(1)
worse = []
for t, o in sorted(bare.items()):
    if o != "pass":
        continue
    s = sand.get(t, "missing")
    if s == "pass":
        continue
    short = t[len("test."):] if t.startswith("test.") else t
    if any(short == a or (a.endswith("*") and short.startswith(a[:-1])) for a in allowed):
        continue
    worse.append((t, s))
passed = sum(1 for o in bare.values() if o == "pass")
same = sum(1 for t, o in bare.items() if o == "pass" and sand.get(t) == "pass")
print("compat: %s: %d of %d passing bare pass in the sandbox" % (mod, same, passed))
for t, s in worse:
    print("compat:   FAIL %s: %s in the sandbox" % (t, s))
sys.exit(1 if worse else 0)
PY
done
[ "$FAILS" -eq 0 ] && { rm -rf "$W"; echo "compat: ok"; exit 0; }
# kept on a failure, for reading
echo "compat: $FAILS module(s) differ (both sides' outputs are kept in $W)"
exit 1
