# SPDX-License-Identifier: MIT
# pixels_pty.py - the playground on a pty of 120x40 cells (1200x800
# pixels), SANDPIT_GRAPHICS set to the mode asked ("nocolor": kitty asked,
# NO_COLOR set): waits for it to be ready, presses F5, waits for the run,
# and says which pixel protocols it wrote after the key ("kitty", "sixel")
# and how many bytes. Used by test_pixels.sh.
import os, pty, sys, time, re, select, struct, fcntl, termios
bin_, prog, mode = sys.argv[1], sys.argv[2], sys.argv[3]
env = dict(os.environ, TERM="xterm-256color")
if mode == "nocolor":
    env["SANDPIT_GRAPHICS"] = "kitty"; env["NO_COLOR"] = "1"
else:
    env["SANDPIT_GRAPHICS"] = mode
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 1200, 800))
    os.execve(bin_, [bin_, prog], env)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 1200, 800))
out = b""
def read_for(secs, until=None):
    global out
    end = time.time() + secs
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return False
            if not data:
                return False
            out += data
            if until and re.search(until, out):
                return True
    return False
if not read_for(15, rb"ready"):
    print("never ready"); sys.exit(1)
mark = len(out)
os.write(fd, b"\x1b[15~")
read_for(40, rb"run 1: ok")
read_for(2)
after = out[mark:]
kitty = re.search(rb"\x1b_Ga=T", after) is not None
sixel = re.search(rb"\x1bP[0-9;]*q\"", after) is not None
os.write(fd, b"\x11")
read_for(5)
try:
    os.kill(pid, 9)
except OSError:
    pass
print("kitty" if kitty else "", "sixel" if sixel else "", "bytes", len(after))
