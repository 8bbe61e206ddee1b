#!/bin/sh
# SPDX-License-Identifier: MIT
# Resource bombs: fork, threads, memory (at once and little by little),
# disk (bytes and inodes), output, CPU, sleep, file descriptors. Each run
# must end by its limit with the right status and violation kind, and the
# host must be left as it was.
. "$(dirname "$0")/lib.sh"

# ended_by NAME MS: the run (as the host saw it) took under MS ms.
t0=0
start_clock() { t0=$(date +%s%N); }
ended_by() {
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	CHECKS=$((CHECKS + 1))
	if [ "$ms" -le "$2" ]; then
		echo "ok   $1: over in $ms ms (bound $2)"
	else
		echo "FAIL $1: took $ms ms, more than $2"
		FAILS=$((FAILS + 1))
	fi
}

prog forkbomb <<'EOF'
import os
while True:
    try:
        os.fork()
    except OSError:
        pass
EOF
start_clock
run forkbomb --procs 32 --wall 3 --cpu 60
ended_by forkbomb 8000
check_rc forkbomb 124
check forkbomb 'status == "wall_limit" and viol("wall")' 'stopped at the wall limit'
check forkbomb 'viol("process")' 'the process limit is recorded'
check forkbomb 'r["usage"]["procs_peak"] <= 32' 'never more than 32 processes'

prog threads <<'EOF'
import threading, time
n = 0
try:
    while True:
        threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
        n += 1
except RuntimeError as e:
    print("threads:", n)
EOF
start_clock
run threads --procs 16 --wall 5
ended_by threads 4000
check threads 'status == "ok" and 0 < int(line("threads")) < 16' 'thread creation fails at the limit'
check threads 'viol("process")' 'the process limit is recorded'

prog bigalloc <<'EOF'
b = b"x" * (2 << 30)
print("allocated: ESCAPED")
EOF
run bigalloc --memory 256M
check_rc bigalloc 124
check bigalloc 'status == "memory_limit" and viol("memory") and not escaped' '2 GiB at once under 256M'

prog memgrow <<'EOF'
chunks = []
while True:
    chunks.append(bytearray(b"\1") * (1 << 20))
EOF
run memgrow --memory 128M --wall 10
check_rc memgrow 124
check memgrow 'status == "memory_limit" and viol("memory")' 'growing past 128M'
check memgrow 'r["usage"]["peak_memory_bytes"] <= 140 << 20' 'the peak stays near the limit'

prog disk <<'EOF'
import errno, os
def fill(path):
    n = 0
    try:
        with open(path, "wb") as f:
            while True:
                f.write(b"\0" * (1 << 20))
                f.flush()
                n += 1
    except OSError as e:
        return "%d MiB then %s" % (n, errno.errorcode.get(e.errno))
print("tmp:", fill("/tmp/big"))
os.remove("/tmp/big")
print("shm:", fill("/dev/shm/big"))
os.remove("/dev/shm/big")
print("work:", fill("/work/big"))
EOF
run disk --disk 8M
check disk 'status == "ok"' 'the program outlives a full disk'
check disk 'all(int(line(k).split()[0]) <= 8 for k in ("work", "tmp", "shm"))' 'no more than 8 MiB in the work dir, /tmp or /dev/shm'
check disk 'viol("disk")' 'the disk limit is recorded'
check disk 'all(f["bytes"] <= 8 << 20 for f in r["files"])' 'no file over the limit'

# The same, but the program hides its tracks: it fills the disk, catches
# the error and deletes the file at once, then runs out of inodes. The
# limit was still hit, so it must still be recorded.
prog diskhide <<'EOF'
import errno, os
try:
    with open("/work/big", "wb") as f:
        while True:
            f.write(b"\0" * (1 << 20))
except OSError as e:
    print("bytes: then", errno.errorcode.get(e.errno))
os.remove("/work/big")
n = 0
try:
    while True:
        open("/work/f%d" % n, "w").close()
        n += 1
