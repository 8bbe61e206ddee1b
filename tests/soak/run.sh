#!/bin/sh
# SPDX-License-Identifier: MIT
# make soak: build tests/soak/soak.c against BUILD_DIR/libsandpit.a and run
# SOAK_RUNS (default 1000) runs back to back in one process, then as many
# requests through one `sandpit run --batch` (tests/soak/batch.py).
#   sh tests/soak/run.sh BUILD_DIR
set -u
B=${1:?usage: tests/soak/run.sh BUILD_DIR}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 2
CC=${CC:-cc}
[ -f "$B/libsandpit.a" ] || { echo "soak: build first: make B=$B all" >&2; exit 2; }
mkdir -p "$B/tests/soak"
WARN="-Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wvla"
# shellcheck disable=SC2046,SC2086
$CC -O2 -g -std=c11 -D_GNU_SOURCE $WARN -I core -I tests -o "$B/tests/soak/soak" tests/soak/soak.c \
	"$B/libsandpit.a" $(pkg-config --libs libseccomp libcap libutf8proc jansson) -lm ||
	{ echo "soak: the driver did not build" >&2; exit 2; }
"$B/tests/soak/soak" "${SOAK_RUNS:-1000}" || exit 1
# the same number of requests through one `sandpit run --batch`
python3 tests/soak/batch.py "$B/sandpit" "${SOAK_RUNS:-1000}"
