#!/bin/sh
# SPDX-License-Identifier: MIT
# Limits hit, counted and recorded from the kernel's evidence, and init
# out of the program's reach (issue 15, items 2, 3, 7, 8, 9, 10). Each
# program below once got past a limit or its record, as root (cgroups)
# or as an ordinary user (no cgroup: the rlimit and seccomp fallbacks);
# every check holds in both.
. "$(dirname "$0")/lib.sh"

# run_under NAME "PREFIX" [OPTIONS]: run, with sandpit started by PREFIX
# (e.g. prlimit), which execs it (so the pid recorded is still sandpit's).
run_under() {
	name=$1
	pre=$2
	shift 2
	# shellcheck disable=SC2086
	sh -c 'echo $$ >> "$0"; exec "$@"' "$W/pids" $pre "$SP" run --json "$@" \
		"$W/${MARK}_$name.py" > "$W/$name.json" 2> "$W/$name.err" < /dev/null
	RC=$?
}

# ---- 2. a limit hit is a record even when the program catches the error

prog memcaught <<'EOF'
blocks = []
try:
    while True:
        blocks.append(bytearray(8 << 20))
except MemoryError:
    print("held:", len(blocks) * 8)
blocks.clear()
EOF
run memcaught --memory 128M
# (without a memory cgroup the RSS samples may stop it first: the
# interpreter's own pages count there, not against RLIMIT_DATA)
check memcaught '(status == "ok" and int(line("held")) > 64) or (status == "memory_limit" and not r["layers"]["cgroup"])' 'the program caught its MemoryError'
check memcaught 'viol("memory")' 'a caught MemoryError is a memory record'

prog memsmall <<'EOF'
cells = []
try:
    while True:
        cells.append([len(cells)])
except MemoryError:
    n = len(cells)
    cells.clear()
    print("cells:", n)
EOF
# (CPython at a failed malloc sometimes spins in its own error handling
# for seconds, with or without sandpit: the CPU limit then ends it)
run memsmall --memory 64M --cpu 2 --wall 6
check memsmall 'viol("memory", "refused") or (status == "memory_limit" and not r["layers"]["cgroup"])' 'running out with small objects is a memory record too'

prog inodes <<'EOF'
import errno, os
n = 0
try:
    while True:
        open("f%d" % n, "wb").close()
        n += 1
except OSError as e:
    print("files:", n, errno.errorcode.get(e.errno))
EOF
run inodes --wall 20
check inodes '"ENOSPC" in line("files")' 'the work dir runs out of inodes'
check inodes 'status == "ok" and viol("disk", "no room for another file")' 'running out of inodes is a disk record'

# ---- 3. processes counted right

prog forks <<'EOF'
import os, time
made = 0
try:
    for _ in range(1000):
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        made += 1
except OSError as e:
    print("refused:", e.errno)
print("made:", made)
EOF
run forks --procs 20 --wall 10
check forks 'line("made") == "19" and line("refused") == "11"' 'the program gets all 20 processes, itself one of them'
check forks 'r["usage"]["procs_peak"] == 20' 'the peak is the real peak (20), not a 50 ms sample'
check forks 'viol("process", "refused")' 'the refused fork is a record'
check forks 'r["layers"].get("process_count")' 'layers say how processes were counted'

prog spawnstorm <<'EOF'
import os, threading
errors = []
spawned = []
ready = threading.Barrier(4)   # all four threads exist before the storm
def storm():
    ready.wait()
    for _ in range(200):
        try:
            spawned.append(os.posix_spawn("/usr/bin/sleep", ["sleep", "20"], {}))
        except OSError as e:
            errors.append(e.errno)
            return
ts = [threading.Thread(target=storm) for _ in range(4)]
for t in ts:
    t.start()
for t in ts:
    t.join()
print("spawned:", len(spawned))
print("refused:", len(errors))
EOF
for i in 1 2 3; do
	run spawnstorm --procs 16 --wall 10
	check spawnstorm 'int(line("refused")) > 0 and viol("process", "refused")' "a posix_spawn storm from four threads: every refusal is a record (try $i)"
	check spawnstorm '4 < r["usage"]["procs_peak"] <= 16 and r["usage"]["procs_peak"] >= int(line("spawned")) - 3' "its peak is at least what was alive (try $i)"
done

# the ordinary ways of starting a process make no record (glibc's
# posix_spawn resets SIGCHLD to its default in each child)
prog subproc <<'EOF'
import os, subprocess, threading
subprocess.run(["true"], check=True)
print("shell:", subprocess.run("echo hi; /usr/bin/true; echo there", shell=True,
                               capture_output=True, text=True).stdout.split())
os.system("true")
os.waitpid(os.posix_spawn("/usr/bin/true", ["true"], {}), 0)
t = threading.Thread(target=print, args=("thread: ran",))
t.start()
t.join()
print("ran:", subprocess.run(["echo", "yes"], capture_output=True, text=True).stdout.strip())
EOF
run subproc
check subproc 'status == "ok" and line("ran") == "yes" and line("thread") == "ran" and line("shell") == str(["hi", "there"]) and not V' 'subprocess, a shell, posix_spawn and a thread: no record'

