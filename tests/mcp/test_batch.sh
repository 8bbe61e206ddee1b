#!/bin/sh
# SPDX-License-Identifier: MIT
# `sandpit run --batch`'s contract, through real sandboxed runs: results
# come one a line in the order of the requests (a slow first request
# does not let the quick ones after it jump ahead), a bad line gets an
# error line in its place and the batch goes on, a limit hit in the
# middle stops that run only, carry and files are each request's own,
# --jobs 1 and --jobs 3 give the same answers, and nothing is left in
# TMPDIR. Runs as root and as an unprivileged user alike.
#   sh tests/mcp/test_batch.sh /abs/path/to/sandpit
set -u
SP=${1:?usage: sh test_batch.sh /abs/path/to/sandpit}
case $SP in /*) ;; *) SP=$(pwd)/$SP ;; esac
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed on the host to check results"; exit 77; }
W=$(mktemp -d "${TMPDIR:-/tmp}/sp-batch.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT
mkdir "$W/tmp"

cat > "$W/in.jsonl" <<'EOF2'
{"code": "import time\ntime.sleep(1.0)\nprint('first')"}
{"code": "print('second')"}
this line is not JSON
{"code": "print(open('a.txt').read(), open('b.bin', 'rb').read())", "files": [{"name": "a.txt", "text": "alpha"}, {"name": "b.bin", "base64": "AAEC"}]}
{"code": "import os\nprint(sorted(os.listdir('.')))"}
{"code": "while True:\n    pass", "limits": {"cpu": 0.5}}
{"code": "carry(n=n + 1)\nprint(n)", "carry": {"n": 1}}
{"code": "carry(n=n + 1, price=534039.6)\nprint(n)", "carry": {"n": 10}}
{"code": "print(input())", "stdin": "typed\n"}
{"files": [{"name": "../x", "text": ""}], "code": "1"}

{"code": "print('last')"}
{"code": "import sys\nsys.stdout.buffer.write(b'\\xff\\xfeok\\n')"}
EOF2

for jobs in 1 3; do
	TMPDIR="$W/tmp" "$SP" run --batch --jobs $jobs < "$W/in.jsonl" > "$W/out$jobs" 2> "$W/err$jobs"
	rc=$?
	[ $rc -eq 0 ] || { echo "FAIL: --jobs $jobs exited $rc"; cat "$W/err$jobs"; exit 1; }
done
python3 - "$W" <<'EOF2' || exit 1
import json, os, sys
w = sys.argv[1]
def fail(msg, got=None):
    print("FAIL:", msg)
    if got is not None:
        print(json.dumps(got, indent=1)[:3000])
    sys.exit(1)
outs = {}
for jobs in (1, 3):
    lines = open(os.path.join(w, "out%d" % jobs)).read().splitlines()
    if len(lines) != 12:
        fail("--jobs %d: %d result lines for 12 requests (the blank line asks nothing)" % (jobs, len(lines)), lines)
    r = [json.loads(l) for l in lines]
    outs[jobs] = r
    want = [("ok", "first\n"), ("ok", "second\n")]
    for i, (st, out) in enumerate(want):
        if r[i].get("status") != st or r[i].get("stdout") != out:
            fail("--jobs %d: request %d out of order or wrong" % (jobs, i + 1), r[i])
    if r[2].get("line") != 3 or "not JSON" not in r[2].get("error", ""):
        fail("--jobs %d: the bad line gets an error line naming it" % jobs, r[2])
    if r[3].get("stdout") != "alpha b'\\x00\\x01\\x02'\n":
        fail("--jobs %d: files of request 4" % jobs, r[3])
    if "a.txt" in r[4].get("stdout", "") or r[4].get("status") != "ok":
        fail("--jobs %d: request 5 sees request 4's files" % jobs, r[4])
    if r[5].get("status") != "cpu_limit":
        fail("--jobs %d: a limit hit mid-batch" % jobs, r[5])
    if r[6].get("stdout") != "1\n" or r[6].get("carry_out") != {"n": 2}:
        fail("--jobs %d: carry of request 7" % jobs, r[6])
    if r[7].get("stdout") != "10\n" or r[7].get("carry_out") != {"n": 11, "price": 534039.6}:
        fail("--jobs %d: carry of request 8 is its own" % jobs, r[7])
    if '"price": 534039.6' not in lines[7].replace('":534', '": 534'):
        fail("--jobs %d: a carried float in its shortest form" % jobs, lines[7])
    if r[8].get("stdout") != "typed\n":
        fail("--jobs %d: stdin of request 9" % jobs, r[8])
    if r[9].get("line") != 10 or "plain file name" not in r[9].get("error", ""):
        fail("--jobs %d: a bad file name is an error line" % jobs, r[9])
    if r[10].get("stdout") != "last\n":
        fail("--jobs %d: the batch goes on to the end" % jobs, r[10])
    # bytes that are not UTF-8: the line is --json's object, its escapes
    # (surrogateescape) and stdout_base64 as there
    if r[11].get("stdout") != "\udcff\udcfeok\n" or r[11].get("stdout_base64") != "//5vawo=":
        fail("--jobs %d: output that is not UTF-8" % jobs, lines[11])
    if not any(x.get("prepared") for x in r if "status" in x):
        fail("--jobs %d: no run came from a prepared sandbox" % jobs, [x.get("prepared") for x in r])
strip = lambda r: [(x.get("status"), x.get("stdout"), x.get("error")) for x in r]
if strip(outs[1]) != strip(outs[3]):
    fail("--jobs 1 and --jobs 3 answer differently", [strip(outs[1]), strip(outs[3])])
left = os.listdir(os.path.join(w, "tmp"))
if left:
    fail("left in TMPDIR", left)
print("ok: order, bad lines, a limit mid-batch, carry and files per request, --jobs 1 and 3")
EOF2

# usage errors are the command line's, exit 2
"$SP" run --batch --jobs 0 < /dev/null 2> "$W/e"; rc=$?
[ $rc -eq 2 ] && grep -q -- "--jobs" "$W/e" || { echo "FAIL: --jobs 0 is refused (exit $rc)"; cat "$W/e"; exit 1; }
echo "ok: --jobs 0 refused"
