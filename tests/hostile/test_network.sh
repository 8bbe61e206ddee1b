#!/bin/sh
# SPDX-License-Identifier: MIT
# Network of every kind: TCP and UDP to listeners on the host's loopback,
# raw and packet sockets, netlink, IPv6, DNS, urllib, and unix sockets
# (a path one and an abstract one) that the host listens on. Nothing may
# arrive at any listener, and each attempt on a non-unix family must be a
# kernel-observed network violation.
. "$(dirname "$0")/lib.sh"

# The host's listeners: they log every connection or datagram to $W/hits.
# The unix socket's path must fit sun_path (108 bytes), which $W under a
# long TMPDIR does not: it gets a short directory of its own.
SOCKDIR=$(mktemp -d /tmp/sp-sock.XXXXXX) || exit 2
chmod 755 "$SOCKDIR"
OWN_TMP=$SOCKDIR   # the test's own, not a run's (lib.sh's host check)
trap 'rm -rf "$SOCKDIR"; cleanup' EXIT
export SOCKDIR
cat > "$W/listen.py" <<'PYEOF'
import os, select, socket, sys
w, mark = os.environ["W"], os.environ["MARK"]
tcp = socket.socket(); tcp.bind(("127.0.0.1", 0)); tcp.listen(8)
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); udp.bind(("127.0.0.1", 0))
path = socket.socket(socket.AF_UNIX); path.bind(os.environ["SOCKDIR"] + "/sock"); path.listen(8)
abst = socket.socket(socket.AF_UNIX); abst.bind("\0" + mark); abst.listen(8)
with open(w + "/ports.tmp", "w") as f:
    f.write("%d %d\n" % (tcp.getsockname()[1], udp.getsockname()[1]))
os.rename(w + "/ports.tmp", w + "/ports")
names = {tcp: "tcp", udp: "udp", path: "unix path", abst: "unix abstract"}
while True:
    ready, _, _ = select.select(list(names), [], [])
    for s in ready:
        if s is udp:
            s.recvfrom(65536)
        else:
            s.accept()[0].close()
        with open(w + "/hits", "a") as f:
            f.write(names[s] + "\n")
PYEOF
: > "$W/hits"
python3 "$W/listen.py" &
BG_PIDS="$!"
i=0
while [ ! -s "$W/ports" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ -s "$W/ports" ] || { echo "the host listeners did not start"; exit 2; }
read -r TCP_PORT UDP_PORT < "$W/ports"
export TCP_PORT UDP_PORT

prog inet <<'EOF'
import errno, socket
def tryit(name, f):
    try:
        f()
        print("%s: ESCAPED" % name)
    except OSError as e:
        print("%s: blocked (%s)" % (name, errno.errorcode.get(e.errno, e)))
def tcp():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(2)
    s.connect(("127.0.0.1", @TCP@))
def udp():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"@MARK@", ("127.0.0.1", @UDP@))
tryit("tcp connect", tcp)
tryit("udp send", udp)
tryit("tcp create_connection", lambda: socket.create_connection(("127.0.0.1", @TCP@), 2))
tryit("ipv6", lambda: socket.socket(socket.AF_INET6, socket.SOCK_STREAM))
tryit("raw icmp", lambda: socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP))
tryit("packet", lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0x0300))
tryit("netlink route", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0))
tryit("netlink audit", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 9))
tryit("vsock", lambda: socket.socket(40, socket.SOCK_STREAM))
tryit("alg", lambda: socket.socket(38, socket.SOCK_SEQPACKET))
tryit("socketpair inet", lambda: socket.socketpair(socket.AF_INET))
EOF
run inet
check inet 'status == "ok" and not escaped and len(lines) == 11' 'every socket was refused'
check inet 'viol("network", "socket(AF_INET, SOCK_STREAM)") and viol("network", "socket(AF_INET, SOCK_DGRAM)")' 'TCP and UDP recorded'
check inet 'viol("network", "SOCK_RAW") and viol("network", "AF_PACKET") and viol("network", "AF_NETLINK")' 'raw, packet, netlink recorded'
check inet 'viol("network", "AF_INET6") and viol("network", "AF_VSOCK") and viol("network", "AF_ALG")' 'IPv6, vsock, alg recorded'
check inet 'all(v["source"] == "kernel" for v in V if v["kind"] == "network")' 'network records are kernel-observed'
check inet 'any(v["kind"] == "network" and v["line"] for v in V)' 'records carry the program line'

prog dns <<'EOF'
import errno, socket, urllib.request
try:
    print("dns:", "ESCAPED", socket.getaddrinfo("example.com", 443))
except OSError as e:
    print("dns: blocked (%s)" % e)
try:
    socket.gethostbyname("example.com")
    print("gethostbyname: ESCAPED")
except OSError as e:
    print("gethostbyname: blocked (%s)" % e)
try:
    urllib.request.urlopen("http://127.0.0.1:@TCP@/", timeout=2)
    print("urllib: ESCAPED")
except OSError as e:
    print("urllib: blocked (%s)" % e)
try:
    open("/etc/resolv.conf").read()
    print("resolv.conf: present")
except OSError:
    print("resolv.conf: absent")
EOF
run dns
check dns 'status == "ok" and not escaped' 'DNS and HTTP fail'
check dns 'viol("network") and any("example.com" in (v.get("program_context") or "") for v in V)' 'the DNS lookup is recorded with the name, as the program context'
check dns 'any("127.0.0.1" in v["what"] or "AF_INET" in v["what"] for v in V if v["kind"] == "network")' 'the urllib fetch is recorded'

prog unix <<'EOF'
import errno, os, socket
def tryit(name, f):
    try:
        f()
        print("%s: ESCAPED" % name)
    except OSError as e:
        print("%s: blocked (%s)" % (name, errno.errorcode.get(e.errno, e)))
def conn(addr):
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(2)
    s.connect(addr)
tryit("unix path", lambda: conn("@SOCKDIR@/sock"))
tryit("unix abstract", lambda: conn("\0@MARK@"))
tryit("systemd notify", lambda: conn("/run/systemd/notify"))
tryit("docker", lambda: conn("/var/run/docker.sock"))
tryit("dbus", lambda: conn("/run/dbus/system_bus_socket"))
tryit("abstract dgram", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"x", "\0@MARK@"))
# inside, unix sockets are allowed: a private pair must still work
a, b = socket.socketpair()
a.send(b"ping")
print("socketpair:", b.recv(4).decode())
# (if_nameindex would need netlink, which is denied: read the ns's /proc)
print("interfaces:", " ".join(l.split(":")[0].strip() for l in open("/proc/net/dev").readlines()[2:]))
EOF
run unix
check unix 'status == "ok" and not escaped' 'no host unix socket is reachable'
check unix 'line("socketpair") == "ping"' 'unix sockets inside the sandbox still work'
check unix 'line("interfaces") == "lo"' 'only loopback in the network namespace'
check unix 'not viol("network")' 'allowed unix sockets are no network violation'

host_ok "no connection or datagram reached a host listener" sh -c '[ ! -s "$W/hits" ]'
host_ok "the host listeners are still up" kill -0 $BG_PIDS
host_clean
finish
