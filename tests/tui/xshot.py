# SPDX-License-Identifier: MIT
# xshot.py - how many pixels of an X screen are near a colour, from xwd's
# dump of the root window (read here: the XWD header, then the pixels of
# a TrueColor visual, by its masks).
#   xshot.py count DISPLAY RRGGBB TOL         prints the count
#   xshot.py wait DISPLAY RRGGBB TOL MIN SECS until the count is >= MIN
#                                             (exit 0) or SECS have passed
#   xshot.py gone DISPLAY RRGGBB TOL MAX SECS until it is <= MAX
# A colour matches when each channel is within TOL of it. Used by
# test_xterm_sixel.sh.
import struct, subprocess, sys, time


def shot(display):
    data = subprocess.run(["xwd", "-root", "-silent", "-display", display],
                          check=True, stdout=subprocess.PIPE).stdout
    f = struct.unpack(">25I", data[:100])
    header, version, fmt, depth, w, h = f[0], f[1], f[2], f[3], f[4], f[5]
    byte_order, bpp, bpl, vclass = f[7], f[11], f[12], f[13]
    masks, ncolors = f[14:17], f[19]
    if version != 7 or fmt != 2 or bpp != 32 or vclass not in (4, 5):
        sys.exit("xshot: an X screen of 32-bit TrueColor pixels is needed "
                 "(version %d format %d bpp %d class %d)" % (version, fmt, bpp, vclass))
    start = header + 12 * ncolors
    order = "<" if byte_order == 0 else ">"
    rows = [struct.unpack_from(order + "%dI" % w, data, start + y * bpl) for y in range(h)]
    shifts = [(m & -m).bit_length() - 1 for m in masks]
    return rows, masks, shifts


def count(display, rgb, tol):
    rows, masks, shifts = shot(display)
    want = [int(rgb[i:i + 2], 16) for i in (0, 2, 4)]
    seen = {}
    n = 0
    for row in rows:
        for p in row:
            hit = seen.get(p)
            if hit is None:
                hit = all(abs(((p & m) >> s) - c) <= tol
                          for m, s, c in zip(masks, shifts, want))
                seen[p] = hit
            n += hit
    return n


what, display, rgb, tol = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
if what == "count":
    print(count(display, rgb, tol))
    sys.exit(0)
bound, secs = int(sys.argv[5]), float(sys.argv[6])
end = time.time() + secs
while True:
    n = count(display, rgb, tol)
    if (n >= bound) if what == "wait" else (n <= bound):
        print(n)
        sys.exit(0)
    if time.time() >= end:
        print(n)
        sys.exit(1)
    time.sleep(0.2)
