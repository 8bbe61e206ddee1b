carry(batch=3, total=60)
