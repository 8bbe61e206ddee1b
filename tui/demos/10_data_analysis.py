# title: Good at: data analysis with the standard library
# What the sandbox is for: precise maths and statistics on moderate data.
# The data travels with the program (or in the Carry pane), not over the net.
import csv
import io
import statistics

DATA = """city,month,rain_mm
Lisbon,Jan,99
Lisbon,Apr,63
Lisbon,Jul,4
Lisbon,Oct,84
Oslo,Jan,55
Oslo,Apr,41
Oslo,Jul,81
Oslo,Oct,87
Bergen,Jan,255
Bergen,Apr,114
Bergen,Jul,141
Bergen,Oct,267
"""

rows = list(csv.DictReader(io.StringIO(DATA)))
cities = sorted({r["city"] for r in rows})
print(f"{'city':<8} {'mean':>7} {'median':>7} {'stdev':>7}")
for c in cities:
    v = [int(r["rain_mm"]) for r in rows if r["city"] == c]
    print(f"{c:<8} {statistics.mean(v):7.1f} {statistics.median(v):7.1f} "
          f"{statistics.stdev(v):7.1f}")

rain = [int(r["rain_mm"]) for r in rows]
print("correlation of month index and rain:",
      round(statistics.correlation(list(range(len(rain))), rain), 3))
carry(mean_rain={c: statistics.mean(int(r["rain_mm"]) for r in rows
                                    if r["city"] == c) for c in cities})
print("Press F2 to keep the means in the carry buffer.")
