#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# "make install" (PREFIX=/usr) with "make dkms-source" must install what
# the packages of DEBDIR hold: the same paths, the same modes.  The
# packages add only what Debian requires of every package (changelog and
# copyright in /usr/share/doc/PACKAGE) and the debug info dh_strip moves
# into -dbgsym.
#
# usage: deb-same-files.sh DEBDIR
set -eu
[ $# -eq 1 ] || { echo "usage: $0 DEBDIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/../.." && pwd)
debdir=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

make -s -C "$top" --no-print-directory install DESTDIR="$tmp/root" \
	PREFIX=/usr SPLIT_DEBUG=0 > /dev/null
make -s -C "$top" --no-print-directory dkms-source DESTDIR="$tmp/root" > /dev/null
(cd "$tmp/root" && find . ! -type d -printf '%m %p\n' | sed 's| \./| /|' |
	sort) > "$tmp/make"

for deb in "$debdir"/fpga-suite-dkms_*.deb "$debdir"/fpga-tools_*.deb; do
	dpkg-deb -c "$deb"
done | awk '$1 !~ /^d/ {
		# -rwxr-xr-x -> 755
		m = 0
		for (i = 2; i <= 10; i++)
			m = m * 2 + (substr($1, i, 1) != "-")
		printf "%o %s\n", m, $6
	}' | sed 's| \./| /|' |
	grep -v ' /usr/share/doc/fpga-[a-z-]*/\(changelog\.gz\|copyright\)$' |
	sort > "$tmp/deb"

# gzip'ed man pages: dh_installman compresses what make installs plain
sed -i 's|\(/man/man[0-9]/[^ ]*\)\.gz$|\1|' "$tmp/deb"
if ! diff -u "$tmp/make" "$tmp/deb"; then
	echo "deb-same-files: make install (-) and the packages (+) differ"
	exit 1
fi
echo "deb-same-files: $(wc -l < "$tmp/make") files, the same both ways"
