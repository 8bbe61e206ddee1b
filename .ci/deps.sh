#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian packages sandpit needs to build and test, if missing.
# As root it runs apt-get; otherwise through sudo; failing both it prints
# the exact command to run. Quiet and quick when everything is there.
set -eu
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
[ "${SANDPIT_DEPS_FULL:-0}" = 1 ] && need="$need $want"

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
echo "sandpit: installing:$missing" >&2
if [ "$(id -u)" = 0 ]; then
	run=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	run="sudo"
else
	echo "sandpit: please run:" >&2
	echo "  sudo apt-get update && sudo apt-get install -y$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$run apt-get update -qq >/dev/null || true
# shellcheck disable=SC2086
$run apt-get install -y -qq --no-install-recommends $missing >/dev/null