# threads started and joined one after another: the dead do not count
prog serial <<'EOF'
import threading
for i in range(300):
    t = threading.Thread(target=int)
    t.start()
    t.join()
print("threads: 300")
EOF
run serial --procs 4
check serial 'status == "ok" and line("threads") == "300" and not V' '300 threads one after another under --procs 4'

prog hello <<'EOF'
print("hello")
EOF
for n in 1 2; do
	run hello --procs $n
	check_rc hello 0
	check hello 'status == "ok" and out == "hello\n" and not V' "--procs $n runs hello world without a record"
done

prog onethread <<'EOF'
import threading, time
t = threading.Thread(target=time.sleep, args=(0.5,))
t.start()
try:
    threading.Thread(target=time.sleep, args=(0.5,)).start()
    print("second: started")
except RuntimeError:
    print("second: refused")
t.join()
EOF
run onethread --procs 2
check onethread 'status == "ok" and line("second") == "refused"' '--procs 2: the program and one thread'
check onethread 'viol("process")' 'the second thread is refused with a record'

# ---- 7. CPU of children the kernel reaps itself

prog sigign <<'EOF'
import os, signal, time
try:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    print("sigchld: ignored")
except OSError:
    print("sigchld: refused")
# one child at a time, each gone before the next: no sample ever sees
# more than one, so only the sum of the departed can stop this
for i in range(20):
    pid = os.fork()
    if pid == 0:
        t = time.process_time()
        while time.process_time() - t < 0.3:
            pass
        os._exit(0)
    while True:
        try:
            os.kill(pid, 0)          # a zombie too, until someone reaps it
            if os.waitpid(pid, os.WNOHANG)[0]:
                break
        except (ProcessLookupError, ChildProcessError):
            break
        time.sleep(0.01)
print("burned: ESCAPED")
EOF
run sigign --cpu 1 --wall 20
check_rc sigign 124
check sigign 'status == "cpu_limit" and viol("cpu") and not escaped' '6 s in auto-reaped children under --cpu 1'
check sigign 'r["layers"].get("cpu_tree")' 'layers say how the CPU of the tree was kept'

prog nocldwait <<'EOF'
import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
class sigaction(ctypes.Structure):
    _fields_ = [("handler", ctypes.c_void_p), ("mask", ctypes.c_ulong * 16),
                ("flags", ctypes.c_int), ("restorer", ctypes.c_void_p)]
sa = sigaction()
sa.handler = 0              # SIG_DFL
sa.flags = 2                # SA_NOCLDWAIT
rc = libc.sigaction(17, ctypes.byref(sa), None)
print("nocldwait:", "set" if rc == 0 else "refused")
# one child at a time, each gone before the next: no sample ever sees
# more than one, so only the sum of the departed can stop this
for i in range(20):
    pid = os.fork()
    if pid == 0:
        t = time.process_time()
        while time.process_time() - t < 0.3:
            pass
        os._exit(0)
    while True:
        try:
            os.kill(pid, 0)          # a zombie too, until someone reaps it
            if os.waitpid(pid, os.WNOHANG)[0]:
                break
        except (ProcessLookupError, ChildProcessError):
            break
        time.sleep(0.01)
print("burned: ESCAPED")
EOF
run nocldwait --cpu 1 --wall 20
check_rc nocldwait 124
check nocldwait 'status == "cpu_limit" and not escaped' '6 s in SA_NOCLDWAIT children under --cpu 1'

# ---- 8. kernel memory in pipes nobody reads

prog pipes <<'EOF'
import os, time
for i in range(13):
    if os.fork() == 0:
        held = []
        try:
            while True:
                r, w = os.pipe()
                os.set_blocking(w, False)
                try:
                    while True:
                        os.write(w, b"x" * 65536)
                except BlockingIOError:
                    pass
                held.append((r, w))
        except OSError:
            pass
        time.sleep(30)
        os._exit(0)
time.sleep(4)
print("held: ESCAPED")
EOF
run pipes --memory 64M --wall 8
check_rc pipes 124
check pipes 'status == "memory_limit" and viol("memory") and not escaped' '13 processes filling pipes under --memory 64M'

prog bigpipe <<'EOF'
import fcntl, os
r, w = os.pipe()
try:
    fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, 1 << 20)
    print("pipe: ESCAPED", fcntl.fcntl(w, fcntl.F_GETPIPE_SZ))
except OSError as e:
    print("pipe: refused", e.errno)
fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, 4096)
print("small:", fcntl.fcntl(w, fcntl.F_GETPIPE_SZ))
EOF
run bigpipe
check bigpipe 'status == "ok" and line("pipe").startswith("refused") and line("small") == "4096"' 'a pipe cannot grow past 64 KiB (smaller is fine)'

# ---- 9. rlimits the program inherits

