#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Run the benchmarks of this directory, one after the other: those named
# (run_bench.sh scale port), or all.
cd "$(dirname "$0")" || exit 1
rc=0
if [ $# -eq 0 ]; then
	set -- ./*_bench
else
	for b; do
		[ -x "./${b}_bench" ] || { echo "run_bench: no benchmark $b"; exit 1; }
		shift
		set -- "$@" "./${b}_bench"
	done
fi
for b; do
	echo "== $b"
	"$b" || rc=1
done
exit $rc
