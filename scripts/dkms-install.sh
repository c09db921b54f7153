#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Register this tree with DKMS and build and install its modules for each
# KVER (which need not be the running kernel): the same path "dkms install"
# takes on a user's machine.  Any earlier registration of the same version
# is removed first, so the installed modules always match this tree.
#
# usage: dkms-install.sh KVER [KVER...]
set -eu
[ $# -ge 1 ] || { echo "usage: $0 KVER [KVER...]" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$top/dkms.conf")
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
src=/usr/src/$name-$version

if [ -n "$(dkms status -m "$name" -v "$version" 2>/dev/null)" ]; then
	dkms remove -m "$name" -v "$version" --all >/dev/null
fi

# The DKMS source tree: what the modules build needs, no build products.
rm -rf "$src"
mkdir -p "$src/scripts"
cp "$top/Makefile" "$top/Kconfig" "$top/dkms.conf" "$src/"
cp "$top/scripts/kconfig-defaults" "$top/scripts/dkms-modules" "$src/scripts/"
[ -d "$top/include" ] && cp -r "$top/include" "$src/"
(cd "$top" && find kernel -name Kbuild -o -name '*.mk' -o -name '*.[ch]' ! -name '*.mod.c') |
while read -r f; do
	mkdir -p "$src/$(dirname "$f")"
	cp "$top/$f" "$src/$f"
done

dkms add -m "$name" -v "$version"
for kver in "$@"; do
	dkms build -m "$name" -v "$version" -k "$kver"
	dkms install -m "$name" -v "$version" -k "$kver" --force
done
dkms status -m "$name" -v "$version"
