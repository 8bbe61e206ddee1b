#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian packages sandpit needs to build and test, if missing.
# As root it runs apt-get; otherwise through sudo; failing both it prints
# the exact command to run. Quiet and quick when everything is there.
#   sh .ci/deps.sh [-n] [vm]
# vm: also what make check-vm needs (QEMU, debootstrap, mkfs.ext4).
# -n: say what is missing and the command that would install it, and
# change nothing (exit 0 when nothing is missing, else 1).
set -eu
dry=0 vm=0
for a in "$@"; do
	case $a in
	-n) dry=1 ;;
	vm) vm=1 ;;
	*) echo "usage: sh .ci/deps.sh [-n] [vm]" >&2; exit 2 ;;
	esac
done
need="build-essential pkg-config libncurses-dev libseccomp-dev libcap-dev
libutf8proc-dev libjansson-dev libinih-dev libcmocka-dev python3 tmux man-db
python3-numpy python3-pandas python3-matplotlib python3-scipy
python3-sklearn python3-statsmodels python3-seaborn python3-sympy python3-openpyxl
libchafa-dev libglib2.0-dev libpng-dev libjpeg62-turbo-dev zlib1g-dev ncurses-term"
# the scientific stack above is the sandbox's default image (what such
# sandboxes ship); used by the tests when present: clang (fuzzing),
# bubblewrap (the benchmark's comparison), strace (that a replaced file's
# directory is fsynced), the Debian packaging tools (CI builds the
# package and runs lintian on it), an X server without a screen, xterm,
# xwd and xdotool (sixel pictures in a real terminal, test_xterm_sixel)
want="clang libclang-rt-14-dev bubblewrap strace dpkg-dev debhelper lintian fakeroot
xvfb xterm x11-apps xdotool"
# make check-vm: a Debian 12 guest built by debootstrap onto an ext4
# image, booted by QEMU (tests/vm/run.sh)
vm_pkgs="qemu-system-x86 debootstrap e2fsprogs"
[ "${SANDPIT_DEPS_FULL:-0}" = 1 ] && need="$need $want"
[ $vm = 1 ] && need="$need $vm_pkgs"

missing=""
for p in $need; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "sandpit: missing packages:$missing" >&2
	echo "sandpit: this is not a Debian/Ubuntu system; install their equivalents." >&2
	exit 1
fi
if [ "$(id -u)" = 0 ]; then
	run=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	run="sudo "
else
	echo "sandpit: missing packages:$missing" >&2
	echo "sandpit: please run:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
if [ $dry = 1 ]; then
	echo "sandpit: would install:$missing" >&2
	echo "  ${run}apt-get update && ${run}apt-get install -y --no-install-recommends$missing" >&2
	exit 1
fi
echo "sandpit: installing:$missing" >&2
# through env: sudo drops the caller's environment
apt="${run}env DEBIAN_FRONTEND=noninteractive apt-get"
$apt update -qq >/dev/null || true
# shellcheck disable=SC2086
$apt install -y -qq --no-install-recommends $missing >/dev/null
