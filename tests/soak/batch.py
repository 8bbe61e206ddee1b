#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# batch.py - make soak's second half: SOAK_RUNS requests through one
# `sandpit run --batch` (issue 27), each answered with its own number, in
# order; the batch process holds as many fds and about as much memory at
# the end as after its first hundred runs; it exits 0 and leaves nothing
# in its TMPDIR (each request brings a file, so each makes a temp dir).
#   python3 tests/soak/batch.py SANDPIT [RUNS]
import json, os, subprocess, sys, tempfile, threading

sp = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
tmp = tempfile.mkdtemp(prefix="sp-soak-batch.")
p = subprocess.Popen([sp, "run", "--batch", "--jobs", "2"], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, env=dict(os.environ, TMPDIR=tmp))

def feed():
    for i in range(runs):
        req = {"code": "print(int(open('n.txt').read()) * 2)", "files": [{"name": "n.txt", "text": str(i)}]}
        p.stdin.write((json.dumps(req) + "\n").encode())
    p.stdin.close()
threading.Thread(target=feed, daemon=True).start()

def usage():
    fds = len(os.listdir("/proc/%d/fd" % p.pid))
    rss = int([l for l in open("/proc/%d/status" % p.pid) if l.startswith("VmRSS")][0].split()[1])
    return fds, rss

# fds and memory vary with how many sandboxes are in the making at the
# moment: the least over a window of 50 results, early and late, is the
# baseline; a leak of one fd in a hundred runs would show
early, late = [], []
for i in range(runs):
    r = json.loads(p.stdout.readline())
    if r.get("status") != "ok" or r.get("stdout") != "%d\n" % (2 * i):
        print("FAIL: request %d answered %s" % (i, json.dumps(r)[:500]))
        sys.exit(1)
    if 100 <= i < 150:
        early.append(usage())
    if runs - 52 <= i < runs - 2:
        late.append(usage())
if early and late:
    e = (min(x[0] for x in early), min(x[1] for x in early))
    l = (min(x[0] for x in late), min(x[1] for x in late))
    print("batch: fds %d -> %d, RSS %d -> %d KiB from run 100 to run %d" % (e[0], l[0], e[1], l[1], runs))
    if l[0] > e[0] + 8 or l[1] > e[1] + 20 * 1024:
        print("FAIL: the batch grew")
        sys.exit(1)
rc = p.wait()
left = os.listdir(tmp)
os.rmdir(tmp) if not left else None
if rc != 0 or left:
    print("FAIL: exit %d, left in TMPDIR: %s" % (rc, left[:5]))
    sys.exit(1)
print("batch: %d requests answered in order, nothing left" % runs)
