#!/bin/sh
# SPDX-License-Identifier: MIT
# The demos of the scientific stack, through the playground: the memory
# demo (7) overflows a NumPy array and a DataFrame, the chart demo (11)
# calls plt.show() and its figure-1.png is kept and listed under the run,
# the big-data demo (12) analyses a sample and keeps by_region.csv, the
# model demo (13) fits a regression with statsmodels and shows its
# parameters as the last value (Out:).
. "$(dirname "$0")/lib.sh"
need_sandbox

start
ready
keys F3
wait_for "Demos (F3)"
keys 7
wait_for "memory_limit.py"
keys F5
wait_for "NumPy: Unable to allocate 763. MiB" 30
wait_for "pandas: Unable to allocate 610. MiB" 30
wait_status "ok" 30

keys F3
wait_for "Demos (F3)"
keys End Up Up Enter
wait_for "chart.py"
keys F5
wait_for "plt.show() saved figure-1.png" 30
wait_status "ok" 30
wait_for "this is sandpit's copy (F8):"
screen | grep -q "figure-1.png.*kept" || fail "the chart is not kept"
find "$XDG_STATE_HOME/sandpit/runs" -name figure-1.png | grep -q . || fail "no figure-1.png under runs/"

keys F3
wait_for "Demos (F3)"
keys End Up Enter
wait_for "big_data_sample.py"
keys F5
wait_for "mean order:" 30
wait_status "ok" 30
screen | grep -q "by_region.csv.*kept" || fail "by_region.csv is not kept"

# the model demo (13): statsmodels, and its last line's value as Out:
keys F3
wait_for "Demos (F3)"
keys End Enter
wait_for "model_fit.py"
keys F5
wait_for "R squared:" 60
wait_status "ok" 60
wait_for "Out:"
wait_for "Intercept"
keys C-q
wait_exit
echo "$NAME: ok"
