#!/bin/sh
# SPDX-License-Identifier: MIT
# `sandpit view IMAGE`: a picture full screen with its name, pixel size and
# bytes (q closes, exit 0); a refused one says why on screen and on
# stderr (exit 1); a FIFO named like a picture is refused, not waited on.
. "$(dirname "$0")/lib.sh"
need_sandbox

# the pictures are made by a sandboxed run and kept, as a run's would be
cat > "$T/gen.py" <<'PY'
import struct, zlib
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
def png(w, h, idat):
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", idat) + chunk(b"IEND", b""))
rows = b"".join(b"\0" + b"".join(bytes([255 * (x < 32), 0, 255 * (x >= 32)]) for x in range(64))
                for y in range(32))
open("split.png", "wb").write(png(64, 32, zlib.compress(rows)))
open("huge.png", "wb").write(png(40000, 40000, zlib.compress(b"\0" * 64)))
PY
"$BIN" run --keep "$T/kept" "$T/gen.py" > /dev/null 2>&1 || fail "the generating run failed"
mkfifo "$T/kept/fifo.png"

view() {
	tm kill-server >/dev/null 2>&1
	SOCK=$SOCK-v
	new_terminal 100 30 "$QBIN view $(shq "$1") 2> $QT/err; echo EXIT=\$?; sleep 60"
}

view "$T/kept/split.png"
wait_for "split.png · 64x32 pixels · "
wait_for "Esc closes"
# red left, blue right: cells of those colours, a seam of half blocks
tm capture-pane -e -p -t t | grep -q '48;5;196m' || fail "no red in the picture"
tm capture-pane -e -p -t t | grep -q '48;5;21m\|38;5;21m' || fail "no blue in the picture"
[ "$(screen | grep -c '[▌▐▋▍▊▎▉▏]')" -gt 5 ] || fail "no seam between the halves"
keys q
wait_for "EXIT=0"

view "$T/kept/huge.png"
wait_for "not shown: image too large: 40000x40000 pixels (limit 8192x8192"
keys Escape
wait_for "EXIT=1"
grep -q "huge.png: not shown: image too large: 40000x40000" "$T/err" ||
	fail "stderr does not say why: $(cat "$T/err")"

view "$T/kept/fifo.png"
wait_for "not shown: not a regular file" 5
keys Escape
wait_for "EXIT=1"
echo "$NAME: ok"
