#!/bin/sh
# SPDX-License-Identifier: MIT
# The Variables tab's table view (issue 29): Enter on a DataFrame opens its
# first rows as a table, with its shape, a header, the index, numbers
# right-aligned and text left-aligned; arrows scroll by rows and by whole
# columns; Esc closes. An array and a Series open the same way; a plain
# value is still carried by Enter.
. "$(dirname "$0")/lib.sh"
need_sandbox

cat > "$T/frame.py" <<'PY'
import numpy as np
import pandas as pd
df = pd.DataFrame({c: [i * 1234.5678 + 166.05 for i in range(5000)] for c in "abcdefghijklmnop"})
df["city"] = ["Oslo", "Rome"] * 2500
grid = np.arange(12).reshape(3, 4)
ser = pd.Series([1.5, 22.25, 333.125], index=["p", "q", "r"])
PY
start "$T/frame.py"
ready
keys F5
wait_status "ok" 30
keys F12 F12
wait_for "═[ Variables ]"
wait_for "Enter shows the table"
keys Enter
wait_for "df (DataFrame)"
wait_for "5,000 rows x 17 columns, the first 60 rows shown"
# the header, the index, numbers right-aligned under theirs
screen | grep -qE "║ +a +b +c " || fail "no header row"
screen | grep -qE "║ 0 +166\.05 +166\.05 " || fail "the first row is not there, right-aligned"
screen | grep -qE "║ 1 +1400\.6178 +1400\.6178 " || fail "a number lost its decimals"
screen | grep -q "city" && fail "the last column fits at 120 columns? (the test needs it off screen)"
# whole columns to the right: the text column comes into view, left-aligned
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do keys Right; done
wait_for "city"
screen | grep -qE "city +║" || fail "the text column is not left-aligned"
screen | grep -qE "║ 0 .*Oslo" || fail "the index does not stay in place"
keys NPage
wait_for "║ 3"
keys Escape
wait_gone "df (DataFrame)"
wait_for "═[ Variables ]"
# the array, as a table too
keys Down Enter
wait_for "grid (ndarray)"
wait_for "3 rows x 4 columns"
keys Escape
wait_gone "grid (ndarray)"
# a Series, its index and its values
keys Down Enter
wait_for "ser (Series)"
wait_for "3 rows"
screen | grep -qE "║ r +333\.125" || fail "the Series' last value is not beside its index"
keys Escape
wait_gone "ser (Series)"
keys C-q
wait_exit
echo "$NAME: ok"
