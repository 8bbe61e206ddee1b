#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# services.py - make bench's rows for the services (docs/mcp.md):
#   1. request to result of print('hi') through `sandpit mcp` (a raw
#      JSON-RPC client on its stdio, one call at a time, so each comes
#      from a sandbox the pool prepared meanwhile), against a cold
#      `sandpit run --json` of the same program, interleaved;
#   2. runs per second of print('hi') through `sandpit run --batch`
#      (--jobs = CPUs) against sequential cold `sandpit run --json`, and
#      against sequential bubblewrap when it is installed.
# Medians with their spread (the 10th to 90th percentile); a ratio is the
# median of each round's own ratio, with the spread of those (as bench.c
# prints them); the rates are taken in BENCH_RATE_ROUNDS rounds (default
# 3), interleaved, and their ratios given with the least and the most.
# usage: services.py SANDPIT [RUNS]
import json, os, shutil, statistics, subprocess, sys, tempfile, time

sp = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("BENCH_RUNS", "20"))
pause = int(os.environ.get("BENCH_PAUSE_MS", "100")) / 1000
state = tempfile.mkdtemp(prefix="sp-bench-mcp.")
env = dict(os.environ, XDG_STATE_HOME=state)

def spread(xs):
    xs = sorted(xs)
    q = lambda p: xs[min(len(xs) - 1, int(p * len(xs)))]
    return statistics.median(xs), q(0.1), q(0.9)

srv = subprocess.Popen([sp, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, env=env, bufsize=0)
def rpc(i, method, params):
    srv.stdin.write((json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n").encode())
    while True:
        m = json.loads(srv.stdout.readline())
        if m.get("id") == i:
            return m
rpc(0, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
srv.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
call = {"name": "run_python", "arguments": {"code": "print('hi')"}}
rpc(1, "tools/call", call)  # the first: the pool's sandboxes are ready after it
mcp, cold = [], []
for i in range(runs):
    time.sleep(pause)  # the pool prepares the next sandbox meanwhile, as between a model's calls
    t = time.perf_counter()
    r = rpc(2 + i, "tools/call", call)
    mcp.append((time.perf_counter() - t) * 1000)
    assert r["result"]["structuredContent"]["stdout"] == "hi\n", r
    time.sleep(pause)
    t = time.perf_counter()
    out = subprocess.run([sp, "run", "--json", "-"], input=b"print('hi')", capture_output=True, env=env)
    cold.append((time.perf_counter() - t) * 1000)
    assert json.loads(out.stdout)["stdout"] == "hi\n"
srv.stdin.close()
srv.wait()
m, c = spread(mcp), spread(cold)
q = spread([b / a for a, b in zip(mcp, cold)])
print("print('hi') request to result: sandpit mcp %.1f ms (%.1f-%.1f), cold sandpit run %.1f ms (%.1f-%.1f): "
      "cold x%.2f (%.2f-%.2f) of mcp" % (m + c + q))

n = max(50, runs * 5)
lines = "".join('{"code": "print(%d)"}\n' % i for i in range(n)).encode()
seq = max(10, runs)
# issue 27's yardstick: bubblewrap's sequential rate, with a policy near ours
bw = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
      "--unshare-all", "--die-with-parent", "python3", "-c", "print('hi')"] if shutil.which("bwrap") else None

def rate(count, one):
    t = time.perf_counter()
    one()
    return count / (time.perf_counter() - t)

def batch():
    out = subprocess.run([sp, "run", "--batch"], input=lines, capture_output=True, env=env)
    assert len(out.stdout.splitlines()) == n

def cold_seq():
    for i in range(seq):
        subprocess.run([sp, "run", "--json", "-"], input=b"print('hi')", capture_output=True, env=env)

def bw_seq():
    for i in range(seq):
        subprocess.run(bw, capture_output=True)

b_r, c_r, w_r = [], [], []
for k in range(max(1, int(os.environ.get("BENCH_RATE_ROUNDS", "3")))):
    b_r.append(rate(n, batch))
    c_r.append(rate(seq, cold_seq))
    if bw:
        w_r.append(rate(seq, bw_seq))

def ratios(a, b):
    r = sorted(x / y for x, y in zip(a, b))
    return statistics.median(r), r[0], r[-1]

print("print('hi') runs per second: sandpit run --batch (%d jobs) %.1f, sequential cold sandpit run %.1f: "
      "x%.2f (%.2f-%.2f over %d rounds)"
      % ((os.cpu_count(), statistics.median(b_r), statistics.median(c_r)) + ratios(b_r, c_r) + (len(b_r),)))
if bw:
    print("print('hi') runs per second: sandpit run --batch %.1f, sequential bubblewrap %.1f: "
          "x%.2f (%.2f-%.2f over %d rounds)"
          % ((statistics.median(b_r), statistics.median(w_r)) + ratios(b_r, w_r) + (len(b_r),)))
subprocess.run(["rm", "-rf", state])
