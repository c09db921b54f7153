#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Write the DKMS source tree of the suite into DIR (normally
# /usr/src/fpga-suite-VERSION): what building the modules needs and no
# build products, with dkms.conf's version filled in.  Used by both
# "make dkms-install" (from a checkout) and the fpga-suite-dkms package,
# so that the two install the same files.
#
# usage: dkms-source.sh DIR
set -eu
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
dst=$1
version=$("$top/scripts/build/version")

rm -rf "$dst"
mkdir -p "$dst/scripts/build" "$dst/scripts/deb"
install -m 0644 "$top/Makefile" "$top/Kconfig" "$dst/"
sed "s/#MODULE_VERSION#/$version/" "$top/dkms.conf" > "$dst/dkms.conf"
chmod 0644 "$dst/dkms.conf"
install -m 0755 "$top/scripts/build/kconfig-defaults" "$dst/scripts/build/"
install -m 0755 "$top/scripts/deb/dkms-modules" "$dst/scripts/deb/"
(cd "$top" && find include kernel -type f \( -name Kbuild -o -name '*.mk' -o \
	-name '*.[ch]' \) ! -name '*.mod.c' ! -name '*.o' | sort) |
while read -r f; do
	install -D -m 0644 "$top/$f" "$dst/$f"
done
