#!/bin/sh
# SPDX-License-Identifier: MIT
# Persistence: daemons that try to outlive their run (double fork, setsid,
# SIGTERM/SIGHUP ignored, a grandchild holding the output pipe open), and
# state left for the next run (/tmp, /dev/shm, the work dir, HOME, SysV
# IPC, POSIX message queues, file locks, keyrings). The run must end when
# its program does, every daemon must die with it, and the next run must
# start from nothing.
. "$(dirname "$0")/lib.sh"

prog daemon <<'EOF'
import os, signal, subprocess, sys, time
# 1) the classic: fork, setsid, fork again, ignore the signals of a logout
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        os.execv(sys.executable, [sys.executable, "-c",
                 "import time\nwhile True: time.sleep(1)", "@MARK@-daemon"])
    os._exit(0)
# 2) a grandchild that keeps stdout and stderr open
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", "@MARK@-pipe"],
                 start_new_session=True)
# 3) one that renames itself away from the program's name
subprocess.Popen(["/bin/sh", "-c", "exec -a @MARK@-sh sleep 600"], start_new_session=True,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.2)
print("parent: leaving")
EOF
t0=$(date +%s%N)
run daemon --wall 20
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check daemon 'status == "ok" and line("parent") == "leaving"' 'the program ends normally'
check daemon 'r["usage"]["wall_ms"] < 5000' 'the run ends with its program, not at the wall limit'
host_ok "the run returned in under 5 s ($ms ms)" [ "$ms" -lt 5000 ]
i=0
while [ -n "$(leftover_procs)" ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
host_ok "every daemon died with the run" [ -z "$(leftover_procs)" ]

# Run 1 leaves what it can; run 2 looks for it.
prog leave <<'EOF'
import ctypes, fcntl, os, platform
for p in ("/tmp/@MARK@", "/dev/shm/@MARK@", "/work/@MARK@", os.path.expanduser("~/.@MARK@")):
    with open(p, "w") as f:
        f.write("left")
    print("wrote:", p)
os.environ["MARK_ENV"] = "@MARK@"
lock = open("/work/lock", "w")
fcntl.flock(lock, fcntl.LOCK_EX)
fcntl.lockf(lock, fcntl.LOCK_EX)
libc = ctypes.CDLL(None, use_errno=True)
# SysV shared memory, semaphores and message queues under a fixed key
key = 0x5350484c
print("shmget:", libc.shmget(key, 4096, 0o1666))
print("semget:", libc.semget(key, 1, 0o1666))
print("msgget:", libc.msgget(key, 0o1666))
# a POSIX message queue (RLIMIT_MSGQUEUE is 0, so this should fail too)
mq = libc.mq_open(b"/@MARK@", os.O_CREAT | os.O_RDWR, 0o600, None)
print("mq_open:", mq)
print("done")
EOF
run leave
check leave 'status == "ok" and "done" in lines' 'run 1 left what it could'
check leave 'int(line("semget")) >= 0' 'run 1 made a SysV semaphore (in its own namespace)'
check leave 'int(line("shmget")) == -1 and int(line("msgget")) == -1 and viol("syscall", "shmget") and viol("syscall", "msgget")' 'SysV shared memory and message queues are denied (memory outside the limit), and recorded'
check leave "any(f['path'] == '$MARK' for f in r['files'])" 'run 1 sees its own files'

prog find <<'EOF'
import ctypes, fcntl, os
found = []
for p in ("/tmp/@MARK@", "/dev/shm/@MARK@", "/work/@MARK@", os.path.expanduser("~/.@MARK@"),
          "/work/lock"):
    if os.path.exists(p):
        found.append(p)
print("found:", " ".join(found) or "nothing")
print("env:", os.environ.get("MARK_ENV", "none"))
libc = ctypes.CDLL(None, use_errno=True)
key = 0x5350484c
print("shm:", "ESCAPED" if libc.shmget(key, 0, 0) >= 0 else "gone")
print("sem:", "ESCAPED" if libc.semget(key, 0, 0) >= 0 else "gone")
print("msg:", "ESCAPED" if libc.msgget(key, 0) >= 0 else "gone")
print("mq:", "ESCAPED" if libc.mq_open(b"/@MARK@", os.O_RDWR) >= 0 else "gone")
with open("/work/lock", "w") as f:
    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    print("lock: free")
# the program's own file (its __file__) is sandpit's, not run 1's
print("files:", " ".join(sorted(set(os.listdir("/work")) - {os.path.basename(__file__)})) or "none")
EOF
run find
check find 'status == "ok" and line("found") == "nothing" and line("env") == "none"' 'run 2 finds no file and no variable of run 1'
check find 'not escaped and line("lock") == "free"' 'run 2 finds no IPC object and no lock of run 1'
check find 'line("files") == "lock"' 'run 2 starts with an empty work dir'

host_ok "no file of run 1 in the host /tmp or /dev/shm" \
	sh -c "[ ! -e '/tmp/$MARK' ] && [ ! -e '/dev/shm/$MARK' ]"
host_ok "no SysV IPC object of run 1 on the host" \
	sh -c "! grep -qi '5350484c' /proc/sysvipc/shm /proc/sysvipc/sem /proc/sysvipc/msg 2>/dev/null &&
	       ! awk '{print \$1}' /proc/sysvipc/shm /proc/sysvipc/sem /proc/sysvipc/msg 2>/dev/null | grep -qx 1397246028"
host_ok "no message queue of run 1 on the host" sh -c "[ ! -e '/dev/mqueue/$MARK' ]"

host_clean
finish
