#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A short fuzz run with a fixed seed: the kernel must survive it without a
# splat (the VM harness checks the log), every worker must finish, and the
# suite must work and unload afterwards.
cd "$(dirname "$0")" || exit 1
exec ./fpga_fuzz -s "${FUZZ_SEED:-20261129}" -w 3 -n 20000 -t 40
