# title: Charts: matplotlib, drawn under the run
# Tutorial code runs unchanged: in a run, plt.show() saves each open
# figure as figure-1.png, figure-2.png ... in the work dir. The work dir
# is still deleted after the run; sandpit keeps a copy of the files it
# left (F8 opens them; `sandpit run --keep DIR` headless).
import numpy as np
import matplotlib.pyplot as plt

x = np.linspace(0, 4 * np.pi, 200)
y = np.sin(x) * np.exp(-x / 8)
print("max", y.max().round(3), "min", y.min().round(3))

fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(x, y, label="sin(x) e^(-x/8)")
ax.fill_between(x, y, alpha=0.2)
ax.set_title("A damped sine")
ax.set_xlabel("x")
ax.legend()
plt.show()
print("plt.show() saved figure-1.png")
