# title: Output: a flood of output is cut at the limit
# Output is bounded (see the output gauge). The playground stays
# responsive while this floods; the run is stopped at the output limit.
i = 0
while True:
    print(f"line {i}: " + "spam " * 20)
    i += 1
