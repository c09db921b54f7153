#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run every benchmark of this directory, one after the other.
cd "$(dirname "$0")" || exit 1
rc=0
for b in ./*_bench; do
	echo "== $b"
	"$b" || rc=1
done
exit $rc
