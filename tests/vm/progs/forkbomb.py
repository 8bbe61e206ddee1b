# forks until refused; the children wait, so they all count at once
import os, time
n = 0
while n < 100:
    try:
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        n += 1
    except OSError:
        break
print("forked", n)
