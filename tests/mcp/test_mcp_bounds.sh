#!/bin/sh
# SPDX-License-Identifier: MIT
# `sandpit mcp` holds a bounded amount for calls not yet answered, and
# nothing of a request outlives it: with one sandbox busy, calls past
# --max-queue are refused with a JSON-RPC error that says what to do,
# and the server's peak memory does not follow the calls sent; a
# request's bytes past --max-pending are refused the same way; nothing
# is written to TMPDIR while calls wait, nor left there when the server
# is killed with SIGKILL mid-call; a line of 60 MiB of small values is
# refused unparsed (it took 2.85 GB to parse); an error about a request's
# files names them as the request did, never by a host temp path.
# Memory is checked only against bounds far from the normal figures.
#   sh tests/mcp/test_mcp_bounds.sh /abs/path/to/sandpit
set -u
SP=${1:?usage: sh test_mcp_bounds.sh /abs/path/to/sandpit}
case $SP in /*) ;; *) SP=$(pwd)/$SP ;; esac
command -v python3 >/dev/null 2>&1 || { echo "python3 is needed to drive sandpit mcp"; exit 77; }
W=$(mktemp -d "${TMPDIR:-/tmp}/sp-mcp-bounds.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT
mkdir "$W/tmp" "$W/state"

# the bounds are options, refused out of their range as usage errors
for bad in "--max-queue -1" "--max-pending 10" "--max-message 2G"; do
	# shellcheck disable=SC2086 # the option and its value, split
	"$SP" mcp $bad < /dev/null > /dev/null 2> "$W/e"; rc=$?
	[ $rc -eq 2 ] && grep -q -- "${bad% *}" "$W/e" ||
		{ echo "FAIL: '$bad' is a usage error (exit $rc)"; cat "$W/e"; exit 1; }
done
echo "ok - bounds out of range are usage errors"

# Under AddressSanitizer every allocation also costs shadow memory and a
# quarantine: the memory bounds hold for the real build, ten times over
# for that one (the calls refused and TMPDIR empty are checked alike).
SLACK=1
grep -q __asan_init "$SP" 2>/dev/null && SLACK=10
python3 - "$SP" "$W" "$SLACK" <<'PY'
import json, os, select, signal, subprocess, sys
sp, w = sys.argv[1], sys.argv[2]
slack = int(sys.argv[3])
tmp = os.path.join(w, "tmp")
env = dict(os.environ, TMPDIR=tmp, XDG_STATE_HOME=os.path.join(w, "state"))

def fail(msg, got=None):
    print("FAIL:", msg)
    if got is not None:
        print(json.dumps(got, indent=1)[:3000] if not isinstance(got, str) else got[:3000])
    sys.exit(1)

class Server:
    def __init__(self, *args):
        self.p = subprocess.Popen([sp, "mcp", *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, env=env,
                                  stderr=open(os.path.join(w, "stderr"), "ab"))
        self.buf = b""
        self.seen = []
        self.rpc(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                   "clientInfo": {"name": "bounds", "version": "1"}})
    def send(self, raw):
        self.p.stdin.write(raw)
        self.p.stdin.flush()
    def call(self, i, method, params):
        self.send((json.dumps({"jsonrpc": "2.0", "id": i, "method": method,
                               "params": params}) + "\n").encode())
    def next_msg(self):
        # a guard against a server that never answers, not a wait for one
        while b"\n" not in self.buf:
            r, _, _ = select.select([self.p.stdout], [], [], 300)
            if not r:
                fail("the server said nothing for 300 s", self.seen[-5:])
            got = os.read(self.p.stdout.fileno(), 1 << 20)
            if not got:
                fail("the server closed its output", self.seen[-5:])
            self.buf += got
        line, self.buf = self.buf.split(b"\n", 1)
        m = json.loads(line)
        self.seen.append(m)
        return m
    def wait(self, pred):
        for m in self.seen:
            if pred(m):
                return m
        while True:
            m = self.next_msg()
            if pred(m):
                return m
    def reply_to(self, i):
        return self.wait(lambda m: m.get("id") == i)
    def rpc(self, i, method, params):
        self.call(i, method, params)
        return self.reply_to(i)
    def peak_kb(self):
        for l in open("/proc/%d/status" % self.p.pid):
            if l.startswith("VmHWM:"):
                return int(l.split()[1])
        fail("no VmHWM in /proc/PID/status")

def run(code, **more):
    a = {"code": code}
    a.update(more)
    return {"name": "run_python", "arguments": a}

sleeper = lambda tok: dict(run("import time\ntime.sleep(900)\n", limits={"wall": 1000, "cpu": 10}),
                           _meta={"progressToken": tok})

def busy(s, tok):
    # one call running (its progress says so) holds the one sandbox
    s.call(tok, "tools/call", sleeper(tok))
    s.wait(lambda m: m.get("method") == "notifications/progress" and
           m["params"]["progressToken"] == tok)

# 1. the queue: --jobs 1 --max-queue 2, one call running, 50 calls of
#    4 MiB code and a 4 MiB file each sent at once
s = Server("--jobs", "1", "--max-queue", "2", "--max-wall", "1000")
busy(s, 1)
base = s.peak_kb()
big = "#" + "x" * (4 << 20) + "\nprint(1)\n"
for i in range(100, 150):
    s.call(i, "tools/call", run(big, files=[{"name": "data.txt", "text": "y" * (4 << 20)}]))
s.rpc(9999, "ping", {})          # answered after every call above was taken
answered = {m["id"]: m for m in s.seen if m.get("id") in range(100, 150)}
if set(answered) != set(range(102, 150)):
    fail("calls 100 and 101 wait, 102-149 are refused; answered: %s" % sorted(answered))
e = answered[102].get("error") or fail("a call past the queue gets a JSON-RPC error", answered[102])
if "--max-queue 2" not in e["message"] or "send this call again" not in e["message"]:
    fail("the refusal names the bound and what to do", e)
print("ok - calls past --max-queue are refused with what to do")
left = os.listdir(tmp)
if left:
    fail("calls waiting wrote %d entries to TMPDIR" % len(left), left[:5])
print("ok - nothing of a waiting call in TMPDIR")
peak = s.peak_kb()
# held unbounded, the 50 calls' code alone is 200 MiB; bounded, two wait
if peak - base > 120 * 1024 * slack:
    fail("the server's peak memory grew by %d MiB with 50 calls sent (2 may wait)"
         % ((peak - base) >> 10))
print("ok - peak memory grew by %d MiB with 50 big calls sent" % ((peak - base) >> 10))

# 2. killed mid-call (one running, two waiting with files): nothing left
s.p.send_signal(signal.SIGKILL)
s.p.wait()
left = os.listdir(tmp)
if left:
    fail("a server killed by SIGKILL left %d entries in TMPDIR" % len(left), left[:5])
print("ok - SIGKILL mid-call leaves nothing in TMPDIR")

# 3. --max-pending: a second 5 MiB request does not fit in 8M
s = Server("--jobs", "1", "--max-pending", "8M", "--max-wall", "1000")
busy(s, 1)
five = [{"name": "f.bin", "text": "z" * (5 << 20)}]
s.call(2, "tools/call", run("print(2)", files=five))
r = s.rpc(3, "tools/call", run("print(3)", files=five))
e = r.get("error") or fail("a request past --max-pending gets a JSON-RPC error", r)
if "--max-pending" not in e["message"] or "nothing ran" not in e["message"]:
    fail("the refusal names --max-pending and says nothing ran", e)
if any(m.get("id") == 2 for m in s.seen):
    fail("the call that fits is answered before its run", s.seen)
print("ok - a request past --max-pending is refused")

# 4. 60 MiB of small values in one line: refused before parsing it
base = s.peak_kb()
line = b'{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"x": [' + \
       b"1," * (30 << 20) + b'1]}}\n'
s.send(line)
del line
r = s.wait(lambda m: "error" in m and m.get("id") in (7, None))
if "JSON values" not in r["error"]["message"]:
    fail("a message of too many values is refused as such", r)
if s.rpc(8, "ping", {}).get("result") != {}:
    fail("the server answers after the refused message")
grew = (s.peak_kb() - base) >> 10
if grew > 400 * slack:
    fail("a 60 MiB message took %d MiB to refuse (parsed, it took 2.85 GB)" % grew)
print("ok - a 60 MiB message of small values refused with %d MiB more at peak" % grew)

# 5. an error about the files names them as the request did: a name
#    taken twice, a name with a control character, files over the disk
for i, (files, says) in enumerate((
        ([{"name": "a.txt", "text": "1"}, {"name": "a.txt", "text": "2"}], "given twice"),
        ([{"name": "bell\u0007", "text": "1"}], "control character"),
        ([{"name": "one", "text": "x" * 700000}, {"name": "two", "text": "x" * 700000}],
         "does not fit"))):
    r = s.rpc(20 + i, "tools/call", run("print(1)", files=files, limits={"disk": "1M"}))
    text = json.dumps(r)
    if not r.get("result", {}).get("isError") or says not in text:
        fail("bad files are a tool error that says %r" % says, r)
    for bad in (tmp, "sandpit-req"):
        if bad in text:
            fail("an error the model gets shows the host path %r" % bad, r)
print("ok - errors about files name no host temp path")
s.p.stdin.close()
s.p.wait()

# 6. a client that sends its next call as soon as it has a result (what
#    the busy error tells it to do) is never refused as busy: a call
#    leaves the bounds before its answer goes out, not after its history
#    is saved (9 of 10 such calls were refused at --max-queue 0)
s = Server("--jobs", "1", "--max-queue", "0")
for i in range(10):
    r = s.rpc(40 + i, "tools/call", run("print(%d)" % i, files=[{"name": "d.txt",
                                                               "text": "x" * 200000}]))
    if "error" in r or r.get("result", {}).get("isError"):
        fail("call %d, sent after the last one's result, was refused" % i, r)
print("ok - a call sent on each result is never refused as busy")
s.p.stdin.close()
s.p.wait()
if os.listdir(tmp):
    fail("left in TMPDIR", os.listdir(tmp))
print("all ok")
PY
