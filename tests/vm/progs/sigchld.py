# A child reaped by the kernel (SIGCHLD ignored) takes its CPU time with
# it: only a CPU cgroup still counts it, so without one sandpit refuses.
import os, signal, time
try:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
except OSError:
    print("refused")
    raise SystemExit(0)
if os.fork() == 0:
    end = time.process_time() + 0.5
    while time.process_time() < end:
        pass
    os._exit(0)
time.sleep(3)
print("ignored")
