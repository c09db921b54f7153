#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A short fuzz run with a fixed seed: the kernel must survive it without a
# splat (the VM harness checks the log), every worker must finish, and the
# suite must work and unload afterwards.  First, fpga_fuzz itself refuses
# bad arguments (status 2) before it touches anything.
cd "$(dirname "$0")" || exit 1
for args in "-t 1.5" "-n 12abc" "-s -1" "-w 0" "-w 99" "-n 0" "-c port,bogus"; do
	# shellcheck disable=SC2086 # one word per option and value
	./fpga_fuzz $args > /dev/null 2>&1
	rc=$?
	if [ $rc -ne 2 ]; then
		echo "# fpga_fuzz $args: status $rc, expected 2"
		exit 1
	fi
done
exec ./fpga_fuzz -s "${FUZZ_SEED:-20261129}" -w 3 -n 20000 -t 40
