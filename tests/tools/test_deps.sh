#!/bin/sh
# SPDX-License-Identifier: MIT
# .ci/deps.sh, the installer behind make check, make deps and make
# check-vm, against stand-ins for dpkg-query, apt-get, id and sudo (first
# on PATH), so every way it can go is tried on any machine and nothing is
# installed: nothing missing (quiet, no apt-get), as root (apt-get), as a
# user with sudo (sudo apt-get), as a user without it (the exact command,
# exit 1), -n (what it would do, nothing done); vm adds what check-vm
# needs, and make check-vm runs it before the VM (make -n).
#   sh tests/tools/test_deps.sh BUILD/sandpit   (the binary is not used)
set -u
TOP=${SANDPIT_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
T=$(mktemp -d "${TMPDIR:-/tmp}/sandpit-deps.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# the stand-ins: FAKE_MISSING lists the packages dpkg-query does not
# know; apt-get and sudo write their arguments to $T/calls; FAKE_UID is
# id -u; FAKE_SUDO=0 makes sudo -n refuse
mkdir "$T/bin"
cat > "$T/bin/dpkg-query" <<'SH'
#!/bin/sh
for p; do :; done
case " $FAKE_MISSING " in *" $p "*) exit 1 ;; esac
printf 'install ok installed'
SH
cat > "$T/bin/apt-get" <<'SH'
#!/bin/sh
echo "apt-get $*" >> "$FAKE_CALLS"
SH
cat > "$T/bin/id" <<'SH'
#!/bin/sh
echo "$FAKE_UID"
SH
cat > "$T/bin/sudo" <<'SH'
#!/bin/sh
[ "$1" = -n ] && { shift; [ "${FAKE_SUDO:-1}" = 1 ] || exit 1; }
[ "$1" = true ] && exit 0
echo "sudo $*" >> "$FAKE_CALLS"
"$@"
SH
chmod +x "$T/bin/"*
export FAKE_CALLS="$T/calls"

# deps ARGS...: .ci/deps.sh with the stand-ins; its exit status in $rc,
# its stderr in $T/err, the commands it ran in $T/calls
deps() {
	: > "$T/calls"
	PATH="$T/bin:$PATH" SANDPIT_DEPS_FULL=0 sh "$TOP/.ci/deps.sh" "$@" 2> "$T/err"
	rc=$?
}
calls() { cat "$T/calls"; }

# nothing missing: exit 0, nothing said, nothing run
FAKE_MISSING="" FAKE_UID=0 deps vm
[ $rc = 0 ] && [ ! -s "$T/err" ] && [ ! -s "$T/calls" ] ||
	fail "with nothing missing: exit $rc, said '$(cat "$T/err")', ran '$(calls)'"

# as root: apt-get installs what is missing, and only that
export FAKE_MISSING="tmux debootstrap qemu-system-x86"
FAKE_UID=0 deps
[ $rc = 0 ] || fail "as root: exit $rc: $(cat "$T/err")"
grep -q '^apt-get install .* tmux$' "$T/calls" ||
	fail "as root: no 'apt-get install ... tmux' (the VM's packages only with vm): $(calls)"
FAKE_UID=0 deps vm
grep -q '^apt-get install .* tmux qemu-system-x86 debootstrap$' "$T/calls" ||
	fail "vm as root: not 'apt-get install ... tmux qemu-system-x86 debootstrap': $(calls)"
grep -q '^sudo' "$T/calls" && fail "as root, sudo was used: $(calls)"

# a user with sudo: every apt-get through it
FAKE_UID=1000 deps vm
[ $rc = 0 ] || fail "a user with sudo: exit $rc: $(cat "$T/err")"
grep -q '^sudo env DEBIAN_FRONTEND=noninteractive apt-get install .* qemu-system-x86 debootstrap$' "$T/calls" ||
	fail "a user with sudo: not 'sudo env DEBIAN_FRONTEND=noninteractive apt-get install': $(calls)"
[ "$(grep -c '^apt-get' "$T/calls")" = "$(grep -c '^sudo' "$T/calls")" ] ||
	fail "a user with sudo: an apt-get without sudo: $(calls)"

# a user without sudo: the exact command, exit 1, nothing run
FAKE_UID=1000 FAKE_SUDO=0 deps vm
[ $rc = 1 ] || fail "a user without sudo: exit $rc (want 1)"
grep -qF 'sudo apt-get update && sudo apt-get install -y tmux qemu-system-x86 debootstrap' "$T/err" ||
	fail "a user without sudo: not the command to run: $(cat "$T/err")"
[ -s "$T/calls" ] && fail "a user without sudo: ran $(calls)"

# -n: what it would do, nothing done, exit 1
FAKE_UID=0 deps -n vm
[ $rc = 1 ] || fail "-n: exit $rc (want 1)"
grep -q 'would install: tmux qemu-system-x86 debootstrap' "$T/err" ||
	fail "-n: does not say what it would install: $(cat "$T/err")"
[ -s "$T/calls" ] && fail "-n: ran $(calls)"

# a word it does not know: usage, exit 2
FAKE_UID=0 deps vms
[ $rc = 2 ] || fail "an unknown word: exit $rc (want 2)"

# make check-vm installs before anything else, as make check does
if command -v make > /dev/null; then
	make -n -C "$TOP" --no-print-directory check-vm > "$T/make" 2>&1
	first=$(grep -n -m 1 'deps.sh' "$T/make" | cut -d: -f1)
	vm=$(grep -n -m 1 'tests/vm/run.sh' "$T/make" | cut -d: -f1)
	[ "$(sed -n "${first:-0}p" "$T/make" 2>/dev/null)" = "sh .ci/deps.sh vm" ] &&
		[ "${first:-0}" = 1 ] && [ -n "$vm" ] ||
		fail "make -n check-vm does not start with 'sh .ci/deps.sh vm' before tests/vm/run.sh: $(head -n 3 "$T/make")"
fi

[ $fails = 0 ] && echo "test_deps: ok"
[ $fails = 0 ]
