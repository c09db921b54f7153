#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The kernels make check's build matrix builds with W=1 and sparse in
# CI's hour, for build-matrix.sh's arguments:
# - on the host, the generic kernel of its first line, the VM's (bookworm:
#   6.1, trixie: 6.12).  Bookworm's 6.12 is the line trixie's 6.12 is of,
#   which the trixie root builds with W=1 and sparse below; DKMS builds
#   every flavour of both lines in deb-install (without W=1 and sparse);
# - in a suite's root, the generic kernel of each line it has and, where
#   its VMs boot PREEMPT_RT (its newest line), that rt kernel too.
# The other kernels are built with W=1 and sparse in make check-full.
# Prints nothing for the full set: build-matrix.sh then builds every
# kernel.
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
if [ "$2" = host ]; then
	echo "$kernels" | grep -v -e '-rt-' -e '-cloud-' | head -n 1
	exit 0
fi
echo "$kernels" | grep -v -e '-rt-' -e '-cloud-'
echo "$kernels" | grep -e '-rt-' | tail -n 1
