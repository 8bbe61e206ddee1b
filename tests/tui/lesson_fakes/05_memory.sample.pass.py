# A fair sample: a million readings picked at random, not all of them.
import numpy as np

N = 50_000_000
M = globals().get("M", 1000)
rng = np.random.default_rng(1)
idx = rng.integers(0, N, 1_000_000)
print(f"mean: {(idx % M).mean():.1f}")
