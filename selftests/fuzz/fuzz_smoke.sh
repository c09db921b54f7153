#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A fuzz run with a fixed seed: the kernel must survive it without a splat
# (the VM harness checks the log), every worker must finish, and the suite
# must work and unload afterwards.  Short on Debian's kernel ("make check");
# on the debug kernel (fault injection present: "make check-debug") the
# tier's budget of 200,000 calls, under KASAN, lockdep and kmemleak.
cd "$(dirname "$0")" || exit 1
seed=${FUZZ_SEED:-20261129}
if [ -d /sys/kernel/debug/failslab ]; then
	exec ./fpga_fuzz -s "$seed" -w 4 -n 50000 -t 1500
fi
exec ./fpga_fuzz -s "$seed" -w 3 -n 20000 -t 40
