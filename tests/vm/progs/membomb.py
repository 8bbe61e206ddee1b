# 200 MiB written in 10 MiB pieces: a 64 MiB limit must stop it
held = []
for i in range(20):
    held.append(b"z" * (10 << 20))
print("held", len(held) * 10, "MiB")
