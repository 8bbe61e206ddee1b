# title: Stateless runs: state is lost, the carry buffer keeps it
# Constraint 3: every run starts from nothing. A file written last time is
# gone, and so are variables. The carry buffer is the way to keep results:
#   1. Run this (F5) - it counts from 0.
#   2. Press F2 to carry the results forward into the Carry pane.
#   3. Run again - the count goes on, but the file is still gone.
import os

print("counter.txt from the last run exists:", os.path.exists("counter.txt"))
with open("counter.txt", "w") as f:
    f.write("this file will not survive the run\n")

# Names in the carry buffer arrive as globals before the first line.
runs = globals().get("runs", 0) + 1
history = globals().get("history", []) + [runs * runs]
print("run number", runs, "- squares so far:", history)

# carry() sends values back; F2 puts them into the buffer for next time.
carry(runs=runs, history=history)
