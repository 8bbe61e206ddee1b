#!/bin/sh
# SPDX-License-Identifier: MIT
# Escapes: calls that reach outside (ptrace, mount, chroot, pivot_root,
# open_by_handle_at, unshare, setns, io_uring, bpf, userfaultfd, keyctl,
# process_vm_readv, TIOCSTI/TIOCLINUX), paths out (/proc/self/root,
# symlinks, hardlinks, traversal, the host's files), setuid binaries,
# signals to a host process, and the supervisor seen through /proc.
# Each must fail inside, leave the host as it was, and (for the denied
# calls) be recorded by the kernel with the call in the program's terms.
. "$(dirname "$0")/lib.sh"

# A host process the programs will try to kill.
sleep 300 &
HOSTPID=$!
BG_PIDS="$HOSTPID"

prog syscalls <<'EOF'
import ctypes, errno, os, platform, struct
libc = ctypes.CDLL(None, use_errno=True)
NR = {
    "x86_64": dict(pivot_root=155, open_by_handle_at=304, name_to_handle_at=303,
                   io_uring_setup=425, bpf=321, userfaultfd=323, keyctl=250,
                   add_key=248, process_vm_readv=310, setns=308, perf_event_open=298,
                   pidfd_getfd=438, init_module=175, kexec_load=246, ioctl=16),
    "aarch64": dict(pivot_root=41, open_by_handle_at=265, name_to_handle_at=264,
                    io_uring_setup=425, bpf=280, userfaultfd=282, keyctl=219,
                    add_key=217, process_vm_readv=270, setns=268, perf_event_open=241,
                    pidfd_getfd=438, init_module=105, kexec_load=104, ioctl=29),
}[platform.machine()]
libc.syscall.restype = ctypes.c_long

def report(name, rc):
    e = ctypes.get_errno()
    if rc == -1:
        print("%s: blocked (%s)" % (name, errno.errorcode.get(e, e)))
    else:
        print("%s: ESCAPED (returned %d)" % (name, rc))

def sc(name, *args):
    ctypes.set_errno(0)
    report(name, libc.syscall(ctypes.c_long(NR[name]), *[ctypes.c_long(a) if isinstance(a, int) else a for a in args]))

def fn(name, *args):
    ctypes.set_errno(0)
    report(name, getattr(libc, name)(*args))

fn("ptrace", 16, 1, None, None)            # PTRACE_ATTACH to init
fn("ptrace", 0, 0, None, None)             # PTRACE_TRACEME
fn("mount", b"none", b"/mnt", b"tmpfs", 0, None)
fn("mount", b"/", b"/work", None, 4096 | 16384, None)   # MS_BIND|MS_REC
fn("umount2", b"/proc", 2)
fn("chroot", b"/work")
sc("pivot_root", b".", b".")
fn("unshare", 0x10000000)                  # CLONE_NEWUSER
fn("unshare", 0x00020000 | 0x20000000)     # CLONE_NEWNS|CLONE_NEWPID
sc("setns", 0, 0)
handle = ctypes.create_string_buffer(struct.pack("II", 8, 1) + b"\0" * 8)
sc("open_by_handle_at", -100, handle, 0)
mnt = ctypes.c_int()
sc("name_to_handle_at", -100, b"/", handle, ctypes.byref(mnt), 0)
params = ctypes.create_string_buffer(120)
sc("io_uring_setup", 8, params)
attr = ctypes.create_string_buffer(128)
sc("bpf", 0, attr, 128)                    # BPF_MAP_CREATE
sc("userfaultfd", 0)
sc("keyctl", 1, b"@MARK@-ring")            # KEYCTL_JOIN_SESSION_KEYRING
sc("add_key", b"user", b"@MARK@-key", b"secret", 6, -3)
buf = ctypes.create_string_buffer(64)
iov = struct.pack("PN", ctypes.addressof(buf), 64)
sc("process_vm_readv", 1, iov, 1, iov, 1, 0)
sc("pidfd_getfd", 0, 0, 0)
sc("perf_event_open", attr, 0, -1, -1, 0)
sc("init_module", buf, 64, b"")
sc("kexec_load", 0, 0, None, 0)
# clone with a namespace flag (the thread/fork paths use clone without them)
fn("syscall", ctypes.c_long(56 if platform.machine() == "x86_64" else 220),
   ctypes.c_long(0x10000000 | 17), None, None, None, None)
