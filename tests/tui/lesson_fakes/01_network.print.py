print("total: 6.45")
