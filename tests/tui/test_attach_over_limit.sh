#!/bin/sh
# SPDX-License-Identifier: MIT
# A file bigger than the disk limit is refused when attached (issue 29:
# it was taken silently and the run then failed with no record): F7 says
# both sizes and attaches nothing, and the run goes on without it.
. "$(dirname "$0")/lib.sh"
need_sandbox

truncate -s 3M "$T/big.csv"
printf 'import os\nprint("SEES", sorted(os.listdir(".")))\n' > "$T/ls.py"
start --disk 2M "$T/ls.py"
ready
keys F7
wait_for "No files attached"
type_text "$T/big.csv"
keys Enter
wait_for "not attached - see Output"
wait_for "F7: not attached: file '"
wait_for "3145728 bytes"
# the Output pane's text, its wrapped rows joined
joined() { screen | awk -F'│' '{ print $2 }' | tr -s ' \n' '  '; }
joined | grep -q "big.csv' is 3 MiB (3145728 bytes) and does not fit" ||
	fail "the refusal does not say the file's size"
joined | grep -q "holds 2 MiB (the disk limit, --disk); raise the disk limit" ||
	fail "the refusal does not say the limit"
screen | grep -q "files in: big.csv" && fail "the refused file was attached"
keys Escape
keys F5
wait_for "SEES" 30
screen | grep "SEES" | grep -q "big.csv" && fail "the refused file reached the run"
keys C-q
wait_exit
echo "$NAME: ok"