# Terminal injection: on every fd we hold and on /dev/tty, and with the
# request padded to 64 bits (the kernel compares the low 32).
import fcntl, termios
for fd in (0, 1, 2):
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b"X")
        print("TIOCSTI fd %d: ESCAPED" % fd)
    except OSError as e:
        print("TIOCSTI fd %d: blocked (%s)" % (fd, errno.errorcode.get(e.errno)))
ch = ctypes.c_char(b"X")
sc("ioctl", 1, 0x100005412, ctypes.byref(ch))
sc("ioctl", 0, 0x541C, ctypes.byref(ch))  # TIOCLINUX
try:
    os.open("/dev/tty", os.O_RDWR)
    print("/dev/tty: ESCAPED (opened)")
except OSError as e:
    print("/dev/tty: blocked (%s)" % errno.errorcode.get(e.errno))
EOF
run syscalls
check syscalls 'status == "ok"' 'the program ran to its end'
check syscalls 'not escaped and len(lines) >= 29' 'every call was refused'
check syscalls 'viol("syscall", "ptrace(PTRACE_ATTACH, 1)")' 'ptrace recorded'
check syscalls 'viol("syscall", "mount(\"none\", \"/mnt\")")' 'mount recorded'
check syscalls 'viol("syscall", "chroot(") and viol("syscall", "pivot_root(") and viol("syscall", "umount2(")' 'chroot, pivot_root, umount2 recorded'
check syscalls 'viol("syscall", "unshare(CLONE_NEWUSER)") and viol("syscall", "setns(")' 'unshare, setns recorded'
check syscalls 'viol("syscall", "open_by_handle_at") and viol("syscall", "name_to_handle_at")' 'open_by_handle_at recorded'
check syscalls 'viol("syscall", "io_uring_setup") and viol("syscall", "bpf") and viol("syscall", "userfaultfd")' 'io_uring, bpf, userfaultfd recorded'
check syscalls 'viol("syscall", "keyctl") and viol("syscall", "add_key")' 'keyctl, add_key recorded'
check syscalls 'viol("syscall", "process_vm_readv") and viol("syscall", "pidfd_getfd")' 'process_vm_readv, pidfd_getfd recorded'
check syscalls 'viol("syscall", "clone(CLONE_NEWUSER")' 'clone with a namespace flag recorded'
check syscalls 'viol("syscall", "ioctl(TIOCSTI)") and viol("syscall", "ioctl(TIOCLINUX)")' 'TIOCSTI, TIOCLINUX recorded'
check syscalls 'all(v["source"] == "kernel" for v in V if v["kind"] == "syscall")' 'denied calls are kernel-observed'

# Another architecture's calling convention (x32, i386's int 0x80) would
# dodge every rule of an x86_64 filter: the supervisor refuses each such
# call, whatever it is, and records it (kernel-observed), whether the main
# process or a forked child makes it. A host kernel without i386
# emulation (int 0x80 faults outside too) is told by "no int 0x80".
INT80_PY='import ctypes, mmap
m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
m.write(bytes([0xb8, 20, 0, 0, 0, 0xcd, 0x80, 0xc3]))  # mov eax, 20; int 0x80; ret
int80_getpid = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(m)))'
if [ "$(uname -m)" = x86_64 ] && python3 -c "$INT80_PY
import os, sys
sys.exit(int80_getpid() != os.getpid())" 2>/dev/null; then
	INT80=yes
else
	INT80=no
