print("sum of squares: 332833500")
