# title: Network: no HTTP, no DNS, no sockets
# Constraint 1: a run has no network. Every way out is closed: names do not
# resolve, sockets cannot be made, and there is no interface but a dead
# loopback. Press F5 and watch the Violations pane.
import socket
import urllib.request

print("1. Fetching a web page ...")
try:
    urllib.request.urlopen("http://example.com/", timeout=3)
    print("   it worked?! (it should not)")
except Exception as e:
    print("   failed:", type(e).__name__, e)

print("2. Looking up a name ...")
try:
    print("   ", socket.gethostbyname("example.com"))
except Exception as e:
    print("   failed:", type(e).__name__, e)

print("3. Opening a TCP socket to a fixed address ...")
try:
    s = socket.create_connection(("93.184.216.34", 443), timeout=3)
    print("   connected?! (it should not)")
except Exception as e:
    print("   failed:", type(e).__name__, e)

# The workaround: bring the data to the program instead of fetching it.
# Paste it into the program, or put it into the Carry pane as JSON.
prices = {"apples": 1.20, "pears": 0.95}   # data pasted in, not fetched
print("Data pasted into the program works fine:", prices)
