#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The kernels make check's build matrix builds in CI's hour, for
# build-matrix.sh's arguments: the generic kernel of each line the host
# (or a suite's root) has, and where a suite's VMs boot PREEMPT_RT (its
# newest line) that rt kernel too.  The other rt and cloud flavours are
# built by DKMS in deb-install (the host's, without W=1 and sparse) and
# with W=1 and sparse in make check-full.  Prints nothing for the full
# set: build-matrix.sh then builds every kernel.
#
# usage: ci-kernels.sh ci|full host|SUITE
set -eu
[ $# -eq 2 ] || { echo "usage: $0 ci|full host|SUITE" >&2; exit 2; }
[ "$1" = full ] && exit 0
matrix=$(dirname "$0")/../build/build-matrix.sh
if [ "$2" = host ]; then
	kernels=$("$matrix" --list)
else
	kernels=$("$matrix" --suite "$2" --list)
fi
kernels=$(echo "$kernels" | tr ' ' '\n')
echo "$kernels" | grep -v -e '-rt-' -e '-cloud-'
[ "$2" = host ] || echo "$kernels" | grep -e '-rt-' | tail -n 1
