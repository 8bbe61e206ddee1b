# Data queued on socketpairs nobody reads: kernel memory no process maps.
# The memory cgroup counts it; without one, sandpit must refuse it.
import os, socket, time
def fill():
    pairs, total = [], 0
    try:
        while True:
            a, b = socket.socketpair()
            a.setblocking(False)
            pairs.append((a, b))
            try:
                while True:
                    total += a.send(b"z" * 65536)
            except BlockingIOError:
                pass
    except OSError:
        pass
    return pairs, total
for i in range(15):
    if os.fork() == 0:
        held = fill()
        time.sleep(20)
        os._exit(0)
held = fill()
print("held MiB:", held[1] >> 20, flush=True)
time.sleep(20)
