# title: Filesystem: host and system files are out of reach
# Constraint 2: the run sees a fresh, almost empty root. Host files such as
# /etc/shadow, other users' homes and your own files are not there.
import os

for path in ["/etc/shadow", "/etc/passwd", "/root", "/home",
             os.path.expanduser("~")]:
    try:
        if os.path.isdir(path):
            print(f"{path}: directory with {len(os.listdir(path))} entries")
        else:
            with open(path) as f:
                print(f"{path}: {len(f.read())} bytes readable")
    except Exception as e:
        print(f"{path}: {type(e).__name__}: {e}")

print("What the root holds:", sorted(os.listdir("/")))
print("The work dir (the only writable place):", os.getcwd())
