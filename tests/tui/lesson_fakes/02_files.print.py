print("mean mark: 80.0")
open("report.txt", "w").write("5 pupils, mean mark 80.0\n")
