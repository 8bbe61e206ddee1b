# title: Big data: analyse a representative sample
# The sandbox is poor at big data: 50 million rows (about 1.5 GiB) do not
# fit in 512 MiB, and a few seconds of CPU would not get through them.
# The usual workaround: analyse a random sample inside the limits, say
# how sure the answer is, and scale up elsewhere. Bring your own sample
# in with F7 (attach a file) or `sandpit run --file sample.csv`.
import numpy as np
import pandas as pd
from scipy import stats

FULL_ROWS = 50_000_000
rng = np.random.default_rng(7)

# Stand-in for reading a sample of the full data (e.g. every 250th row,
# or rows picked at random): 200,000 orders with a region and an amount.
n = 200_000
sample = pd.DataFrame({
    "region": rng.choice(["north", "south", "east", "west"], n, p=[.4, .3, .2, .1]),
    "amount": rng.lognormal(mean=3.0, sigma=0.8, size=n).round(2),
})
print(f"sample: {len(sample):,} of {FULL_ROWS:,} rows "
      f"({sample.memory_usage(deep=True).sum() >> 20} MiB in memory)")

mean = sample["amount"].mean()
lo, hi = stats.t.interval(0.95, n - 1, loc=mean, scale=stats.sem(sample["amount"]))
print(f"mean order: {mean:.2f} (95% confidence: {lo:.2f} to {hi:.2f})")

by_region = sample.groupby("region")["amount"].agg(["count", "mean", "median"])
by_region["share"] = (by_region["count"] / n).round(3)
by_region["est_total_rows"] = (by_region["share"] * FULL_ROWS).astype(int)
print(by_region.round(2).to_string())

by_region.to_csv("by_region.csv")
carry(sample_mean=round(mean, 2), ci95=[round(lo, 2), round(hi, 2)])
print("by_region.csv is kept after the run (F8); F2 carries the estimate.")
