#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The debug tier's fuzz run ("make check-debug"): 4 workers of 50,000
# calls, 200,000 in all, under KASAN, lockdep and kmemleak, with a fixed
# seed.  Only there: on a kernel without fault injection (Debian's, "make
# check") it skips, the smoke run covers it.  The time limit guards against
# a hang (alone in the machine the debug kernel makes the 200,000 calls in
# about 15 minutes); a run that the limit cut short fails, as the budget
# is the point.
cd "$(dirname "$0")" || exit 1
if [ ! -d /sys/kernel/debug/failslab ]; then
	echo "# not the debug kernel: skipped (fuzz_smoke.sh runs here)"
	exit 4
fi
budget=200000
workers=4
log=/tmp/fuzz_debug.$$
./fpga_fuzz -s "${FUZZ_SEED:-20261130}" -w $workers -n $((budget / workers)) \
	-t 2700 | tee "$log"
rc=$?
# tee's status is the pipeline's; fpga_fuzz says FAILED or done
grep -q '^# fpga_fuzz seed [0-9]*: [0-9]* calls, done$' "$log" || rc=1
calls=$(sed -n 's/^# fpga_fuzz seed [0-9]*: \([0-9]*\) calls.*/\1/p' "$log")
rm -f "$log"
if [ "${calls:-0}" -lt $budget ]; then
	echo "# ${calls:-no} calls of the $budget budget: the time limit came first"
	exit 1
fi
exit $rc