fi
prog otherabi <<EOF
import ctypes, os, platform, sys
if platform.machine() != "x86_64":
    print("not x86_64")
    sys.exit(0)
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
r = libc.syscall(ctypes.c_long(0x40000000 + 39))  # x32 getpid
print("x32:", "ESCAPED" if r == os.getpid() else "refused (%d, errno %d)" % (r, ctypes.get_errno()))
if "$INT80" == "yes":
$(echo "$INT80_PY" | sed 's/^/    /')
    r = int80_getpid()
    print("int80:", "ESCAPED" if r == os.getpid() else "refused (%d)" % r)
else:
    print("no int 0x80")
print("alive")
EOF
run otherabi
# NOTIFY: the filter has user notification (every kernel since 5.0); the
# errno-only fallback kills a call through another ABI, as before: then
# only that kill and its record are checked
NOTIFY='"notification" in r["layers"]["seccomp"]'
check otherabi '"ESCAPED" not in out' 'no call through another ABI runs'
check otherabi "out.startswith('not x86_64') or ($NOTIFY and line('x32').startswith('refused') and 'alive' in lines) or (not $NOTIFY and r['signal'] == 31 and viol('syscall', 'another architecture'))" 'an x32 call is refused, and the program goes on (without notification: killed, and recorded)'
check otherabi "out.startswith('not x86_64') or not $NOTIFY or viol('syscall', 'x32 system call 39 (getpid)')" 'the x32 call is recorded as what it is'
check otherabi "out.startswith('not x86_64') or not $NOTIFY or 'no int 0x80' in lines or (line('int80') == 'refused (-1)' and viol('syscall', 'i386 system call 20 (getpid)'))" 'an i386 int 0x80 call is refused (EPERM) and recorded as what it is'
check otherabi 'all(v["source"] == "kernel" for v in V if "another architecture" in v["what"])' 'they are kernel-observed'

# The same from a forked child: the record does not depend on which
# process made the call (a kill of the child left none).
prog otherabi_child <<EOF
import os, platform, sys
if platform.machine() != "x86_64" or "$INT80" != "yes":
    print("no int 0x80")
    sys.exit(0)
$INT80_PY
pid = os.fork()
if pid == 0:
    r = int80_getpid()
    os._exit(3 if r == os.getpid() else 4)
_, st = os.waitpid(pid, 0)
print("child:", "ESCAPED" if os.WIFEXITED(st) and os.WEXITSTATUS(st) == 3 else
      "exit %d" % os.WEXITSTATUS(st) if os.WIFEXITED(st) else "signal %d" % os.WTERMSIG(st))
EOF
run otherabi_child
check otherabi_child '"ESCAPED" not in out' 'the child'"'"'s int 0x80 call does not run'
check otherabi_child "'no int 0x80' in lines or not $NOTIFY or (line('child') == 'exit 4' and viol('syscall', 'i386 system call 20 (getpid)') and all(v['source'] == 'kernel' for v in V if 'i386' in v['what']))" 'it is refused and recorded, kernel-observed, as in the main process'

# A program that raises SIGSYS itself ends by that signal: no kernel
# record of a call it never made.
prog sigsys <<'EOF'
import os, signal
os.kill(os.getpid(), signal.SIGSYS)
EOF
run sigsys
check sigsys "r['signal'] == 31 and (not $NOTIFY or not viol('syscall', 'another architecture'))" 'a SIGSYS of its own is no record of another ABI'

prog paths <<'EOF'
import errno, os, stat
def tryit(name, f):
    try:
        v = f()
        print("%s: ESCAPED (%r)" % (name, v if not isinstance(v, bytes) else v[:60]))
    except OSError as e:
        print("%s: blocked (%s)" % (name, errno.errorcode.get(e.errno, e.errno)))
def read(p):
    with open(p, "rb") as f:
        return f.read()
def write(p):
    with open(p, "w") as f:
        f.write("@MARK@")
    return "written"
