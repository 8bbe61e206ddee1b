#!/bin/sh
# SPDX-License-Identifier: MIT
# The playground keeps a run's files only in a runs/ of the user's own:
# a symbolic link planted in its place (to a directory of run-named
# entries and a file of the user's) gets nothing written into it and
# nothing removed from it; Output says why the run's files are not kept.
# As root, a runs/ owned by another uid is refused the same way.
. "$(dirname "$0")/lib.sh"
need_sandbox

mkdir -p "$XDG_CONFIG_HOME/sandpit" "$XDG_STATE_HOME/sandpit"
printf 'keep_runs = 2\n' > "$XDG_CONFIG_HOME/sandpit/config"
cat > "$T/out.py" <<'PY'
open("out.txt", "w").write("left by the run\n")
print("wrote out.txt")
PY
plant() {
	mkdir -p "$1"
	for i in 1 2 3 4 5; do
		mkdir "$1/20200101-000000-1-$i"
		echo precious > "$1/20200101-000000-1-$i/data"
	done
	echo precious > "$1/notes.txt"
}
entries() { find "$1" | wc -l; }

plant "$T/victim"
ln -s "$T/victim" "$XDG_STATE_HOME/sandpit/runs"
before=$(entries "$T/victim")
start "$T/out.py"
ready
keys F5
wait_status "run 1: ok" 30
[ "$(entries "$T/victim")" -eq "$before" ] ||
	fail "the link was followed: $(entries "$T/victim") entries under it, $before before"
wait_for "is a symbolic link"

if [ "$(id -u)" -eq 0 ]; then
	rm "$XDG_STATE_HOME/sandpit/runs"
	plant "$XDG_STATE_HOME/sandpit/runs"
	chown -R 65534 "$XDG_STATE_HOME/sandpit/runs"
	before=$(entries "$XDG_STATE_HOME/sandpit/runs")
	keys F5
	wait_status "run 2: ok" 30
	[ "$(entries "$XDG_STATE_HOME/sandpit/runs")" -eq "$before" ] ||
		fail "another user's runs/ was changed: $(entries "$XDG_STATE_HOME/sandpit/runs") entries, $before before"
	wait_for "belongs to uid 65534"
fi
echo "ok: runs/ used only when it is the user's own directory"
