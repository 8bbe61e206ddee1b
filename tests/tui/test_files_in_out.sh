#!/bin/sh
# SPDX-License-Identifier: MIT
# Data in, files out, in the playground: F7 attaches a CSV (the list shows
# in the Resources title), F5 runs a program that reads it with pandas and
# writes summary.csv and a chart (plt.show()); the Output pane lists both
# as kept, with a line saying the work dir itself was deleted and this is
# sandpit's copy; the copy is under $XDG_STATE_HOME/sandpit/runs/; F8 views
# the CSV in columns and saves a copy where asked, and the chart large;
# F7 -1 detaches. The playground starts in a directory of the test's
# own with a long name (spaces, UTF-8): the save dialog names it whole,
# wrapped, with the rest of its question (not the checkout's path).
. "$(dirname "$0")/lib.sh"
need_sandbox
here="$T/where the copies go, a directory name as long as a newcomer's, ü é"
mkdir -p "$here" && cd "$here" || fail "cannot make $here"

printf 'city,temp\nOslo,3\nRome,15\n' > "$T/data.csv"
cat > "$T/chain.py" <<'PY'
import pandas as pd, matplotlib.pyplot as plt
df = pd.read_csv("data.csv")
print("rows read:", len(df))
df.groupby("city")["temp"].mean().to_csv("summary.csv")
df.plot(x="city", y="temp", kind="bar")
plt.show()
PY
start "$T/chain.py"
ready
wait_for "F7 attaches files"
keys F7
wait_for "No files attached"
type_text "$T/data.csv"
keys Enter
wait_for "files in: data.csv"
keys F5
wait_for "rows read: 2" 30
wait_status "ok" 30
wait_for "the work dir was deleted, this is sandpit's copy (F8):"
wait_for "summary.csv"
screen | grep -q "figure-1.png.*kept" || fail "the chart is not listed as kept"
screen | grep -q "summary.csv.*kept" || fail "summary.csv is not listed as kept"
screen | grep -q "data.csv.*kept" && fail "the input, unchanged, is listed as output"
kept=$(find "$XDG_STATE_HOME/sandpit/runs" -name summary.csv | head -1)
[ -n "$kept" ] || fail "no copy of summary.csv under the state dir's runs/"
[ "$(cat "$kept")" = "$(printf 'city,temp\nOslo,3.0\nRome,15.0')" ] || fail "the kept CSV is wrong: $(cat "$kept")"

# F8: the list, then the CSV in columns
keys F8
wait_for "Files of run 1 (F8)"
wait_for "The work dir itself was deleted; this is sandpit's copy."
keys Down Enter
wait_for "CSV: 2 rows x 2 columns"
wait_for "Oslo   3.0"
screen | grep -q "city  temp" || fail "the CSV header is not a right-aligned numeric column's"
keys s
wait_box "Save a copy" "Save a copy of this file as a new file, in $here (or give another path): summary.csv"
keys C-u
type_text "saved.csv"
keys Enter
wait_for "saved a copy as "
cmp -s "$kept" "$here/saved.csv" || fail "the saved copy differs from the kept file"
keys Escape
wait_for "Files of run 1 (F8)"
# the chart, large (the image module draws it in cells)
keys Up Enter
wait_for "figure-1.png · 640x480 pixels"
screen | grep -q "not shown" && fail "the chart was not drawn"
keys Escape
wait_for "Files of run 1 (F8)"
keys Escape
wait_gone "Files of run 1 (F8)"

# still attached on the next run; then detached
keys F5
wait_status "run 2: ok" 30
keys F7
wait_for "1 data.csv"
type_text "-1"
keys Enter
wait_for "F7 attaches files"
keys C-q
wait_exit
echo "$NAME: ok"
