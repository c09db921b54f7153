#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the Debian packages into OUT, then check them with lintian (errors
# and warnings fail; debian/*.lintian-overrides says why any is accepted).
# dpkg-buildpackage writes next to the source tree, so it builds a copy of
# the tree's files (tracked and new, not ignored ones) inside OUT.
#
# usage: make-deb.sh OUT
set -eu
[ $# -eq 1 ] || { echo "usage: $0 OUT" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
version=$("$top/scripts/build/version")
src=$out/fpga-suite-$version

rm -rf "$out"
mkdir -p "$src"
if git -C "$top" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	(cd "$top" && git ls-files -co --exclude-standard -z)
else
	# A tree without git (a tarball): all but the build products
	(cd "$top" && find . -path ./build -prune -o -type f ! -name '*.o' \
		! -name '*.ko' ! -name '*.a' ! -name '*.cmd' -print0)
fi | (cd "$top" && xargs -0 tar -cf - --no-recursion) | tar -xf - -C "$src"
(cd "$src" && dpkg-buildpackage -b -us -uc)
ls "$out"/*.deb
lintian --fail-on error,warning --info "$out"/*.changes
echo "deb: packages and lintian clean in $out"
