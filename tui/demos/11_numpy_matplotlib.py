# title: Charts: numpy and matplotlib (when the host has them)
# Makes a chart into the work dir. The file is listed under the output and
# then deleted with the work dir: print what you need, or carry() it.
try:
    import numpy as np
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as e:
    print("numpy/matplotlib are not installed on this host:", e)
    print("Install python3-numpy and python3-matplotlib to try this demo.")
else:
    x = np.linspace(0, 4 * np.pi, 200)
    y = np.sin(x) * np.exp(-x / 8)
    print("max", y.max().round(3), "min", y.min().round(3))
    plt.plot(x, y)
    plt.title("damped sine")
    plt.savefig("chart.png")
    print("chart.png written to the work dir")
