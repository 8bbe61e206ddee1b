#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/vm/inside.sh - the VM check inside the guest (tests/vm/run.sh boots
# it; the image's unit runs this from the 9p share /mnt/sandpit). Each
# check prints "ok   ..." or "FAIL ..."; everything goes to the share's
# log-MODE.txt, which the host reads, and to the serial console.
#
# MODE (the kernel's sandpit.mode=): v2 (systemd's unified hierarchy) or
# v1 (systemd.unified_cgroup_hierarchy=0). Runs as root and as the
# ordinary user sandpit-vm inside a delegated scope (systemd-run --user
# --scope -p Delegate=yes), the way doctor tells a person to; on v1 the
# user has no cgroup and the runs fall back to rlimits and the filter.
S=/mnt/sandpit
mode=$(sed -n 's/.*sandpit\.mode=\([a-z0-9]*\).*/\1/p' /proc/cmdline)
W=/tmp/sp
LOG=$S/log-$mode.txt
exec > "$LOG" 2>&1
echo "=== guest: $(uname -r), mode $mode, $(stat -fc %T /sys/fs/cgroup) at /sys/fs/cgroup"
mkdir -p $W
cp $S/sandpit $S/prepared_run $S/many_runs $S/progs/*.py $S/check.py $W/
chmod -R a+rX $W
chmod 1777 $W
FAILS=0

USER_ENV="XDG_RUNTIME_DIR=/run/user/1000 DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus"
# as WHO ...: the command as root, or as the user in a delegated scope
as() {
	who=$1
	shift
	if [ "$who" = root ]; then
		"$@"
	else
		# shellcheck disable=SC2086
		runuser -u sandpit-vm -- env $USER_ENV HOME=/home/sandpit-vm \
			systemd-run --user --scope --quiet -p Delegate=yes "$@"
	fi
}

# check WHO NAME EXPR DESC: EXPR (python, over the result r) holds.
check() {
	if ! python3 $W/check.py "$W/$1-$2.json" "$3" "$1 $2: $4"; then
		FAILS=$((FAILS + 1))
		sed -n '1,5s/^/     stderr| /p' "$W/$1-$2.err"
	fi
}

# run WHO NAME [OPTIONS]: sandpit run --json NAME.py, result in WHO-NAME.json
run() {
	who=$1
	name=$2
	shift 2
	as "$who" $W/sandpit run --json "$@" $W/$name.py > "$W/$who-$name.json" 2> "$W/$who-$name.err" < /dev/null
}

# the cgroup the runs must have, and what a v1 user lacks
if [ "$mode" = v2 ]; then
	want_cg='str(r["layers"]["cgroup"]).startswith("cgroup v2") and r["layers"]["cgroup_controllers"] == "memory pids cpu"'
else
	want_cg='str(r["layers"]["cgroup"]).startswith("cgroup v1")'
fi

for who in root user; do
	[ "$mode" = ctr ] && break
	echo "=== as $who"
	want=$want_cg
	if [ "$mode" = v1 ] && [ "$who" = user ]; then
		want='r["layers"]["cgroup"] is False'
	fi
	as "$who" $W/sandpit doctor > "$W/$who-doctor.txt" 2>&1
	echo "--- sandpit doctor ($who):"
	sed 's/^/   | /' "$W/$who-doctor.txt"
	if [ "$mode" = v2 ] || [ "$who" = root ]; then
		if grep -Eq "^  cgroup +yes +cgroup $mode" "$W/$who-doctor.txt"; then
			echo "ok   $who doctor: cgroup $mode"
		else
			echo "FAIL $who doctor: no cgroup $mode"; FAILS=$((FAILS + 1))
		fi
	fi

	run "$who" hello
	check "$who" hello "status == 'ok' and out == 'hello\\n' and $want" "runs, with the cgroup"

	run "$who" membomb --memory 64M --wall 120 --cpu 60
	echo "--- the memory bomb's result ($who, $mode):"
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); r.pop("samples", None); print(json.dumps(r, indent=1))' \
		"$W/$who-membomb.json" | sed 's/^/   | /'
	echo "   (the samples left out)"
	check "$who" membomb "status == 'memory_limit' and $want" "stopped at 64 MiB"
	if [ "$want" != 'r["layers"]["cgroup"] is False' ]; then
		check "$who" membomb 'r["usage"]["peak_memory_source"] == "cgroup" and r["usage"]["peak_memory_bytes"] <= 70 << 20' "the peak is the cgroup's"
	fi

	run "$who" forkbomb --procs 16 --wall 60 --cpu 60
	check "$who" forkbomb "r['usage']['procs_peak'] <= 16 and viol('process') and $want" "held at 16 processes"

	run "$who" spin --cpu 1 --wall 120
	check "$who" spin "status == 'cpu_limit' and $want" "stopped at 1 s of CPU"

	run "$who" sockbufs --memory 64M --wall 120 --cpu 60
	check "$who" sockbufs "status == 'memory_limit'" "socket queues count against 64 MiB"

	run "$who" sigchld --wall 60 --cpu 30
	if [ "$want" = 'r["layers"]["cgroup"] is False' ]; then
		check "$who" sigchld "'refused' in out" "ignoring SIGCHLD is refused without a CPU cgroup"
	else
		check "$who" sigchld "'ignored' in out and r['usage']['cpu_ms'] >= 300" "ignoring SIGCHLD is allowed, the reaped child's CPU counted"
	fi

	# many runs from one process (the playground's way): a cgroup each
	as "$who" $W/many_runs 4 > "$W/$who-many.txt" 2>&1
	sed 's/^/   | /' "$W/$who-many.txt"
	if [ "$want" = 'r["layers"]["cgroup"] is False' ] ||
		[ "$(grep -c "^run [0-9]: ok | cgroup $mode" "$W/$who-many.txt")" = 4 ]; then
		echo "ok   $who many: four runs from one process, a cgroup each"
	else
		echo "FAIL $who many: four runs from one process, a cgroup each"; FAILS=$((FAILS + 1))
	fi

	as "$who" $W/prepared_run "$W/$who-prepared.json" $W/hello.py numpy > /dev/null 2> "$W/$who-prepared.err"
	check "$who" prepared "status == 'ok' and out == 'hello\\n' and $want" "a prepared run (numpy preloaded)"
done

if [ "$mode" = v2 ]; then
	# outside a delegated scope: doctor must say so, and how to get one
	echo "=== as user, without a delegated scope"
	runuser -u sandpit-vm -- $W/sandpit doctor > $W/user-nodelegate.txt 2>&1
	sed -n '/^  cgroup /,$p' $W/user-nodelegate.txt | sed -n '1,12s/^/   | /p'
	if grep -Eq '^  cgroup +NO .*not delegated to this user' $W/user-nodelegate.txt &&
		grep -q 'systemd-run --user --scope -p Delegate=yes sandpit' $W/user-nodelegate.txt; then
		echo "ok   user doctor: no delegation, and the command that gives it"
	else
		echo "FAIL user doctor: no delegation, and the command that gives it"; FAILS=$((FAILS + 1))
	fi

	# a shell that shares the delegated scope: its processes move to the leaf
	echo "=== as user, with a shell in the same scope"
	as user sh -c "sleep 300 & $W/sandpit run --json $W/hello.py; kill \$!" \
		> $W/user-shell.json 2> $W/user-shell.err
	check user shell "status == 'ok' and $want_cg" "a shell beside sandpit in its scope"
fi

# what marks a delegated cgroup (for the record: systemd's xattrs)
as user python3 -c 'import os; p = "/sys/fs/cgroup" + open("/proc/self/cgroup").read().split("::")[1].strip(); print("   delegated scope:", p, os.listxattr(p))' 2>&1

# Containers (podman, its default seccomp profile), as root and rootless:
# sandpit runs with every layer, or refuses and names what the container
# must allow. The image is this guest's userland (podman import); the
# settings are docs/deploy.md's.
if [ "$mode" = v2 ] || [ "$mode" = ctr ]; then
	# podman's default profile, with sethostname allowed without
	# CAP_SYS_ADMIN (docs/deploy.md)
	python3 - /usr/share/containers/seccomp.json $W/seccomp-sandpit.json <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
for rule in p["syscalls"]:
    if "sethostname" in rule["names"] and rule["action"] == "SCMP_ACT_ERRNO":
        rule["names"].remove("sethostname")
p["syscalls"].append({"names": ["sethostname"], "action": "SCMP_ACT_ALLOW"})
json.dump(p, open(sys.argv[2], "w"), indent=1)
PY
	chmod a+r $W/seccomp-sandpit.json
	# plain WHO ...: the command as root, or as the user (podman makes
	# its own scope)
	plain() {
		who=$1
		shift
		if [ "$who" = root ]; then
			timeout 300 "$@"
		else
			# shellcheck disable=SC2086
			(cd /tmp && timeout 300 runuser -u sandpit-vm -- env $USER_ENV HOME=/home/sandpit-vm "$@")
		fi
	}
	for who in root user; do
		echo "=== podman, as $who"
		t0=$(date +%s)
		if ! plain "$who" podman import -q /var/lib/sandpit-container.tar localhost/sandpit-debian \
			> $W/ctr-$who-import.txt 2>&1; then
			echo "FAIL $who podman: import: $(tail -n 3 $W/ctr-$who-import.txt)"; FAILS=$((FAILS + 1))
			continue
		fi
		echo "   (imported in $(( $(date +%s) - t0 )) s)"
		# ctr NAME EXPECT [PODMAN OPTIONS]: the memory bomb in a container;
		# EXPECT "runs" (memory_limit, every layer) or "refuses TEXT"
		ctr() {
			name=$1
			expect=$2
			shift 2
			plain "$who" podman run --rm --network none -v $W:/sp:ro "$@" localhost/sandpit-debian \
				/sp/sandpit run --json --memory 64M --wall 120 --cpu 60 /sp/membomb.py \
				> "$W/$who-ctr$name.json" 2> "$W/$who-ctr$name.err"
			rc=$?
			echo "--- podman run $* ($who): exit $rc"
			sed -n '1,4s/^/   stderr| /p' "$W/$who-ctr$name.err"
			case $expect in
			runs)
				check "$who" "ctr$name" "status == 'memory_limit' and all(v is not False for k, v in r['layers'].items() if k != 'cgroup' and k != 'cgroup_controllers')" \
					"podman $*: every required layer, stopped at 64 MiB"
				# unmask=ALL makes the container's cgroup writable too
				check "$who" "ctr$name" "str(r['layers']['cgroup']).startswith('cgroup v2 memory pids cpu')" \
					"podman $*: a cgroup v2 for the run, in the container's"
				;;
			refuses*)
				if [ "$rc" = 125 ] && grep -q "${expect#refuses }" "$W/$who-ctr$name.err"; then
					echo "ok   $who podman $*: refuses, naming ${expect#refuses }"
				else
					echo "FAIL $who podman $*: expected a refusal naming ${expect#refuses }"; FAILS=$((FAILS + 1))
				fi
				;;
			esac
		}
		prof="--security-opt seccomp=$W/seccomp-sandpit.json"
		ctr default "refuses seccomp profile must allow sethostname"
		# shellcheck disable=SC2086
		ctr masked "refuses its /proc must have no masked paths" $prof
		# shellcheck disable=SC2086
		ctr profile runs $prof --security-opt unmask=ALL
		# doctor, with the default profile and with the settings that work
		plain "$who" podman run --rm --network none -v $W:/sp:ro localhost/sandpit-debian \
			/sp/sandpit doctor > "$W/$who-ctrdoctor.txt" 2>&1
		if grep -q "^  user_namespace *NO .*sethostname" "$W/$who-ctrdoctor.txt"; then
			echo "ok   $who podman: doctor names the refused sethostname"
		else
			echo "FAIL $who podman: doctor names the refused sethostname"; FAILS=$((FAILS + 1))
			sed -n '/^  user_namespace/,/^  python/s/^/   doctor| /p' "$W/$who-ctrdoctor.txt"
		fi
		# shellcheck disable=SC2086
		plain "$who" podman run --rm --network none -v $W:/sp:ro $prof --security-opt unmask=ALL \
			localhost/sandpit-debian /sp/sandpit doctor > "$W/$who-ctrdoctor2.txt" 2>&1
		sed -n '/^  user_namespace/,/^  python/s/^/   doctor| /p' "$W/$who-ctrdoctor2.txt"
		if grep -q "Every required layer is here" "$W/$who-ctrdoctor2.txt"; then
			echo "ok   $who podman: doctor finds every required layer with the settings"
		else
			echo "FAIL $who podman: doctor finds every required layer with the settings"; FAILS=$((FAILS + 1))
		fi
	done
fi

left=$(find /sys/fs/cgroup -name 'run-*' -o -name 'sandpit-[0-9]*' 2>/dev/null | head -n 3)
if [ -z "$left" ]; then
	echo "ok   no run cgroup is left"
else
	echo "FAIL run cgroups left: $left"; FAILS=$((FAILS + 1))
fi
echo "=== $mode: $FAILS failed"
echo "SANDPIT-VM-RESULT $mode $FAILS"
