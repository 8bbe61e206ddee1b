# title: Time: CPU limit stops long computations
# Constraint 4: a run gets a few seconds of CPU. A busy loop is stopped and
# the status says cpu_limit; the Resources pane shows the bar filling up.
# The workaround: compute on a representative sample, then scale up elsewhere.
# wall: 4x cpu (so a busy machine still ends it at the CPU limit)
import time

n, start = 0, time.time()
while True:
    n += 1
    if n % 5_000_000 == 0:
        print(f"{n:,} iterations after {time.time() - start:.1f} s", flush=True)
