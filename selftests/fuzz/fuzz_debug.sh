#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The debug tier's fuzz run ("make check-debug"): 4 workers of 50,000
# calls, 200,000 in all, under KASAN, lockdep and kmemleak, with a fixed
# seed.  Only there: on a kernel without fault injection (Debian's, "make
# check") it skips, the smoke run covers it.  The time limit only guards
# against a hang (the debug kernel runs about 120 calls/s: 200,000 take
# some 28 minutes); fpga_fuzz reports the calls made.
cd "$(dirname "$0")" || exit 1
if [ ! -d /sys/kernel/debug/failslab ]; then
	echo "# not the debug kernel: skipped (fuzz_smoke.sh runs here)"
	exit 4
fi
exec ./fpga_fuzz -s "${FUZZ_SEED:-20261130}" -w 4 -n 50000 -t 1700
