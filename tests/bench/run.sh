#!/bin/sh
# SPDX-License-Identifier: MIT
# make bench: build the timing driver (and the editor's, when it exists),
# install what the bench compares against, print one table.
#   sh tests/bench/run.sh BUILD_DIR
# BENCH_RUNS, BENCH_LIMIT_RUNS, BENCH_PAUSE_MS, BENCH_STRICT, BENCH_ONLY: see
# tests/bench/bench.c (BENCH_ONLY=playground: tests/bench/playground.sh).
set -u
B=${1:?usage: tests/bench/run.sh BUILD_DIR}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 2
CC=${CC:-cc}
OUT=$B/tests/bench
mkdir -p "$OUT"

[ -x "$B/sandpit" ] && [ -f "$B/libsandpit.a" ] && [ -f "$B/libsandpit-tui.a" ] || {
	echo "bench: build first: make B=$B all" >&2
	exit 2
}

# bubblewrap is the comparison of the start-up row; install it from Debian
# when we may. (The timing itself is the C driver's, not hyperfine's.)
if ! command -v bwrap >/dev/null 2>&1; then
	if [ "$(id -u)" -eq 0 ]; then
		apt-get install -y bubblewrap >/dev/null 2>&1 ||
			echo "bench: could not install bubblewrap; its comparison is skipped"
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo -n apt-get install -y bubblewrap >/dev/null 2>&1 ||
			echo "bench: could not install bubblewrap; its comparison is skipped"
	else
		echo "bench: bubblewrap is missing and this user cannot install it" \
		     "(apt-get install bubblewrap); its comparison is skipped"
	fi
fi

WARN="-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla"
# shellcheck disable=SC2046
$CC -O2 -g -std=c11 -D_GNU_SOURCE $WARN -I core -o "$OUT/bench" tests/bench/bench.c \
	"$B/libsandpit.a" $(pkg-config --libs libseccomp libcap libutf8proc jansson) -lm ||
	{ echo "bench: the driver did not build" >&2; exit 2; }

# The editor's bench links the front end's own library (what the
# sandpit command is built from), so it never misses a source the editor
# comes to need.
EDITOR_BIN=
ED=tests/bench/bench_editor.c
if [ -f "$ED" ]; then
	TUI_PKGS="ncursesw libutf8proc inih chafa libpng libjpeg"
	# shellcheck disable=SC2046,SC2086
	if $CC -O2 -g -std=c11 -D_GNU_SOURCE $WARN -I core -I tui -I "$B/gen" \
		$(pkg-config --cflags $TUI_PKGS) \
		-o "$OUT/bench_editor" "$ED" "$B/libsandpit-tui.a" "$B/libsandpit.a" \
		$(pkg-config --libs $TUI_PKGS libseccomp libcap jansson) \
		-lutil -lm; then
		EDITOR_BIN=$OUT/bench_editor
	else
		echo "bench: $ED did not build; the playground rows are not measured"
	fi
fi

uname_line="$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), kernel $(uname -r), $( [ "$(id -u)" -eq 0 ] && echo root || echo 'not root')"
echo "machine: $uname_line"
if [ -n "$EDITOR_BIN" ]; then
	"$OUT/bench" "$B/sandpit" --editor "$EDITOR_BIN"
else
	"$OUT/bench" "$B/sandpit"
fi
rc=$?
# the playground's F5 row, through tmux (tests/bench/playground.sh)
case ${BENCH_ONLY:-playground} in
*playground*) sh tests/bench/playground.sh "$B/sandpit" ;;
esac
# the services' rows: sandpit mcp and run --batch (tests/bench/services.py)
case ${BENCH_ONLY:-services} in
*services*) python3 tests/bench/services.py "$B/sandpit" || rc=1 ;;
esac
exit $rc