except OSError as e:
    print("inodes: %d then %s" % (n, errno.errorcode.get(e.errno)))
for i in range(n):
    os.remove("/work/f%d" % i)
EOF
run diskhide --disk 8M
check diskhide 'status == "ok" and "then" in (line("inodes") or "")' 'inodes run out, the run goes on'
# Known gap, not checked: a program that fills the work dir and deletes the
# evidence between two samples (50 ms) is contained (its writes failed) but
# not recorded, since tmpfs keeps no high-water mark to read afterwards.

prog flood <<'EOF'
import sys
while True:
    sys.stdout.write("x" * 999 + "\n")
    sys.stderr.buffer.write(b"\xff\xfe\x1b[2J\0")
EOF
start_clock
run flood --output 1M --wall 20
ended_by flood 10000
check_rc flood 124
check flood 'status == "output_limit" and r["truncated"] and viol("output")' 'stopped at the output limit'
check flood 'len(out.encode()) + len(err.encode("utf-8", "surrogatepass")) <= (1 << 20) * 3' 'kept output stays near the limit'
check flood 'r["usage"]["output_bytes"] <= 1 << 20' 'output bytes counted up to the limit'

# The carry channel (fd 3) is the program's too: random bytes, lines over
# the size cap and a flood of distinct made-up reports must cost a bounded
# record, never the run, the result or sandpit, and must not hide the real
# violation that follows.
prog chanflood <<'EOF'
import os, random
rnd = random.Random(8)
for i in range(400):
    os.write(3, rnd.randbytes(rnd.randrange(1, 300000)))
os.write(3, b"\n" + b"{" * 200000 + b"\n\0\0\xff\n")
for i in range(20000):
    os.write(3, b'{"t": "ev", "k": "network", "what": "w%d", "line": %d}\n' % (i, i))
os.write(3, b'\n{"t": "carry", "v": {"kept": 1}}\n')
import socket
try:
    socket.create_connection(("10.1.2.3", 80), timeout=1)
except OSError:
    pass
print("done")
EOF
start_clock
run chanflood --wall 60
ended_by chanflood 60000
check_rc chanflood 0
check chanflood 'status == "ok" and "done" in lines' 'the program runs to its end'
check chanflood 'viol("carry")' 'the malformed data is recorded'
check chanflood 'len(V) <= 40' 'the record of violations stays bounded'
check chanflood 'any(v["kind"] == "network" and v["source"] == "kernel" for v in V)' 'the made-up reports hide no real violation'
check chanflood 'r["carry_out"] == {"kept": 1}' 'a good message after the flood still counts'

# Each carry() message used to copy and dump the whole carry-out: with
# 900 KB carried, 2,000 small messages kept the supervisor busy for a
# minute and the wall limit went unenforced. The limit must still hold.
prog carryburn <<'EOF'
import os, time
os.write(3, b'{"t": "carry", "v": {"big": [' + b'0,' * 449999 + b'0]}}\n')
for i in range(2000):
    os.write(3, b'{"t": "carry", "v": {"a": %d}}\n' % i)
time.sleep(60)
EOF
start_clock
run carryburn --wall 2
ended_by carryburn 10000
check_rc carryburn 124
check carryburn 'status == "wall_limit" and r["usage"]["wall_ms"] < 4000' 'stopped at the wall limit'
check carryburn 'r["carry_out"]["a"] == 1999 and len(r["carry_out"]["big"]) == 450000' 'every carry() call is taken'

# Its stdout, stderr and channel put in flight in a unix socket cycle:
# a write end lives on until the kernel collects it, and the end of the
# run must neither spin on those pipes nor wait on them for long.
prog inflight <<'EOF'
import socket
a, b = socket.socketpair()
socket.send_fds(b, [b"x"], [a.fileno(), b.fileno(), 1, 2, 3])
a.close()
b.close()
print("bye", flush=True)
EOF
start_clock
run inflight --wall 20
ended_by inflight 5000
check_rc inflight 0
check inflight 'status == "ok" and "bye" in lines' 'the run ends with its output'

