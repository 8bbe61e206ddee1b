# title: Memory: large allocations fail
# Constraint 5: memory is capped. Growing a list of 10 MiB blocks soon
# fails with MemoryError (or the run is stopped at the limit). Watch the
# memory gauge. The workaround: stream the data, or work on a sample.
blocks = []
try:
    while True:
        blocks.append(bytearray(10 * 1024 * 1024))
        print(f"holding {len(blocks) * 10} MiB", flush=True)
except MemoryError:
    held = len(blocks) * 10
    blocks.clear()
    print(f"MemoryError after {held} MiB - the limit held")
