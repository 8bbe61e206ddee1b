print("mean: 499.5")
