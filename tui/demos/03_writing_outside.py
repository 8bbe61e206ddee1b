# title: Filesystem: only the work dir is writable
# Constraint 2 again: writing anywhere but the work dir fails, and the
# work dir itself is small and deleted after the run.
import os

for path in ["/usr/lib/evil.py", "/etc/cron.d/job", "/tmp/../etc/x",
             "/proc/sys/kernel/hostname"]:
    try:
        with open(path, "w") as f:
            f.write("x")
        print(f"wrote {path}?! (it should not)")
    except Exception as e:
        print(f"{path}: {type(e).__name__}: {e}")

with open("results.txt", "w") as f:
    f.write("kept only until the run ends\n")
print("results.txt in the work dir: written, size",
      os.path.getsize("results.txt"))
print("It is listed under the output below, and then it is gone.")
