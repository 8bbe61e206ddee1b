# SPDX-License-Identifier: MIT
# pixels_pty.py - sandpit on a pty of 120x40 cells (1200x800 pixels),
# SANDPIT_GRAPHICS set to the mode asked ("nocolor": kitty asked, NO_COLOR
# set; "ask-kitty", "ask-sixel", "ask-none": none set, graphics auto, and
# the pty answers sandpit's question as such a terminal would), driven
# through one of these scripts, each a list of steps:
#   run PROG    the playground: F5, until the run ends
#   views PROG  ... then Enter in Output (the newest picture large), n (the
#               next one), Esc (closed); F8, Enter (the first kept file, a
#               picture), s (a dialog over it), Esc, Esc (steps f8,
#               f8-open, f8-save, f8-save-esc, f8-close)
#   history PROG ... then F3 (step menu) and h: the assistant's runs view
#               over the panes (step history), q closes it (step back)
#   view FILE   `sandpit view FILE`, the terminal made 100x30 (step
#               resize), then q
# After each step it prints one line: the step's name, then what the bytes
# written since the key hold: "inline" (a kitty image without an id, as
# Output's), "view" (the large view's kitty image, its id), "view-del"
# (that id deleted), "del-all" (every kitty placement deleted), "sixel"
# (a sixel DCS string, ESC P ... q ... ESC \), "repaint" (the screen
# cleared and drawn again), "sixel-after" (a sixel after the last
# repaint), and "bytes N". Used by test_pixels.sh.
import os, pty, sys, time, re, select, struct, fcntl, termios

VIEW_ID = b"21328"  # IMAGE_VIEW_KITTY_ID, 0x5350
bin_, script, arg, mode = sys.argv[1:5]
env = dict(os.environ, TERM="xterm-256color")
env.pop("NO_COLOR", None)
env.pop("SANDPIT_GRAPHICS", None)
env.pop("TMUX", None); env.pop("STY", None)  # auto gives symbols inside one
# ask-*: graphics = auto, and this terminal answers sandpit's question
# (a kitty graphics query, then DA1) as such a terminal would
ANSWERS = {"ask-kitty": b"\x1b_Gi=31;OK\x1b\\\x1b[?62;22c",
           "ask-sixel": b"\x1b[?63;1;2;4;6;9;15;22c",
           "ask-none": b"\x1b[?62;1;6;22c"}
if mode == "nocolor":
    env["SANDPIT_GRAPHICS"] = "kitty"; env["NO_COLOR"] = "1"
elif mode not in ANSWERS:
    env["SANDPIT_GRAPHICS"] = mode
argv = [bin_, "view", arg] if script == "view" else [bin_, arg]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 1200, 800))
    os.execve(bin_, argv, env)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 1200, 800))
out = b""
dead = False
proto = {"ask-kitty": "kitty", "ask-sixel": "sixel"}.get(mode, mode)

def read_for(secs, until=None, quiet=None):
    """Reads until the pattern has come (then, with quiet, until nothing
    has come for that long), or secs have passed."""
    global out, dead
    end = time.time() + secs
    found = until is None
    last = time.time()
    start = len(out)
    while time.time() < end and not dead:
        if found and quiet is not None and time.time() - last >= quiet:
            return True
        r, _, _ = select.select([fd], [], [], 0.05)
        if not r:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if not data:
            dead = True
            break
        out += data
        last = time.time()
        # only the new bytes and a little before them: a screenful of
        # pixels is megabytes
        if not found and re.search(until, out[max(start, len(out) - len(data) - 256):]):
            found = True
            if quiet is None:
                return True
    return found

# Where pixels are drawn, a step ends with what it must write: a put (its
# string, then DECRC) or the view's going (kitty's delete, sixel's
# repaint); elsewhere with a pattern of the screen or 1 s of quiet.
PUT = rb"\x1b\\\x1b8"
GONE = rb"\x1b_Ga=d,d=I,i=" + VIEW_ID if proto == "kitty" else rb"\x1b\[2J"
pixels = proto in ("kitty", "sixel")

if mode in ANSWERS:
    if not read_for(10, rb"\x1b_G[^\x1b]*a=q[^\x1b]*\x1b\\\x1b\[c"):
        print("never asked"); sys.exit(1)
    os.write(fd, ANSWERS[mode])

def step(name, key, until, secs=20):
    mark = len(out)
    if key:
        os.write(fd, key)
    # what comes after the awaited bytes is the frame's rest: a short
    # quiet; with nothing to await, a longer one
    ok = read_for(secs, until, quiet=0.3 if until else 1.0)
    b = out[mark:]
    said = [name] if ok else [name, "timeout"]
    if re.search(rb"\x1b_G(?![^\x1b]*i=" + VIEW_ID + rb")[^\x1b]*a=T", b):
        said.append("inline")
    if re.search(rb"\x1b_Gi=" + VIEW_ID + rb",q=2,[^\x1b]*a=T", b):
        said.append("view")
    if re.search(rb"\x1b_Ga=d,d=I,i=" + VIEW_ID + rb",q=2\x1b\\", b):
        said.append("view-del")
    if b"\x1b_Ga=d,d=a\x1b\\" in b:
        said.append("del-all")
    if re.search(rb"\x1bP[0-9;]*q\"[0-9;]+[#!-~]*?\x1b\\", b, re.S):
        said.append("sixel")
    if b"\x1b[2J" in b:
        said.append("repaint")
        # a sixel put after the last repaint survives it
        if re.search(rb"\x1b\[2J(?:(?!\x1b\[2J).)*\x1bP[0-9;]*q", b, re.S):
            said.append("sixel-after")
    said.append("bytes %d" % len(b))
    print(" ".join(said), flush=True)

def resize(rows, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, cols * 10, rows * 20))
    return None  # the kernel tells the program (SIGWINCH)

if script == "view":
    step("open", None, PUT if pixels else rb"Esc closes")
    # a new size: the picture is put again, fitted to it
    resize(30, 100)
    step("resize", None, PUT if pixels else None)
    step("close", b"q", GONE if pixels else None)
else:
    if not read_for(15, rb"ready"):
        print("never ready"); sys.exit(1)
    step("run", b"\x1b[15~", rb"run 1: ok", 60)
    if script == "views":
        os.write(fd, b"\x1b[17~")  # F6: the focus to Output
        read_for(3, rb"Output", quiet=0.3)
        step("open", b"\r", PUT if pixels else rb"of 2: n/p the others")
        # (curses writes only the cells that change: no title to wait for)
        step("next", b"n", PUT if pixels else None)
        step("close", b"\x1b", PUT if pixels else None)  # Output's come back
        step("f8", b"\x1b[19~", rb"figure", 10)
        step("f8-open", b"\r", PUT if pixels else rb"Esc closes")
        # s asks where to save: a dialog over the view takes it away
        step("f8-save", b"s", GONE if pixels else rb"Save a copy")
        step("f8-save-esc", b"\x1b", PUT if pixels else None)
        step("f8-close", b"\x1b", GONE if pixels else None)
    if script == "history":
        step("menu", b"\x1bOR", rb"assistant's runs", 10)
        step("history", b"h", rb"Assistant's runs", 10)
        step("back", b"q", PUT if pixels else None)
    os.write(fd, b"\x11")
    read_for(5)
try:
    os.kill(pid, 9)
except OSError:
    pass
