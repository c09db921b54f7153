#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the OPAE SDK snapshot the OPAE stages use: OPAE_TARBALL, else
# opae-sdk-*.tar.xz in ../shared/third_party of the checkout, or of the
# local repository it was cloned from (as CI clones it elsewhere).  Fails,
# saying so, if there is none.
#
# (opae-build.sh finds it the same way, in its own text: that text is its
# cache key, and it takes this script when it next changes for a reason
# of its own.)
#
# usage: opae-tarball.sh
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tarball=${OPAE_TARBALL:-}
beside=$(cd "$top/.." && pwd)/shared/third_party
if [ -z "$tarball" ]; then
	origin=$(git -C "$top" config --get remote.origin.url 2>/dev/null || :)
	for d in "$beside" ${origin:+"$origin/../shared/third_party"}; do
		for f in "$d"/opae-sdk-*.tar.xz; do
			[ -f "$f" ] && { tarball=$f; break 2; }
		done
	done
fi
if [ -z "$tarball" ] || [ ! -f "$tarball" ]; then
	echo "opae: no OPAE SDK snapshot: set OPAE_TARBALL=FILE${OPAE_TARBALL:+ (not a file: $OPAE_TARBALL)}, or put opae-sdk-*.tar.xz in $beside" >&2
	exit 1
fi
echo "$tarball"
