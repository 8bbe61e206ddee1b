batch = globals().get("batch", 0)
carry(batch=batch + 1, total=60)
