#!/bin/sh
# SPDX-License-Identifier: MIT
# An outside program builds on libsandpit with nothing but what
# `make install` puts in place: sandpit.h and sandpit.pc. It is compiled
# with `pkg-config --cflags --libs sandpit` against the shared library
# (and must need libsandpit.so.0, its SONAME), and once more statically
# with `pkg-config --static`; both run a real sandboxed program and the
# test checks its output, status and exit code.
#   tests/embed/test_embed.sh BUILD/sandpit
set -u
B=$(cd "$(dirname "${1:?usage: test_embed.sh BUILD/sandpit}")" && pwd)
TOP=${SANDPIT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
CC=${CC:-cc}
command -v pkg-config >/dev/null || { echo "pkg-config is missing"; exit 77; }
# a sanitizer build's library needs the sanitizer's runtime linked in
if nm "$B/libsandpit.a" 2>/dev/null | grep -q '__asan_\|__ubsan_'; then
	echo "the build is sanitized; the embed test links a plain library"; exit 77
fi
# make takes the build dir as a word (a target's name): named from the
# checkout, it holds no part of the checkout's path, which may have
# spaces (docs/testing.md, "Paths")
MB=$(realpath --relative-to="$TOP" "$B")
case $MB in *[[:space:]]*) echo "make cannot take a build dir with a space in its name: $MB"; exit 77 ;; esac
# pkg-config cannot write a path with spaces or bytes that are not ASCII
# into its flags (PKG_CONFIG_SYSROOT_DIR below): the staging dirs live in
# a plain directory under /tmp, whatever TMPDIR says; the last install
# goes to a DESTDIR with a space and UTF-8, which make install must take
tmp=$(mktemp -d /tmp/sandpit-embed.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Installed as a distribution would stage it: DESTDIR, a usual prefix.
# What is built is installed (-o all): never rebuilt here, under the
# tests that run the same build beside this one.
make -s -C "$TOP" B="$MB" -o all DESTDIR="$tmp/root" PREFIX=/usr/local install >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log"; fail "make install"; }
lib=$tmp/root/usr/local/lib
for f in include/sandpit.h lib/libsandpit.a lib/libsandpit.so lib/libsandpit.so.0 \
	 lib/pkgconfig/sandpit.pc bin/sandpit; do
	[ -e "$tmp/root/usr/local/$f" ] || fail "make install put no $f"
done
export PKG_CONFIG_PATH="$lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$tmp/root"
# the source alone, away from the tree: no -I core, no build dir
cp "$TOP/tests/embed/front.c" "$tmp/front.c"
cd "$tmp" || exit 1

flags=$(pkg-config --cflags --libs sandpit) || fail "pkg-config finds no sandpit"
echo "shared: $CC front.c $flags"
# shellcheck disable=SC2086
$CC -std=c11 -Wall -Wextra -Werror -o front front.c $flags || fail "the shared link"
readelf -d front | grep -q 'NEEDED.*\[libsandpit\.so\.0\]' || fail "front does not need libsandpit.so.0"
prog='print("hello from", 6 * 7)
import sys; sys.exit(3)'
out=$(LD_LIBRARY_PATH="$lib" ./front "$prog" /usr/bin/python3) || fail "front failed: $out"
want="hello from 42
[status error, exit 3, libsandpit $(sed -n 's/^#define SP_VERSION "\(.*\)"/\1/p' "$TOP/core/sandpit.h")]"
[ "$out" = "$want" ] || fail "front printed:
$out
wanted:
$want"

# the header is C++'s too (extern "C", nothing C-only in its inline code)
if command -v c++ >/dev/null; then
	printf '%s\n' '#include <sandpit.h>' \
		'int main() { struct sp_config c; sp_config_init(&c); return sp_version()[0] != 0 && c.size; }' >cxx.cc
	# shellcheck disable=SC2046
	c++ -std=c++11 -Wall -Wextra -Werror -fsyntax-only cxx.cc $(pkg-config --cflags sandpit) ||
		fail "sandpit.h does not compile as C++"
fi

sflags=$(pkg-config --static --cflags --libs sandpit) || fail "pkg-config --static"
echo "static: $CC -static front.c $sflags"
# shellcheck disable=SC2086
$CC -std=c11 -static -o front-static front.c $sflags 2>"$tmp/static.log" ||
	{ cat "$tmp/static.log"; fail "the static link: Requires.private is incomplete"; }
readelf -d front-static 2>/dev/null | grep -q NEEDED && fail "front-static still needs shared libraries"
out=$(./front-static "$prog") || fail "front-static failed: $out"
[ "$out" = "$want" ] || fail "front-static printed:
$out"

# The same build installed once more under another prefix, as `make` then
# `make install PREFIX=/usr` does: its sandpit.pc must name that prefix
# (it was once made at build time with the default one).
make -s -C "$TOP" B="$MB" -o all DESTDIR="$tmp/root2" PREFIX=/usr install >"$tmp/install2.log" 2>&1 ||
	{ cat "$tmp/install2.log"; fail "make install PREFIX=/usr"; }
grep -qx 'prefix=/usr' "$tmp/root2/usr/lib/pkgconfig/sandpit.pc" &&
	grep -qx 'libdir=/usr/lib' "$tmp/root2/usr/lib/pkgconfig/sandpit.pc" ||
	fail "PREFIX=/usr installed a sandpit.pc that says: $(head -3 "$tmp/root2/usr/lib/pkgconfig/sandpit.pc")"
# and the build goes back to its own prefix for the next install (to a
# DESTDIR with a space and UTF-8)
root3="$tmp/root 3, ü é"
make -s -C "$TOP" B="$MB" -o all DESTDIR="$root3" PREFIX=/usr/local install >"$tmp/install3.log" 2>&1 ||
	{ cat "$tmp/install3.log"; fail "make install to a DESTDIR with a space"; }
grep -qx 'prefix=/usr/local' "$root3/usr/local/lib/pkgconfig/sandpit.pc" ||
	fail "a second install under /usr/local kept the /usr sandpit.pc"
[ -x "$root3/usr/local/bin/sandpit" ] && [ -L "$root3/usr/local/lib/libsandpit.so" ] ||
	fail "make install to a DESTDIR with a space put no sandpit or libsandpit.so there"
echo "ok: shared and static front ends ran the program; sandpit.pc names each install's prefix"
