# fig.savefig
open("chart.png", "wb").write(b"\x89PNG\r\n\x1a\n" + bytes(64))
open("summary.csv", "w").write("month,rain_mm\n")
print("saved chart and summary")
