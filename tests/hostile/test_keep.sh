#!/bin/sh
# SPDX-License-Identifier: MIT
# Files out are hostile input: a program leaves a symlink to /etc/shadow
# and to a host secret, a hard link, a FIFO, a socket, a 1 GiB sparse
# file, names with a newline and with invalid UTF-8, as many small files
# as it can (100,000 tried), a tree deeper than PATH_MAX. `--keep` must
# copy only regular files, never a host file's content, never make a
# link on the host, keep odd names exact, stay bounded in time and size,
# and say what it skipped and why.
. "$(dirname "$0")/lib.sh"

prog leave <<'EOF'
import os, socket
os.symlink("/etc/shadow", "shadow")
os.symlink("@W@/secret", "secret")
os.symlink("/", "root")
open("real.txt", "w").write("mine\n")
os.link("real.txt", "hard.txt")
os.mkfifo("fifo")
s = socket.socket(socket.AF_UNIX); s.bind("sock")
with open("sparse.bin", "wb") as f:
    f.truncate(1 << 30)
open(b"new\nline.txt", "w").write("nl\n")
open(b"bad\xff\xfe.txt", "w").write("bad\n")
print("made: yes")
EOF
K1=$W/keep1
t0=$(date +%s%N)
run leave --disk 1100M --keep "$K1"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check_rc leave 0
check leave 'status == "ok" and line("made") == "yes"' 'the program made everything'
check leave 'all(f["kept"] is None and f["skipped"] == "symlink" for f in r["files"] if f["path"] in ("shadow", "secret", "root"))' 'the symlinks are skipped as symlinks'
check leave '[f.get("skipped") for f in r["files"] if f["path"] in ("fifo", "sock")] == ["fifo", "socket"]' 'the FIFO and the socket are skipped as what they are'
check leave 'all(f["kept"] for f in r["files"] if f["path"] in ("real.txt", "hard.txt", "sparse.bin", "new\nline.txt"))' 'the regular files are kept'
check leave 'any(f["path"] == "bad\udcff\udcfe.txt" and f["kept"] for f in r["files"]) or any(f["path"].startswith("bad") and f["kept"] for f in r["files"])' 'the name with invalid UTF-8 is kept'
host_ok "--keep took under 10 s with a 1 GiB sparse file ($ms ms)" [ "$ms" -lt 10000 ]
host_ok "no link of any kind was made on the host" [ -z "$(find "$K1" -type l -o -type p -o -type s | head -1)" ]
host_ok "no host file's content came out (the secret, /etc/shadow)" sh -c "! grep -rqa -e '$TOKEN' -e 'root:' '$K1'"
host_ok "the hard link is a copy of its own, not a link" [ "$(stat -c %h "$K1/hard.txt")" = 1 ]
host_ok "the hard link's content is the program's" [ "$(cat "$K1/hard.txt")" = mine ]
host_ok "the sparse file stays sparse on the host (under 1 MiB used)" [ "$(du -k "$K1/sparse.bin" | cut -f1)" -lt 1024 ]
host_ok "the sparse file keeps its size" [ "$(stat -c %s "$K1/sparse.bin")" = 1073741824 ]
host_ok "odd names come back exact (newline, invalid UTF-8)" python3 -c "
import os, sys
names = set(os.listdir(os.fsencode(sys.argv[1])))
sys.exit(0 if {b'new\nline.txt', b'bad\xff\xfe.txt'} <= names else 1)" "$K1"
host_ok "no kept file is set-uid or executable" [ -z "$(find "$K1" -type f -perm /7111 | head -1)" ]

# Two files past the bound together (sparse, so both fit the work dir;
# each counts its full size): the first met is kept, the other named.
prog bound <<'EOF'
for n in ("a.bin", "b.bin"):
    with open(n, "wb") as f:
        f.write(b"x" * 4096)
        f.truncate(700 * 1024)
print("made: yes")
EOF
K2=$W/keep2
run bound --disk 1M --keep "$K2"
check bound 'line("made") == "yes"' 'the program made both files'
check bound 'sorted(f["kept"] is not None for f in r["files"]) == [False, True]' 'one is kept, the other is not'
check bound '[f.get("skipped") for f in r["files"] if not f["kept"]] == ["over the bound"]' 'the other says it was over the bound'
host_ok "the keep dir holds at most the disk limit" [ "$(du -sk "$K2" | cut -f1)" -le 1100 ]

# As many small files as the program can make, and a tree deeper than
# PATH_MAX (20 levels of 250-byte names).
prog many <<'EOF'
import os
made = 0
try:
    for i in range(100000):
        with open("f%06d" % i, "w") as f:
            f.write("x")
        made += 1
except OSError:
    pass
print("files:", made)
for n in [n for n in os.listdir(".") if n.startswith("f")][:2000]:
    os.unlink(n)
d = os.open(".", os.O_RDONLY)
depth = 0
try:
    for i in range(20):
        name = ("d%02d" % i) + "y" * 247
        os.mkdir(name, dir_fd=d)
        nd = os.open(name, os.O_RDONLY, dir_fd=d)
        os.close(d)
        d = nd
        with open(os.open("leaf.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=d), "w") as f:
            f.write("deep %d" % i)
        depth += 1
except OSError as e:
    print("stopped:", e)
print("depth:", depth)
EOF
K3=$W/keep3
t0=$(date +%s%N)
run many --keep "$K3" --wall 30 --cpu 20
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check many 'int(line("files")) > 1000 and int(line("depth")) == 20' 'the program made many files and a deep tree'
check many 'len(r["files"]) <= 1000' 'the listing is bounded (at most 1,000 entries)'
check many 'all(len(f["path"].encode("utf-8", "surrogateescape")) < 4400 for f in r["files"])' 'no listed path is longer than the walk can reach'
host_ok "at most 1,000 files were kept" [ "$(find "$K3" -type f | wc -l)" -le 1000 ]
host_ok "the kept tree is at most 17 levels deep" [ -z "$(cd "$K3" && find . -mindepth 18 | head -1)" ]
host_ok "--keep of the many files took under 20 s ($ms ms)" [ "$ms" -lt 20000 ]

host_clean
finish
