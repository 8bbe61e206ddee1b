#!/bin/sh
# SPDX-License-Identifier: MIT
# Leaks from the host into a run: environment variables, open file
# descriptors, paths, the host's name, users and cgroup, what the
# supervisor's argv and cwd say. A program must see only what the sandbox
# synthesizes for it.
. "$(dirname "$0")/lib.sh"

prog env <<'EOF'
import os, socket, sys
print("env:", " ".join(sorted(os.environ)))
print("values:", " ".join("%s=%s" % kv for kv in sorted(os.environ.items())))
print("self environ:", open("/proc/self/environ", "rb").read().replace(b"\0", b" ").decode())
print("fds:", " ".join(sorted(os.listdir("/proc/self/fd"), key=int)))
for fd in os.listdir("/proc/self/fd"):
    try:
        print("fd %s: %s" % (fd, os.readlink("/proc/self/fd/" + fd)))
    except OSError:
        pass
print("argv:", sys.argv)
print("executable:", sys.executable)
print("cwd:", os.getcwd())
print("uid:", os.getuid(), os.geteuid(), os.getgid())
print("groups:", os.getgroups())
print("hostname:", socket.gethostname())
print("passwd:", open("/etc/passwd").read().replace("\n", " | "))
print("cgroup:", open("/proc/self/cgroup").read().replace("\n", " | "))
print("mountinfo:", open("/proc/self/mountinfo").read().replace("\n", " | "))
print("etc:", " ".join(sorted(os.listdir("/etc"))))
print("root:", " ".join(sorted(os.listdir("/"))))
print("var:", " ".join(sorted(os.path.join(d, n)[5:] for d, ds, fs in os.walk("/var") for n in ds)) if os.path.isdir("/var") else "-")
print("stdin:", repr(sys.stdin.read(100)))
EOF
# The host hands sandpit a secret in the environment and an open fd to
# a secret file; neither may reach the program.
SANDPIT_SECRET="env-$TOKEN" AWS_SECRET_ACCESS_KEY="aws-$TOKEN" \
	HOME="$W" PWD="$W" run env 7< "$W/secret"
check env 'status == "ok"' 'the program ran'
check env "'$TOKEN' not in out" 'no host secret (env, fd, paths) anywhere in what the program saw'
check env 'set(line("env").split()) <= {"PATH", "HOME", "TMPDIR", "USER", "LOGNAME", "LANG", "TERM", "MPLBACKEND", "LC_CTYPE", "PYTHONIOENCODING", "XDG_CACHE_HOME", "MPLCONFIGDIR", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "MALLOC_TOP_PAD_"}' 'only the synthesized environment'
check env 'line("fds").split()[:4] == ["0", "1", "2", "3"] and len(line("fds").split()) <= 5' 'only stdin, stdout, stderr and the channel are open'
check env 'line("fd 0") in ("/dev/null", "/null") or line("fd 0").startswith("/dev/null")' 'stdin is /dev/null'
check env "'$W' not in out" 'the host work dir of the caller is nowhere'
check env 'line("cwd") == "/work" and line("uid") == "1000 1000 1000"' 'cwd /work, uid 1000'
check env 'line("hostname") == "sandpit"' 'hostname sandpit'
check env 'all(l.split(":")[-1].strip() == "/" for l in line("cgroup").split("|") if l.strip())' 'the host cgroup path is hidden'
check env '"root:" not in line("passwd") or "/nonexistent" in line("passwd")' 'a synthesized /etc/passwd'
check env 'not ({"shadow", "ssh", "sudoers", "hostname.host", "resolv.conf"} & set(line("etc").split()))' 'no host secrets in /etc'
check env 'not ({"home", "root", "sys", "boot", "run", "mnt", "media", "srv", "opt"} & set(line("root").split()))' 'no host directories in /'
check env 'line("var") in ("-", "", "cache cache/fontconfig")' '/var holds at most the fontconfig cache (read-only font metadata)'
check env 'not V' 'reading its own environment is no violation'

# The carry-in file and --stdin are the explicit channels: they arrive,
# and nothing of the host's paths comes with them.
echo '{"note": "carried"}' > "$W/carry.json"
echo "stdin-data" > "$W/stdin.txt"
prog explicit <<'EOF'
import os, sys
print("carry:", note)
print("stdin:", sys.stdin.read().strip())
print("carry file:", open("/work/carry.json").read().strip())
print("sandpit dir:", " ".join(sorted(os.listdir("/sandpit"))))
# init is a copy of the supervisor: its argv named the host's paths
print("init cmdline:", open("/proc/1/cmdline", "rb").read().replace(b"\0", b" ").decode())
EOF
run explicit --carry "$W/carry.json" --stdin "$W/stdin.txt"
check explicit 'status == "ok" and line("carry") == "carried" and line("stdin") == "stdin-data"' 'carry-in and stdin arrive'
check explicit "'$W' not in out" 'without the host paths they came from'
check explicit 'line("init cmdline").split() == ["sandpit", "'"$MARK"'_explicit.py"]' "init's command line is not the host's (/proc/1/cmdline): sandpit and the program's name"

host_clean
finish
