#!/bin/sh
# SPDX-License-Identifier: MIT
# The Carry pane: Ctrl-O asks before a file replaces values in it, and
# Ctrl-Z brings them back; Ctrl-Delete clears it, after a question, and
# Ctrl-Z brings that back too. An empty buffer is loaded without asking.
. "$(dirname "$0")/lib.sh"

mkdir -p "$XDG_STATE_HOME/sandpit"
printf '{"kept_value": 1}\n' > "$XDG_STATE_HOME/sandpit/carry.json"
printf '{"other_value": 2}\n' > "$T/other.json"
start
ready
wait_for '"kept_value": 1'
keys C-w C-w C-w C-w
wait_for "[ Carry ]"
keys C-o
wait_for "Load carry buffer"
type_text "$T/other.json"
keys Enter
wait_for "Replace the carry buffer"
wait_for "holds values"
type_text 'y'
wait_for '"other_value": 2'
wait_gone '"kept_value": 1'
keys C-z
wait_for '"kept_value": 1'
wait_gone '"other_value": 2'
# no: nothing changes
keys C-o
wait_for "Load carry buffer"
type_text "$T/other.json"
keys Enter
wait_for "Replace the carry buffer"
type_text 'n'
wait_status "the carry buffer is as it was"
screen | grep -q '"kept_value": 1' || fail "answering no changed the buffer"
# Ctrl-Delete clears, after a question; Ctrl-Z brings it back
keys C-DC
wait_for "Clear the carry buffer"
type_text 'y'
wait_gone '"kept_value": 1'
wait_for "empty: the next run gets nothing"
keys C-z
wait_for '"kept_value": 1'
keys C-DC
wait_for "Clear the carry buffer"
keys Escape
wait_gone "Clear the carry buffer"
screen | grep -q '"kept_value": 1' || fail "Esc at the question cleared the buffer"
# an empty buffer is replaced without a question
keys C-DC
wait_for "Clear the carry buffer"
type_text 'y'
wait_for "empty: the next run gets nothing"
keys C-o
wait_for "Load carry buffer"
type_text "$T/other.json"
keys Enter
wait_for '"other_value": 2'
screen | grep -q "Replace the carry buffer" && fail "an empty buffer asked before loading"
echo "$NAME: ok"