prog rlimits <<'EOF'
import os, resource
for name in ("RTPRIO", "NICE", "RTTIME", "STACK", "SIGPENDING", "NOFILE"):
    print("%s: %s %s" % ((name.lower(),) + resource.getrlimit(getattr(resource, "RLIMIT_" + name))))
try:
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    print("fifo: ESCAPED")
except OSError:
    print("fifo: refused")
try:
    os.setpriority(os.PRIO_PROCESS, 0, -5)
    print("lower_nice: ESCAPED")
except OSError:
    print("lower_nice: refused")
EOF
# a host that grants realtime priority, a lower nice value, an unlimited
# stack: as much of that as this host lets us raise (root with
# CAP_SYS_RESOURCE all of it; otherwise what the hard limits allow)
grant=""
for opt in --rtprio=99 --nice=40 --stack=unlimited --sigpending=unlimited; do
	if command -v prlimit >/dev/null 2>&1 && prlimit "$opt" true 2>/dev/null; then
		grant="$grant $opt"
	fi
done
echo "note: the host grants the run:${grant:- nothing more}"
run_under rlimits "${grant:+prlimit$grant --}"
check rlimits 'status == "ok" and line("rtprio") == "0 0" and line("lower_nice") == "refused" and line("nice") == "0 0"' 'no realtime priority, no lower nice value inherited'
check rlimits 'line("fifo") == "refused" and line("rttime") == "0 0"' 'SCHED_FIFO is refused'
check rlimits 'line("stack") == "%d %d" % (8 << 20, 8 << 20) and line("sigpending") == "256 256"' 'stack and pending signals bounded'
check rlimits 'line("nofile") == "256 256"' 'open files bounded'

# ---- 10. init is out of the program's reach

prog init <<'EOF'
import ctypes, os, resource, signal
def state():
    with open("/proc/1/stat") as f:
        st = f.read().rsplit(")", 1)[1].split()
    with open("/proc/1/limits") as f:
        lim = f.read()
    # fields 19 (nice) and 41 (policy) of proc(5), counted after the ")"
    return st[19 - 3], st[41 - 3], lim
def cgt():
    with open("/proc/1/status") as f:
        for l in f:
            if l.startswith("SigCgt:"):
                return l.split()[1]
before = state()
print("handlers:", cgt())
libc = ctypes.CDLL(None, use_errno=True)
class rlim(ctypes.Structure):
    _fields_ = [("cur", ctypes.c_ulong), ("max", ctypes.c_ulong)]
zero = rlim(0, 0)
attacks = [
    ("prlimit_cpu", lambda: resource.prlimit(1, resource.RLIMIT_CPU, (1, 1))),
    ("prlimit_nofile", lambda: resource.prlimit(1, resource.RLIMIT_NOFILE, (0, 0))),
    # the kernel reads a pid's low 32 bits: 2**32 + 1 is pid 1 to it
    ("prlimit_raw", lambda: libc.syscall(302, ctypes.c_long((1 << 32) | 1), 7,
                                         ctypes.byref(zero), None) == 0 or
                            (_ for _ in ()).throw(OSError(ctypes.get_errno(), "raw"))),
    ("renice", lambda: os.setpriority(os.PRIO_PROCESS, 1, 19)),
    ("renice_pgrp", lambda: os.setpriority(os.PRIO_PGRP, 1, 19)),
    ("renice_user", lambda: os.setpriority(os.PRIO_USER, 0, 19)),
    ("idle", lambda: os.sched_setscheduler(1, os.SCHED_IDLE, os.sched_param(0))),
    ("batch", lambda: os.sched_setscheduler(1, os.SCHED_BATCH, os.sched_param(0))),
    ("affinity", lambda: os.sched_setaffinity(1, {0})),
    ("oom_score", lambda: open("/proc/1/oom_score_adj", "w").write("1000")),
    ("ioprio", lambda: libc.syscall(251, 1, 1, (3 << 13)) == 0 or
                       (_ for _ in ()).throw(OSError(ctypes.get_errno(), "ioprio"))),
]
for name, f in attacks:
    try:
        f()
        print(name + ": ESCAPED")
    except OSError:
        print(name + ": refused")
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGUSR1, signal.SIGSTOP):
    try:
        os.kill(1, sig)
    except OSError:
        pass
after = state()
print("init: " + ("unchanged" if after == before else "ESCAPED changed %r -> %r" % (before[:2], after[:2])))
EOF
run init --wall 10
check init 'status == "ok" and not escaped' 'no call changed init, through any pid that names it'
check init 'line("init") == "unchanged"' "init's nice value, scheduling class and limits are as they were"
check init 'line("handlers") == "0000000000000000"' 'init keeps none of the host application'"'"'s signal handlers'
check init 'viol("syscall", "init is out of the program")' 'the attempts are records'
# the run ended normally: init still reaped the program and reported it
check init 'r["exit_code"] == 0' 'init still reports the program'"'"'s end'

host_clean
finish
