#!/bin/sh
# SPDX-License-Identifier: MIT
# The demo menu takes every number it lists: 10 to 12 as well as 1-9.
# "1" waits for a second digit (or Enter); "2" of 12 demos loads at once.
# Ctrl-D opens the menu as F3 does.
. "$(dirname "$0")/lib.sh"

start
ready
keys F3
wait_for "Demos (F3)"
type_text '1'
wait_for "Enter loads 1, or type its next digit"
type_text '1'
wait_for "chart.py"
wait_gone "Demos (F3)"
keys F3
wait_for "Demos (F3)"
type_text '12'
wait_for "big_data_sample.py"
keys C-d
wait_for "Demos (F3)"
type_text '10'
wait_for "data_analysis.py"
keys F3
wait_for "Demos (F3)"
type_text '1'
wait_for "Enter loads 1"
keys Enter
wait_for "network.py"
keys F3
wait_for "Demos (F3)"
type_text '2'
wait_for "system_files.py"
wait_gone "Demos (F3)"
echo "$NAME: ok"
