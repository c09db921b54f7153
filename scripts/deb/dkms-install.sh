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
top=$(cd "$(dirname "$0")/../.." && pwd)
name=$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' "$top/dkms.conf")
version=$("$top/scripts/build/version")
src=/usr/src/$name-$version

# The package owns /usr/src/fpga-suite-*: leave its files alone and make
# sure its modules are built for these kernels
if dpkg-query -W -f='${Status}\n' fpga-suite-dkms 2>/dev/null | grep -q ' installed$'; then
	pkgver=$(dpkg-query -W -f='${Version}' fpga-suite-dkms)
	echo "dkms-install: the fpga-suite-dkms package ($pkgver) is installed;" \
		"using its modules, not this checkout's (apt remove it first to" \
		"install from here)" >&2
	for kver in "$@"; do
		dkms install -m "$name" -v "${pkgver%-*}" -k "$kver"
	done
	exit 0
fi

if [ -n "$(dkms status -m "$name" -v "$version" 2>/dev/null)" ]; then
	dkms remove -m "$name" -v "$version" --all >/dev/null
fi
"$top/scripts/deb/dkms-source.sh" "$src"

dkms add -m "$name" -v "$version"
for kver in "$@"; do
	dkms build -m "$name" -v "$version" -k "$kver"
	dkms install -m "$name" -v "$version" -k "$kver" --force
done
dkms status -m "$name" -v "$version"
