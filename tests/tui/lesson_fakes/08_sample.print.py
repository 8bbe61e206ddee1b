print("mean distance: 0.5214")
