#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Exits 0 after making the kernel WARN: only the console log shows the
# problem, and the host must fail the run because of it.
insmod "$(dirname "$0")/harness_warn.ko" || exit 1
rmmod harness_warn
exit 0
