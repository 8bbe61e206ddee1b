from multiprocessing import Pool

def square(n):
    return n * n

N = globals().get("N", 1000)

if __name__ == "__main__":
    with Pool(2) as pool:
        total = sum(pool.map(square, range(N)))
    print(f"sum of squares: {total}")
