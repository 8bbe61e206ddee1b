# title: Memory: large allocations fail (a NumPy array, a DataFrame)
# Constraint 5: memory is capped (512 MiB by default). A NumPy array or a
# pandas DataFrame bigger than that fails with MemoryError (or the run is
# stopped at the limit). Watch the memory gauge. The workaround: stream
# the data in pieces, or work on a representative sample (demo 12).
import numpy as np
import pandas as pd

try:
    a = np.ones((100_000, 1_000))          # 100,000 x 1,000 floats: 763 MiB
    print("allocated", a.nbytes >> 20, "MiB")
except MemoryError as e:
    print("NumPy:", e)

try:
    df = pd.DataFrame(np.ones((10_000_000, 8)), columns=list("abcdefgh"))
    print("DataFrame of", len(df), "rows")  # 10 million rows x 8: 610 MiB
except MemoryError as e:
    print("pandas:", e)

small = np.ones((10_000, 1_000))           # 76 MiB fits
print(f"a 10,000 x 1,000 array ({small.nbytes >> 20} MiB) fits: sum = {small.sum():.0f}")
print("The limit held. Work on a sample of the data instead: demo 12.")
