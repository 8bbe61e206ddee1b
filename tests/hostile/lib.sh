# SPDX-License-Identifier: MIT
# lib.sh - shared by tests/hostile/test_*.sh (sourced, not run).
#
# A hostile test writes attack programs, runs each with `sandpit run
# --json`, and checks on the host side, with python3's json module, what
# must hold afterwards. Every script ends with host_clean, which looks for
# what a run could have left on the host: processes, mounts, cgroups,
# files in /tmp and /dev/shm, keys. Each looks for what this script's runs
# made (its marker, its runs' pids, the sandbox's owner, where sandpit
# mounts), so tests running beside it (tests/run.sh -j) do not count.
#
# Every program file is named MARK_name.py, and sandpit puts that name in
# the interpreter's argv, so every process a run forks carries MARK in its
# /proc/PID/cmdline: a leftover is found by scanning host /proc for it.
#
#   prog NAME <<'EOF' ... EOF   write an attack program; @MARK@, @W@ (a host
#                               dir with a secret in it), @HOSTPID@, @TCP@,
#                               @UDP@ (host listeners' ports) replaced
#   run NAME [OPTIONS]          sandpit run --json OPTIONS; sets RC
#   check NAME 'EXPR' 'WHAT'    EXPR (python, over the result) must hold
#   host_clean; finish          the closing checks, and the exit status
#
# In EXPR: r (the result), out, err, status, V (violations),
# viol(kind, substr='') (a record of that kind whose `what` holds substr),
# line(key) (the value of a "key: value" line the program printed),
# lines (stdout split), escaped (stdout lines that say ESCAPED).
set -u
SP=${1:?usage: sh test_X.sh /abs/path/to/sandpit}
case $SP in /*) ;; *) SP=$(pwd)/$SP ;; esac
if [ ! -x "$SP" ]; then
	echo "no sandpit binary at $SP"
	exit 2
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "python3 is needed on the host to check results"
	exit 77
fi
MARK=sphx$$x$(date +%s)
W=$(mktemp -d "${TMPDIR:-/tmp}/sp-hostile.XXXXXX") || exit 2
chmod 755 "$W"
FAILS=0
CHECKS=0
HOST_UID=$(id -u)
export MARK W
# the sandbox user on the host: started as root, an unprivileged uid of
# each run's own, from 2000000000 (SP_ROOT_HOST_ID_FIRST, core/sandpit.h)
if [ "$HOST_UID" -eq 0 ]; then
	SANDBOX_UID_FIRST=2000000000; SANDBOX_UID_LAST=2000065535
else
	SANDBOX_UID_FIRST=$HOST_UID; SANDBOX_UID_LAST=$HOST_UID
fi
: > "$W/pids"
# what a program must never see; not part of MARK, which names the files
TOKEN=tk$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
echo "secret-$TOKEN" > "$W/secret"

cleanup() {
	for p in $BG_PIDS; do kill "$p" 2>/dev/null; done
	rm -rf "$W"
}
BG_PIDS=""
trap cleanup EXIT
trap 'exit 130' INT TERM

# The checker: one python3 process per check keeps each one independent.
cat > "$W/chk.py" <<'PYEOF'
import json, sys
path, expr, what = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    with open(path, "rb") as f:
        raw = f.read()
    r = json.loads(raw.decode("utf-8"))
except Exception as e:
    print("FAIL %s: the result is not one valid JSON object (%s): %r" % (what, e, raw[:300]))
    sys.exit(1)
out = r.get("stdout") or ""
err = r.get("stderr") or ""
status = r.get("status")
V = r.get("violations") or []
lines = out.splitlines()
escaped = [l for l in lines if "ESCAPED" in l]
def viol(kind, sub=""):
    return any(v.get("kind") == kind and sub in (v.get("what") or "") for v in V)
def line(key):
    for l in lines:
        if l.startswith(key + ":"):
            return l[len(key) + 1:].strip()
    return None
try:
    ok = bool(eval(expr))
except Exception as e:
    ok = False
    print("     (the check raised %r)" % (e,))
if ok:
    print("ok   " + what)
    sys.exit(0)
print("FAIL " + what)
print("     expected: " + expr)
print("     status=%s exit_code=%s signal=%s wall_ms=%s" % (
    status, r.get("exit_code"), r.get("signal"), (r.get("usage") or {}).get("wall_ms")))
for v in V[:12]:
    print("     violation [%s/%s] %s (x%s)" % (v.get("kind"), v.get("source"), v.get("what"), v.get("count")))
for l in lines[:30]:
    print("     | " + l[:200])
if err.strip():
    for l in err.splitlines()[-8:]:
        print("     stderr| " + l[:200])
sys.exit(1)
PYEOF

# prog NAME: the attack program from stdin, into $W/MARK_NAME.py
prog() {
	sed -e "s|@MARK@|$MARK|g" -e "s|@W@|$W|g" -e "s|@HOSTPID@|${HOSTPID:-0}|g" \
	    -e "s|@TCP@|${TCP_PORT:-0}|g" -e "s|@UDP@|${UDP_PORT:-0}|g" \
	    -e "s|@SOCKDIR@|${SOCKDIR:-}|g" \
		> "$W/${MARK}_$1.py"
}

# run NAME [OPTIONS...]: the result in $W/NAME.json, the exit status in RC.
# The shell records its pid and then becomes sandpit (exec keeps the pid),
# so host_clean knows which cgroups were ours.
run() {
	name=$1
	shift
	sh -c 'echo $$ >> "$0"; exec "$@"' "$W/pids" "$SP" run --json "$@" \
		"$W/${MARK}_$name.py" > "$W/$name.json" 2> "$W/$name.err" < /dev/null
	RC=$?
}

check() {
	CHECKS=$((CHECKS + 1))
	if ! python3 "$W/chk.py" "$W/$1.json" "$2" "$1: $3"; then
		FAILS=$((FAILS + 1))
		if [ -s "$W/$1.err" ]; then
			sed -n '1,5s/^/     sandpit stderr| /p' "$W/$1.err"
		fi
	fi
}

# check_time NAME EXPR WHAT: a bound on time (how far past a limit a run
# ended). A busy machine may miss it, so outside SANDPIT_TIER=timing it
# is reported as a timing: line, never failed (docs/testing.md); make
# bench's limit rows measure the same on purpose.
check_time() {
	if [ "${SANDPIT_TIER:-check}" = timing ]; then
		check "$@"
		return
	fi
	took=$(python3 -c 'import json, sys
u = json.load(open(sys.argv[1], "rb")).get("usage") or {}
print("cpu_ms %s, wall_ms %s" % (u.get("cpu_ms"), u.get("wall_ms")))' "$W/$1.json" 2>/dev/null)
	if python3 "$W/chk.py" "$W/$1.json" "$2" "$1: $3" >/dev/null; then
		echo "timing: $1: $3: met ($took)"
	else
		echo "timing: $1: $3: not met on this machine ($took; bound $2), reported only"
	fi
}

# check_rc NAME CODE...: sandpit's exit status was one of CODE.
check_rc() {
	name=$1
	shift
	CHECKS=$((CHECKS + 1))
	for c in "$@"; do
		[ "$RC" -eq "$c" ] && { echo "ok   $name: exit status $RC"; return 0; }
	done
	echo "FAIL $name: exit status $RC, expected one of: $*"
	FAILS=$((FAILS + 1))
}

# host_ok WHAT COMMAND...: a host-side fact that must hold.
host_ok() {
	what=$1
	shift
	CHECKS=$((CHECKS + 1))
	if "$@"; then
		echo "ok   host: $what"
	else
		echo "FAIL host: $what"
		FAILS=$((FAILS + 1))
	fi
}

# ---- the host's state, before and after ----

# Mount points and sources of this namespace (ids change; these do not).
mounts_now() {
	awk '{ for (i = 7; $i != "-"; i++) ; print $5, $(i + 1), $(i + 2) }' /proc/self/mountinfo | sort
}

# Entries of /tmp and /dev/shm with their owners.
tmp_now() {
	for d in /tmp /dev/shm; do
		[ -d "$d" ] || continue
		find "$d" -mindepth 1 -maxdepth 1 -printf "%U %p\n" 2>/dev/null
	done | sort
}

# Processes whose command line holds MARK (the scanner gets MARK from the
# environment, so it does not match itself).
leftover_procs() {
	python3 - <<'PYEOF'
import os
mark = os.environ["MARK"].encode()
me = os.getpid()
for pid in os.listdir("/proc"):
    if not pid.isdigit() or int(pid) == me:
        continue
    try:
        with open("/proc/%s/cmdline" % pid, "rb") as f:
            cmd = f.read()
    except OSError:
        continue
    if mark in cmd:
        print(pid, cmd.replace(b"\0", b" ").decode("utf-8", "replace")[:160])
PYEOF
}

# cgroups this script's runs made: sandpit-PID-N (v1) and run-PID-N (v2),
# for the pids recorded by run().
leftover_cgroups() {
	pats=""
	while read -r p; do
		pats="$pats -o -name sandpit-$p-* -o -name run-$p-*"
	done < "$W/pids"
	[ -n "$pats" ] || return 0
	# shellcheck disable=SC2086
	find /sys/fs/cgroup -maxdepth 7 -type d \( -false $pats \) 2>/dev/null
}

# Any sandpit-* cgroup at all (other runs on this machine may own some).
all_sandpit_cgroups() {
	find /sys/fs/cgroup -maxdepth 7 -type d \( -name 'sandpit-[0-9]*' -o -path '*/sandpit/run-*' \) 2>/dev/null | sort
}

