#!/bin/sh
# SPDX-License-Identifier: MIT
# What a hostile program makes sandpit say (issue 15): its bytes come back
# byte for byte, carry() of what JSON cannot carry fails whole in the
# program, made-up records without a line never become records, a link to
# anywhere is no violation, a signal is 128 + N, and host files that are
# not regular files (a FIFO, /dev/zero) are refused at once.
. "$(dirname "$0")/lib.sh"

prog bytes <<'EOF'
import os, random
d = bytes(range(256)) + random.Random(15).randbytes(20000)
os.write(1, d)
os.write(2, d[::-1])
for b in (0x80, 0xc3, 0xff):
    open(b"n" + bytes([b]), "w").close()
EOF
run bytes
check bytes 'out.encode("utf-8", "surrogateescape")[:256] == bytes(range(256))' 'every byte value comes back'
check bytes 'len(out.encode("utf-8", "surrogateescape")) == 20256 and err.encode("utf-8", "surrogateescape")[-256:] == bytes(range(255, -1, -1))' 'and the random bytes, both streams'
check bytes '__import__("base64").b64decode(r["stdout_base64"]) == out.encode("utf-8", "surrogateescape")' 'stdout_base64 is the same bytes'
check bytes 'sorted(f["path"].encode("utf-8", "surrogateescape") for f in r["files"]) == [b"n\x80", b"n\xc3", b"n\xff"]' 'file names too'

prog uncarryable <<'EOF'
import math
for bad in (dict(big=2**64), dict(nan=math.nan), dict(inf=math.inf), dict(s="\udc80"),
            dict(deep=eval("[" * 65 + "]" * 65)), dict(huge="x" * (2 << 20))):
    bad["friend"] = 1
    try:
        carry(**bad)
        print("accepted:", list(bad))
    except ValueError as e:
        print("refused:", str(e)[:60])
EOF
run uncarryable
check uncarryable 'len([l for l in lines if l.startswith("refused: carry(): ")]) == 6' 'each uncarryable value is an error in the program'
check uncarryable 'r["carry_out"] is None and not viol("carry")' 'nothing was carried or sent'

prog lineless <<'EOF'
import os
for extra in (b"", b', "line": null', b', "line": 0', b', "line": -1', b', "line": 1099511627776'):
    os.write(3, b'{"t": "ev", "k": "network", "what": "made up"%s}\n' % extra)
EOF
run lineless
check lineless 'all(v.get("line") for v in V if v.get("source") == "runtime")' 'no runtime record without a line'
check lineless 'not viol("network", "made up") and viol("carry", "without a program line")' 'they were dropped, with a note'

prog links <<'EOF'
import os
os.symlink("/usr/bin/sleep", "x")
os.symlink("/etc/shadow", "y")
print("links:", os.readlink("x"), os.readlink("y"))
EOF
run links
check links 'line("links") == "/usr/bin/sleep /etc/shadow" and not V' 'a link to anywhere is no violation'

prog killed <<'EOF'
import os
os.kill(os.getpid(), 9)
EOF
run killed
check_rc killed 137

prog hello <<'EOF'
print("ran")
EOF
mkfifo "$W/fifo"
for f in "$W/fifo" /dev/zero; do
	for opt in --carry --stdin; do
		name=notfile_$(basename "$f")$opt
		timeout 10 "$SP" run "$opt" "$f" "$W/${MARK}_hello.py" > "$W/$name.out" 2> "$W/$name.err" < /dev/null
		RC=$?
		check_rc "$name" 2
		host_ok "$opt $f is refused as not a regular file" grep -q "regular file" "$W/$name.err"
	done
done

host_clean
finish