# Memory that no process maps is invisible to RLIMIT_DATA and to the RSS
# samples (without a memory cgroup, as an ordinary user): 64 MiB memfds
# held open, or SysV segments kept after shmdt, once held gigabytes past
# a 256 MiB limit. Their calls are denied.
prog unmapped <<'EOF'
import ctypes, os
chunk = b"z" * (1 << 20)
fds, held = [], 0
try:
    while held < 2048:
        fd = os.memfd_create("x")
        fds.append(fd)
        for i in range(63):
            os.write(fd, chunk)
            held += 1
except OSError as e:
    print("memfd:", e.errno)
libc = ctypes.CDLL(None, use_errno=True)
segs = 0
while segs < 2048:
    sid = libc.shmget(0, ctypes.c_size_t(1 << 20), 0o1600)
    if sid < 0:
        break
    addr = libc.shmat(sid, None, 0)
    ctypes.memset(addr, 1, 1 << 20)
    libc.shmdt(ctypes.c_void_p(addr))
    segs += 1
print("held MiB:", held + segs)
EOF
run unmapped --memory 256M --wall 30
check unmapped 'line("memfd") == "1" and int(line("held MiB")) == 0' 'no memory is held outside the limit'
check unmapped 'viol("syscall", "memfd_create") and viol("syscall", "shmget")' 'the denied calls are recorded'

# Data queued on socketpairs nobody reads is kernel memory no process
# maps: 16 processes held 1.8 GiB that way past a 64 MiB limit when only
# RSS was sampled (an ordinary user without a memory cgroup).
# (the same program the VM check runs: one copy, in tests/vm/progs)
prog sockbufs < "$(dirname "$0")/../vm/progs/sockbufs.py"
run sockbufs --memory 64M --wall 10 --cpu 60
check sockbufs 'status == "memory_limit" and viol("memory")' 'stopped at the memory limit'

# The same bytes with the writing end closed: they stay queued at the
# reader, and the writer leaves the sockets the kernel lists. Counted by
# the send queues alone, one process held 800 MiB under a 64 MiB limit
# (rootless, without a memory cgroup); receive queues count too now.
prog closedwriter <<'EOF'
import os, socket, time
def fill():
    held, keep = 0, []
    try:
        while True:
            a, b = socket.socketpair()
            a.setblocking(False)
            try:
                while True:
                    held += a.send(b"z" * 65536)
            except BlockingIOError:
                pass
            a.close()
            keep.append(b)
    except OSError:
        pass
    return held, keep
for i in range(15):
    if os.fork() == 0:
        h = fill()
        time.sleep(20)
        os._exit(0)
h = fill()
print("held MiB:", h[0] >> 20, flush=True)
time.sleep(20)
EOF
run closedwriter --memory 64M --wall 10 --cpu 60
check closedwriter 'status == "memory_limit" and viol("memory")' 'stopped at the memory limit'

prog spin <<'EOF'
while True:
    pass
EOF
start_clock
run spin --cpu 1 --wall 20
ended_by spin 8000
check_rc spin 124
check spin 'status == "cpu_limit" and viol("cpu")' 'stopped at the CPU limit'
check_time spin 'r["usage"]["cpu_ms"] <= 1200' 'CPU used within 200 ms of the limit'

prog sleeper <<'EOF'
import time
time.sleep(1e6)
EOF
start_clock
run sleeper --wall 1
ended_by sleeper 6000
check_rc sleeper 124
check sleeper 'status == "wall_limit" and viol("wall")' 'stopped at the wall limit'
check_time sleeper 'r["usage"]["wall_ms"] <= 1100' 'within 100 ms of the limit'

prog fds <<'EOF'
import errno, os
fds = []
try:
    while True:
        fds.append(os.open("/dev/null", os.O_RDONLY))
except OSError as e:
    print("fds: %d then %s" % (len(fds), errno.errorcode.get(e.errno)))
EOF
run fds
check fds 'status == "ok" and "EMFILE" in line("fds")' 'file descriptors run out inside'

host_clean
finish
