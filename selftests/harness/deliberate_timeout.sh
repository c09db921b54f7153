#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Never ends, but is not silent: its own time limit (timeouts) must stop
# it, and the host must report that limit and how long it ran.
n=0
while :; do
	n=$((n + 1))
	echo "# still running, ${n} s"
	sleep 1
done
