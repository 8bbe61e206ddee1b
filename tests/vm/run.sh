#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/vm/run.sh [B] - `make check-vm`: sandpit on a second kernel, the
# way most people's hosts are (Debian 12: Linux 6.1, systemd 252, pure
# cgroup v2, an ordinary user with a delegated cgroup), then the same
# guest booted with cgroup v1.
#
# The guest (tests/vm/image.sh) is built once into B/vm and reused. Each
# boot shares a fresh directory over 9p with the static sandpit, the
# prepared-run driver (linked static here), the programs and inside.sh;
# the guest writes its log there and powers off. The disk is opened
# read-only (snapshot=on), so every boot starts from the same image.
#
# Software emulation (TCG) by default, about 30 times slower on CPU; the
# runs' limits allow for that. KVM only when asked (SANDPIT_VM_KVM=1),
# and then only where it starts the guest's kernel within
# SANDPIT_VM_KVM_PROBE seconds: on nested hosts KVM can start the kernel
# in one boot and hang in the next at the same point, which no probe
# rules out, and a check that hangs is worse than a slow one.
# Exit 0 when every check passed in both modes.
set -eu
B=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
vm=$B/vm
probe=${SANDPIT_VM_KVM_PROBE:-30}
boot_limit=${SANDPIT_VM_TIMEOUT:-900}

need() { command -v "$1" > /dev/null || { echo "check-vm: $1 is missing (make check-vm installs it; or apt-get install $2)"; exit 1; }; }
need qemu-system-x86_64 qemu-system-x86
need debootstrap debootstrap
need mkfs.ext4 e2fsprogs
[ "$(id -u)" = 0 ] || { echo "check-vm: debootstrap needs root"; exit 1; }
[ -x "$B/sandpit" ] || { echo "check-vm: no $B/sandpit: make all first"; exit 1; }

if [ ! -s "$vm/root.img" ]; then
	t=$(date +%s)
	sh "$here/image.sh" "$vm"
	echo "check-vm: image built in $(( $(date +%s) - t )) s"
fi

share=$vm/share
rm -rf "$share"
mkdir -p "$share/progs"
cp "$B/sandpit" "$share/"
cp "$here/inside.sh" "$here/check.py" "$share/"
cp "$here"/progs/*.py "$share/progs/"
# the drivers over the library, static as sandpit is: the guest has none
# of the build's libraries
for drv in "$here/../hostile/prepared_run.c" "$here/many_runs.c"; do
	# shellcheck disable=SC2046
	${CC:-cc} -O2 -std=c11 -D_GNU_SOURCE -static-pie -I "$here/../../core" \
		-o "$share/$(basename "$drv" .c)" "$drv" "$B/libsandpit.a" \
		$(pkg-config --static --libs libseccomp libcap libutf8proc jansson) -lm
done

# boot ACCEL MODE CMDLINE...: one boot; the console to B/vm/console-MODE.txt
boot() {
	accel=$1
	mode=$2
	shift 2
	cpu=max
	[ "$accel" = kvm ] && cpu=host
	qemu-system-x86_64 -machine "q35,accel=$accel" -cpu "$cpu" -m 2048 -smp 2 \
		-nographic -no-reboot -serial "file:$vm/console-$mode.txt" -monitor none \
		-kernel "$vm/vmlinuz" -initrd "$vm/initrd.img" \
		-append "root=/dev/vda rw console=ttyS0 sandpit.mode=$mode $*" \
		-drive "file=$vm/root.img,if=virtio,format=raw,snapshot=on" \
		-virtfs "local,path=$share,mount_tag=sandpit,security_model=none" \
		> "$vm/qemu-$mode.txt" 2>&1 &
	qpid=$!
}

# waits until the guest ends, or kills it after SECONDS
await() {
	n=0
	while kill -0 "$qpid" 2> /dev/null; do
		if [ "$n" -ge "$1" ]; then
			kill "$qpid"
			wait "$qpid" 2> /dev/null || true
			return 1
		fi
		sleep 1
		n=$((n + 1))
	done
	wait "$qpid" 2> /dev/null || true
}

# KVM, if the kernel gets as far as printing its version
accel=tcg
if [ "${SANDPIT_VM_KVM:-0}" = 1 ] && [ -w /dev/kvm ] && [ -z "${SANDPIT_VM_TCG:-}" ]; then
	boot kvm probe
	n=0
	while [ "$n" -lt "$probe" ] && ! grep -q "Linux version" "$vm/console-probe.txt" 2> /dev/null; do
		sleep 1
		n=$((n + 1))
	done
	if grep -q "Linux version" "$vm/console-probe.txt" 2> /dev/null; then
		accel=kvm
	fi
	kill "$qpid" 2> /dev/null || true
	wait "$qpid" 2> /dev/null || true
	rm -f "$share"/log-probe.txt
fi
if [ "$accel" = kvm ]; then
	echo "check-vm: KVM starts the guest's kernel"
elif [ "${SANDPIT_VM_KVM:-0}" != 1 ] || [ -n "${SANDPIT_VM_TCG:-}" ]; then
	echo "check-vm: software emulation (TCG); SANDPIT_VM_KVM=1 tries KVM first"
else
	echo "check-vm: KVM did not start the guest's kernel in $probe s (or there is none): software emulation (TCG)"
fi

fails=0
# SANDPIT_VM_MODES: a subset, e.g. "v2"; "ctr" runs only the container
# checks (on v2)
for mode in ${SANDPIT_VM_MODES:-v2 v1}; do
	t=$(date +%s)
	if [ "$mode" = v1 ]; then
		boot "$accel" v1 systemd.unified_cgroup_hierarchy=0 SYSTEMD_CGROUP_ENABLE_LEGACY_FORCE=1
	else
		boot "$accel" "$mode" systemd.unified_cgroup_hierarchy=1
	fi
	if ! await "$boot_limit"; then
		echo "check-vm: the $mode guest did not finish in $boot_limit s; its console's end:"
		tail -n 30 "$vm/console-$mode.txt"
	fi
	if [ -s "$share/log-$mode.txt" ]; then
		cat "$share/log-$mode.txt"
	else
		echo "FAIL $mode: the guest wrote no log; its console's end:"
		tail -n 30 "$vm/console-$mode.txt"
	fi
	res=$(sed -n "s/^SANDPIT-VM-RESULT $mode //p" "$share/log-$mode.txt" 2> /dev/null)
	if [ "${res:-x}" != 0 ]; then
		fails=$((fails + 1))
	fi
	echo "check-vm: $mode took $(( $(date +%s) - t )) s ($accel)"
done
[ "$fails" = 0 ] && echo "check-vm: every check passed (${SANDPIT_VM_MODES:-v2 v1})" && exit 0
echo "check-vm: $fails mode(s) failed"
exit 1