host_secret = "@W@/secret"
tryit("host secret", lambda: read(host_secret))
tryit("via /proc/self/root", lambda: read("/proc/self/root" + host_secret))
tryit("via /proc/1/root", lambda: read("/proc/1/root" + host_secret))
tryit("via traversal", lambda: read("/work/../../.." + host_secret))
tryit("/etc/shadow", lambda: read("/etc/shadow"))
tryit("/root", lambda: os.listdir("/root"))
tryit("/home", lambda: os.listdir("/home"))
tryit("write /usr/lib/x", lambda: write("/usr/lib/x"))
tryit("write /etc/passwd", lambda: write("/etc/passwd"))
tryit("write /", lambda: write("/@MARK@"))
tryit("write /sandpit/main.py", lambda: write("/sandpit/main.py"))
os.symlink(host_secret, "/work/link")
tryit("symlink to the host", lambda: read("/work/link"))
os.symlink("/proc/1/root", "/work/rootlink")
tryit("symlink to init's root", lambda: read("/work/rootlink" + host_secret))
tryit("hardlink python", lambda: os.link("/usr/bin/python3", "/work/py"))
tryit("hardlink /etc/passwd", lambda: os.link("/etc/passwd", "/work/pw"))
tryit("hardlink the program", lambda: os.link("/sandpit/main.py", "/work/m"))
tryit("mknod a disk", lambda: os.mknod("/work/sda", stat.S_IFBLK | 0o600, os.makedev(8, 0)))
tryit("mknod a tty", lambda: os.mknod("/work/tty", stat.S_IFCHR | 0o600, os.makedev(4, 1)))
tryit("/proc/sysrq-trigger", lambda: write("/proc/sysrq-trigger"))
tryit("/proc/sys hostname", lambda: write("/proc/sys/kernel/hostname"))
tryit("/sys", lambda: os.listdir("/sys/fs/cgroup"))
tryit("/dev/mem", lambda: read("/dev/mem"))
tryit("/dev/kmsg", lambda: read("/dev/kmsg"))
# The supervisor through /proc: only the sandbox's own pid namespace is
# there, and init (pid 1) is not dumpable.
tryit("init's environ", lambda: read("/proc/1/environ"))
tryit("init's memory", lambda: read("/proc/1/mem"))
tryit("init's fds", lambda: os.listdir("/proc/1/fd"))
tryit("init's maps", lambda: read("/proc/1/maps"))
print("pids:", " ".join(sorted(p for p in os.listdir("/proc") if p.isdigit())))
print("ppid:", os.getppid())
# setuid binaries must not raise privileges (nosuid mounts, no_new_privs)
import subprocess, time
for b in ("/usr/bin/su", "/usr/bin/passwd", "/usr/bin/newgrp", "/usr/bin/mount", "/usr/bin/chsh"):
    if not os.path.exists(b):
        continue
    p = subprocess.Popen([b], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    euid = None
    for _ in range(50):
        try:
            with open("/proc/%d/status" % p.pid) as f:
                for l in f:
                    if l.startswith("Uid:"):
                        e = int(l.split()[2])
                        euid = e if euid is None else max(euid, e)
        except OSError:
            break
        if p.poll() is not None:
            break
        time.sleep(0.005)
    p.kill()
    p.wait()
    print("setuid %s: %s (euid %s)" % (b, "ESCAPED" if euid == 0 else "contained", euid))
for l in open("/proc/self/status"):
    if l.split(":")[0] in ("Uid", "CapEff", "CapPrm", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp"):
        print(l.split(":")[0] + ":", l.split(":", 1)[1].strip())
EOF
run paths
check paths 'status == "ok" and not escaped' 'no path led out, nothing written outside /work'
check paths 'line("host secret").startswith("blocked") and line("via /proc/self/root").startswith("blocked")' 'the host dir is not there'
check paths 'line("hardlink python").startswith("blocked") and line("symlink to the host").startswith("blocked")' 'links do not lead out'
check paths 'line("pids") == "1 2" and line("ppid") == "1"' 'only the sandbox pid namespace is visible'
check paths 'line("CapEff") == "0000000000000000" and line("CapBnd") == "0000000000000000" and line("NoNewPrivs") == "1" and line("Seccomp") == "2"' 'no capabilities, no_new_privs, seccomp'
check paths 'line("Uid").split()[1] != "0" and "setuid /usr/bin/su: contained" in out' 'setuid binaries run unprivileged'
check paths 'viol("filesystem", "/etc/shadow") and viol("filesystem", "/home")' '/etc/shadow and /home recorded as filesystem'
check paths 'viol("filesystem", "/usr/lib/x")' 'the write to /usr/lib/x recorded as filesystem'
# a link's bytes are its own (its target's length), whatever the length
# of the host path it names (TMPDIR's)
link_bytes=$(printf '%s' "$W/secret" | wc -c)
check paths "all(f['bytes'] == {'link': $link_bytes, 'rootlink': len('/proc/1/root')}[f['path']] for f in r['files'] if f['path'] in ('link', 'rootlink'))" 'links are listed, never followed'
host_ok "the host secret is unchanged" grep -qx "secret-$TOKEN" "$W/secret"
# the host dir holds only the five programs this script wrote so far
host_ok "nothing new in the host dir" sh -c '[ $(ls -A "$W" | grep -c "$MARK") -eq 5 ]'

prog signals <<'EOF'
import ctypes, errno, os, signal
host = @HOSTPID@
for name, f in (("kill host pid", lambda: os.kill(host, signal.SIGKILL)),
                ("kill host group", lambda: os.killpg(host, signal.SIGKILL)),
                ("pidfd_open host", lambda: os.pidfd_open(host)),
                ("kill init", lambda: os.kill(1, signal.SIGKILL))):
    try:
        f()
        print("%s: sent" % name)
    except OSError as e:
        print("%s: blocked (%s)" % (name, errno.errorcode.get(e.errno)))
try:
    os.kill(-1, signal.SIGKILL)   # every process it may signal, save itself
except OSError:
    pass
print("after kill(-1): alive")
EOF
run signals
check signals 'status == "ok" and line("kill host pid").startswith("blocked")' 'the host pid does not exist inside'
check signals 'line("after kill(-1)") == "alive"' 'kill(-1) reached nothing outside'
host_ok "the host's sleep survived every signal" kill -0 "$HOSTPID"

# Terminal injection with a real terminal on the host: sandpit runs on a
# pty; whatever the program tries, no byte may appear in its input queue.
prog tty <<'EOF'
import fcntl, os, termios
for fd in range(0, 64):
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b"@MARK@\n"[:1])
        print("TIOCSTI on %d: ESCAPED" % fd)
    except OSError:
        pass
print("done")
EOF
CHECKS=$((CHECKS + 1))
if python3 - "$SP" "$W/${MARK}_tty.py" "$W/tty.json" <<'PYEOF'
import os, pty, subprocess, sys, termios, time
sp, prog, out = sys.argv[1:4]
master, slave = pty.openpty()
with open(out, "wb") as o:
    p = subprocess.Popen([sp, "run", "--json", prog], stdin=slave, stdout=o, stderr=slave,
                         start_new_session=True)
    p.wait()
time.sleep(0.1)
# what the terminal's reader would get: nothing may have been pushed in
attrs = termios.tcgetattr(slave)
attrs[3] &= ~termios.ICANON
termios.tcsetattr(slave, termios.TCSANOW, attrs)
os.set_blocking(slave, False)
try:
    got = os.read(slave, 4096)
except BlockingIOError:
    got = b""
sys.exit(1 if got else 0)
PYEOF
then
	echo "ok   tty: no byte was pushed into the host terminal's input"
else
	echo "FAIL tty: bytes appeared in the host terminal's input"
	FAILS=$((FAILS + 1))
fi
check tty 'status == "ok" and not escaped and "done" in lines' 'TIOCSTI found no terminal'

host_clean
finish
