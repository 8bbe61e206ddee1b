#!/bin/sh
# SPDX-License-Identifier: MIT
# `sandpit run --batch` ends promptly on SIGTERM and on SIGHUP, with its
# input still open and a run of 900 s going: the run is killed and its
# result line written, the line waiting behind it gets a line too, the
# exit status is 128+N, and nothing is left in TMPDIR. The bound on the
# end (60 s) is far from the run's 900 s: it holds on a busy machine.
#   sh tests/mcp/test_batch_signals.sh /abs/path/to/sandpit
set -u
SP=${1:?usage: sh test_batch_signals.sh /abs/path/to/sandpit}
case $SP in /*) ;; *) SP=$(pwd)/$SP ;; esac
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed to drive sandpit run --batch"; exit 77; }
W=$(mktemp -d "${TMPDIR:-/tmp}/sp-batch-sig.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT
mkdir "$W/tmp"

python3 - "$SP" "$W" <<'PY'
import fcntl, json, os, signal, struct, subprocess, sys, termios, time
sp, w = sys.argv[1], sys.argv[2]
tmp = os.path.join(w, "tmp")

def fail(msg, got=None):
    print("FAIL:", msg)
    if got is not None:
        print(got[:3000])
    sys.exit(1)

def unread(f):
    # bytes still in the pipe: 0 once the batch has read both lines
    return struct.unpack("i", fcntl.ioctl(f.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0]

for sig in (signal.SIGTERM, signal.SIGHUP):
    p = subprocess.Popen([sp, "run", "--batch", "--jobs", "1"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=dict(os.environ, TMPDIR=tmp))
    p.stdin.write((json.dumps({"code": "import time\ntime.sleep(900)\n",
                               "files": [{"name": "d.txt", "text": "data"}],
                               "limits": {"wall": 1000, "cpu": 10}}) + "\n" +
                   json.dumps({"code": "print(2)", "files": [{"name": "e.txt", "text": "x"}]})
                   + "\n").encode())
    p.stdin.flush()
    while unread(p.stdin):
        time.sleep(0.01)   # a poll of the condition, not a wait for time
    p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=60)   # the input stays open: p.stdin is not closed
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        fail("%s: the batch did not end within 60 s of the signal" % sig.name)
    want = 128 + sig
    if p.returncode != want:
        fail("%s: exit status %s, %d expected" % (sig.name, p.returncode, want), err.decode())
    lines = out.decode().splitlines()
    if len(lines) != 2:
        fail("%s: %d lines for 2 requests" % (sig.name, len(lines)), out.decode())
    first = json.loads(lines[0])
    if first.get("status") not in ("killed", "error") and "error" not in first:
        fail("%s: the running request's line says it did not finish" % sig.name, lines[0])
    if first.get("status") == "ok":
        fail("%s: the 900 s run cannot have ended well" % sig.name, lines[0])
    json.loads(lines[1])
    if os.listdir(tmp):
        fail("%s: left in TMPDIR" % sig.name, repr(os.listdir(tmp)))
    print("ok - %s: ended with status %d, 2 lines, nothing left" % (sig.name, want))
    p.stdin.close()
print("all ok")
PY
