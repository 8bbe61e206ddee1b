#!/bin/sh
# SPDX-License-Identifier: MIT
# Crafted pictures left by a run neither crash nor stall the playground:
# huge dimensions in IHDR, a truncated file, a decompression bomb (a small
# zlib stream claiming 8192x8192), text chunks that inflate to 64 MiB
# each, a JPEG whose frame header claims 40000x40000. Each refusal says
# why under the run; the valid picture beside them is drawn; the
# playground answers keys and runs again at once.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/crafted.py" <<'PY'
import struct, zlib
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
def png(w, h, idat, extra=b""):
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra +
            chunk(b"IDAT", idat) + chunk(b"IEND", b""))
rows = b"".join(b"\0" + bytes([x * 8 % 256, 0, 255 - x * 8 % 256, 255]) * 32 for x in range(32))
good = png(32, 32, zlib.compress(rows, 9))
open("a_huge.png", "wb").write(png(40000, 40000, zlib.compress(b"\0" * 64)))
open("b_cut.png", "wb").write(good[: len(good) // 2])
open("c_bomb.png", "wb").write(png(8192, 8192, zlib.compress(b"\0" * (8192 * 4 + 1) * 64, 9)))
ztxt = chunk(b"zTXt", b"Comment\0\0" + zlib.compress(b"\0" * (64 << 20), 9))
open("d_text_bombs.png", "wb").write(png(32, 32, zlib.compress(rows, 9), ztxt * 40))
try:
    from PIL import Image
    Image.new("RGB", (16, 16), (200, 30, 30)).save("e.jpg", quality=90)
    j = bytearray(open("e.jpg", "rb").read())
    i = j.index(b"\xff\xc0")
    j[i + 5:i + 9] = b"\x9c\x40\x9c\x40"
    open("e.jpg", "wb").write(bytes(j))
except ImportError:
    pass
print("crafted written")
PY

# a tall terminal, so that the whole run fits in the Output pane
new_terminal 120 100 "$QBIN $QT/crafted.py"
ready
keys F5
wait_status "ok" 60
wait_for "crafted written"
wait_for "a_huge.png: picture not shown: image too large: 40000x40000" 10
wait_for "b_cut.png: picture not shown:" 10
screen | grep -A1 "b_cut.png: picture not shown" | grep -q "truncated" ||
	screen | grep -q "b_cut.png: picture not shown: damaged" || fail "the cut file's reason is not given"
wait_for "c_bomb.png: picture not shown: image too large: 8192x8192" 10
wait_for "d_text_bombs.png (Enter in Output" 10
if [ -n "$(screen | grep 'e.jpg')" ]; then
	screen | grep -q "e.jpg: picture not shown: image too large: 40000x40000" ||
		fail "the JPEG's claimed size is not refused"
fi
# drawn: the valid one's rows hold block symbols
n=$(screen | grep -n 'd_text_bombs.png (Enter in Output' | cut -d: -f1)
screen | sed -n "$((n + 1)),$((n + 10))p" | grep -q '[▀▁▂▃▄▅▆▇█▌▐▖▗▘▝▞▚]' ||
	fail "the valid picture is not drawn"
# and its rows hold nothing but block symbols and spaces, the pane's
# borders where they belong
screen | sed -n "$((n + 1)),$((n + 10))p" | awk -F'│' '{ print $2 }' | grep -v '^[ ▀▁▂▃▄▅▆▇█▉▊▋▌▍▎▏▐░▒▓▔▕▖▗▘▙▚▛▜▝▞▟]*$' &&
	fail "the picture's rows hold other characters"
[ "$(screen | sed -n "$((n + 1)),$((n + 10))p" | grep -c '│.*││')" = 10 ] ||
	fail "the picture's rows push the pane's border out of place"

# still answering: help opens and closes, and a second run goes through
keys F1
wait_for "THE FIVE CONSTRAINTS"
keys Escape
wait_gone "THE FIVE CONSTRAINTS"
keys F5
wait_status "run 2" 30
wait_status "ok" 60
[ "$(pane_dead)" = 0 ] || fail "the playground died"
keys C-q
wait_exit

# many pictures of the largest size allowed: one is decoded, the rest are
# refused from their headers (a run's pictures decode 16 Mpixels in all),
# so the screen is held up by one decode, not eight
cat > "$T/big.py" <<'PY'
import struct, zlib
def chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
idat = zlib.compress((b"\0" + b"\xff" * 4 * 4096) * 4096, 9)
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4096, 4096, 8, 6, 0, 0, 0)) +
       chunk(b"IDAT", idat) + chunk(b"IEND", b""))
for i in range(8):
    open("big%d.png" % i, "wb").write(png)
print("big written")
PY
tm kill-server >/dev/null 2>&1
SOCK=$SOCK-big
new_terminal 120 100 "$QBIN $QT/big.py"
ready
keys F5
wait_status "ok" 60
wait_for "big0.png (Enter in Output" 10
[ "$(screen | grep -c 'picture not shown: 4096x4096 pixels, more than this')" = 7 ] ||
	fail "the pictures past the run's budget are not refused as such"
keys C-q
wait_exit
echo "$NAME: ok"
