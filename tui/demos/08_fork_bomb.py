# title: Processes: a fork bomb is contained
# Processes and threads are bounded too. This tries to make processes
# without end; new ones are refused at the limit and all of them die
# with the run, so nothing is left behind on the host.
import os
import time

made = 0
try:
    for _ in range(100000):
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        made += 1
except OSError as e:
    print(f"fork refused after {made} children: {e}")
print("children made:", made)
