#!/bin/sh
# SPDX-License-Identifier: MIT
# Prepared sandboxes (issue 18): a program released into one sees nothing
# of its preparation (the release socket is closed before its first line,
# no descriptor of the supervisor's is left, the prelude's reads are
# gone), and cannot reach another prepared sandbox or the program
# released into it next to it (its text, carry-in and stdin hold a
# secret). `sandpit run` stays cold, so these go through a small driver
# over the library (prepared_run.c), built here against the build's
# libsandpit.a.
. "$(dirname "$0")/lib.sh"

B=$(dirname "$SP")
DRV=$W/prepared_run
# a sanitizer build's library needs its runtime linked in
SAN=
if nm "$B/libsandpit.a" 2>/dev/null | grep -q __asan_; then
	SAN="-fsanitize=address,undefined"
fi
# shellcheck disable=SC2046,SC2086
if ! TMPDIR=$W ${CC:-cc} $SAN -O2 -std=c11 -D_GNU_SOURCE -I "$(dirname "$0")/../../core" -o "$DRV" \
	"$(dirname "$0")/prepared_run.c" "$B/libsandpit.a" \
	$(pkg-config --libs libseccomp libcap libutf8proc jansson) -lm 2> "$W/cc.err"; then
	echo "the driver did not build (a C compiler and $B/libsandpit.a are needed):"
	sed 's/^/     /' "$W/cc.err"
	exit 77
fi

# prun NAME [PRELOAD] [VICTIM SECRET_FILE]: like run, through a prepared sandbox;
# the marker rides in the interpreter's argv as a module that is missing
prun() {
	name=$1
	pre=${2:-$MARK}
	if [ $# -ge 4 ]; then
		sh -c 'echo $$ >> "$0"; exec "$@"' "$W/pids" "$DRV" "$W/$name.json" \
			"$W/${MARK}_$name.py" "$pre" "$W/${MARK}_$3.py" "$W/$3.json" "$4" \
			2> "$W/$name.err" < /dev/null
	else
		sh -c 'echo $$ >> "$0"; exec "$@"' "$W/pids" "$DRV" "$W/$name.json" \
			"$W/${MARK}_$name.py" "$pre" 2> "$W/$name.err" < /dev/null
	fi
	RC=$?
}

prog relfd <<'EOF'
import os, sys, gc
fds = sorted(int(x) for x in os.listdir("/proc/self/fd"))
print("fds:", fds)
for fd in range(4, 256):
    try:
        os.fstat(fd)
    except OSError:
        continue
    if fd != fds[-1]:
        print("ESCAPED an open descriptor", fd, os.readlink("/proc/self/fd/%d" % fd))
# the socket the release came on, by number, by type
import socket
for fd in range(0, 64):
    try:
        s = socket.socket(fileno=os.dup(fd))
    except OSError:
        continue
    try:
        s.settimeout(0.2)
        data = s.recv(100)
        print("ESCAPED read from socket fd", fd, data[:40])
    except OSError:
        pass
    finally:
        s.close()
# what the prelude read: nothing of it is left but the program's own text
m = sys.modules["__main__"]
left = [k for k, v in vars(m).items() if isinstance(v, (bytes, bytearray, memoryview))
        and k != "_source"]
print("prelude bytes:", left)
print("stdin:", repr(sys.stdin.read()))
EOF
prun relfd
check relfd 'status == "ok"' 'the program ran'
check relfd 'line("fds") == "[0, 1, 2, 3, 4]"' 'only 0, 1, 2, the channel and the listing are open'
check relfd 'not escaped' 'no descriptor or socket of the preparation is left'
check relfd 'line("prelude bytes") == "[]"' 'the prelude keeps no buffer of the release'
check relfd 'line("stdin") == "'"''"'"' 'stdin is empty (EOF at once), as a cold run gives'
check relfd 'r["prepared"] is True' 'the result says prepared'

prog spy <<'EOF'
import os, time, socket
secret = os.environ.get("SECRET_NOT_HERE", "")
token = "@W@".split("/")[-1]  # not the secret: the host dir's name
seen = []
end = time.monotonic() + 2.0
while time.monotonic() < end:
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        for what in ("cmdline", "environ"):
            try:
                with open("/proc/%s/%s" % (pid, what), "rb") as f:
                    data = f.read()
            except OSError:
                continue
            if b"SECRET-" in data:
                seen.append("/proc/%s/%s" % (pid, what))
    for d in ("/tmp", "/work", "/dev/shm", "/sandpit"):
        try:
            for n in os.listdir(d):
                if n == os.path.basename(__file__):
                    continue  # the spy's own file, which names the secret's mark
                try:
                    with open(os.path.join(d, n), "rb") as f:
                        if b"SECRET-" in f.read(1 << 20):
                            seen.append(os.path.join(d, n))
                except OSError:
                    pass
        except OSError:
            pass
    # abstract unix sockets live in a network namespace: none of the other
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect("\0sandpit")
        seen.append("abstract socket")
    except OSError:
        pass
    time.sleep(0.05)
print("procs:", sorted(p for p in os.listdir("/proc") if p.isdigit()))
for s in seen[:5]:
    print("ESCAPED saw the other program's secret at", s)
# and one that stays, to read whatever comes next
if os.fork() == 0:
    os.setsid()
    time.sleep(60)
    os._exit(0)
print("spy: done")
EOF
prog victim <<'EOF'
import sys
text = "SECRET-" + "in-the-text"
print("victim:", len(sys.stdin.read()), secret[:7])
import time
time.sleep(1)
EOF
echo "SECRET-$TOKEN" > "$W/victim.secret"
prun spy "$MARK" victim "$W/victim.secret"
check spy 'status == "ok" and line("spy") == "done"' 'the spy ran beside a prepared victim'
check spy 'not escaped' 'it saw nothing of the program released next to it'
check spy 'line("procs") in ("[\x271\x27, \x272\x27]", "[\x271\x27, \x272\x27, \x273\x27]")' 'its /proc shows its own sandbox only'
check victim 'status == "ok" and line("victim") == "%d SECRET-" % len("SECRET-'"$TOKEN"'")' 'the victim got its stdin and carry-in'
check victim 'r["prepared"] is True' 'the victim ran prepared'

host_clean
finish
