#!/bin/sh
# SPDX-License-Identifier: MIT
# Open a file, type code, run it: the output appears and the status says ok.
. "$(dirname "$0")/lib.sh"
need_sandbox

printf 'print("from the file")\n' > "$T/hello.py"
start "$T/hello.py"
ready
wait_for "from the file"
keys C-End Enter
type_text 'print("typed", 6 * 7)'
keys F5
wait_for "typed 42"
wait_status "ok"
screen | grep -q "run 1" || fail "no run header"
keys C-s
wait_for "saved"
grep -q 'print("typed", 6 \* 7)' "$T/hello.py" || fail "the typed line was not saved"
keys C-q
wait_exit
echo "$NAME: ok"
