# title: Time: wall-clock limit stops waiting
# Constraint 4 again: sleeping or waiting uses no CPU but still costs wall
# time. The run is stopped at the wall limit (status wall_limit).
import time

for i in range(1000):
    print("still waiting,", i, "s", flush=True)
    time.sleep(1)