mounts_now > "$W/mounts.before"
tmp_now > "$W/tmp.before"
all_sandpit_cgroups > "$W/cg.before"

host_clean() {
	i=0
	# a killed tree is reaped by the kernel a moment after the run returns
	while [ -n "$(leftover_procs)" ] && [ $i -lt 20 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	left=$(leftover_procs)
	CHECKS=$((CHECKS + 1))
	if [ -n "$left" ]; then
		echo "FAIL host: processes of the runs are still alive:"
		echo "$left" | sed 's/^/     /'
		FAILS=$((FAILS + 1))
	else
		echo "ok   host: no process of any run is left"
	fi

	mounts_now > "$W/mounts.after"
	CHECKS=$((CHECKS + 1))
	# ours: where sandpit assembles a root (/tmp, core/mounts.c), or
	# naming this script's marker or dir; a mount elsewhere is another
	# program's on this machine (a VM test's /proc, tracefs), only noted
	new=$(comm -13 "$W/mounts.before" "$W/mounts.after" |
		awk -v m="$MARK" -v w="$W" '$1 == "/tmp" || index($1, "/tmp/") == 1 ||
			index($0, m) || index($0, w)')
	other=$(comm -13 "$W/mounts.before" "$W/mounts.after")
	[ -z "$other" ] || [ "$other" = "$new" ] ||
		echo "note: new mounts of other programs on this machine:" $other
	if [ -n "$new" ]; then
		echo "FAIL host: new mounts in /proc/self/mountinfo:"
		echo "$new" | sed 's/^/     /'
		FAILS=$((FAILS + 1))
	else
		echo "ok   host: no new mount"
	fi

	CHECKS=$((CHECKS + 1))
	cg=$(leftover_cgroups)
	if [ -n "$cg" ]; then
		echo "FAIL host: cgroups of the runs are left:"
		echo "$cg" | sed 's/^/     /'
		FAILS=$((FAILS + 1))
	else
		echo "ok   host: no cgroup of the runs is left"
	fi
	all_sandpit_cgroups > "$W/cg.after"
	other=$(comm -13 "$W/cg.before" "$W/cg.after")
	[ -z "$other" ] || echo "note: sandpit cgroups of other runs on this machine:" $other

	tmp_now > "$W/tmp.after"
	CHECKS=$((CHECKS + 1))
	# the test's own: its work dir, and OWN_TMP (a directory of its own
	# it made in /tmp, as test_network's short one for a unix socket)
	new=$(comm -13 "$W/tmp.before" "$W/tmp.after" | grep -v " $W\$" |
		grep -v " ${OWN_TMP:-/nonexistent}\$" |
		awk -v lo="$SANDBOX_UID_FIRST" -v hi="$SANDBOX_UID_LAST" \
		    -v m="$MARK" '($1 >= lo && $1 <= hi) || index($0, m)')
	if [ -n "$new" ]; then
		echo "FAIL host: new entries in /tmp or /dev/shm:"
		echo "$new" | sed 's/^/     /'
		FAILS=$((FAILS + 1))
	else
		echo "ok   host: nothing of the runs in /tmp or /dev/shm"
	fi
	other=$(comm -13 "$W/tmp.before" "$W/tmp.after" | grep -v " $W\$")
	[ -z "$other" ] || echo "note: other new entries (not the runs' owner or marker):" $other

	CHECKS=$((CHECKS + 1))
	if grep -q "$MARK" /proc/keys 2>/dev/null; then
		echo "FAIL host: a key named after the run is in /proc/keys"
		FAILS=$((FAILS + 1))
	else
		echo "ok   host: no key of the runs in /proc/keys"
	fi
}

finish() {
	echo "$((CHECKS - FAILS)) of $CHECKS checks held ($(id -un), uid $HOST_UID)"
	[ "$FAILS" -eq 0 ]
	exit $?
}
