#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the path of the parts of a Debian linux-source package the suite
# uses, extracting them once into a cache outside the repository keyed by
# the package version:
#   every series: checkpatch (scripts/), the kselftest harness and lib.mk,
#     the DFL sysfs ABI
#   6.12 also: the ynl netlink tools and the netlink spec schemas (6.1 has
#     none)
# The default series is the host release's (scripts/build/host-release.sh:
# 6.1 on bookworm, 6.12 on trixie).
#
# usage: linux-source.sh [6.1|6.12]
set -eu

series=${1:-$("$(dirname "$0")/host-release.sh" series)}
# The suffix names the set of parts extracted: a new part, a new suffix
set -- 'scripts/*' \
	'tools/testing/selftests/kselftest*' \
	'tools/testing/selftests/lib.mk' \
	'tools/testing/selftests/run_kselftest.sh' \
	'Documentation/ABI/testing/sysfs-platform-dfl-*' \
	'Documentation/ABI/testing/sysfs-class-fpga-region'
case "$series" in
6.1)
	parts_id=2
	;;
6.12)
	parts_id=2
	set -- "$@" 'tools/net/ynl/*' 'Documentation/netlink/*'
	;;
*)
	echo "linux-source.sh: no parts known of linux-source-$series" >&2
	exit 2
	;;
esac

pkg=linux-source-$series
tarball=/usr/src/$pkg.tar.xz
[ -r "$tarball" ] || { echo "linux-source.sh: $tarball missing (make deps)" >&2; exit 1; }
version=$(dpkg-query -W -f='${Version}' "$pkg")
cache=${FPGA_SUITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fpga-suite}
dir=$cache/linux-source-$version-$parts_id

if [ ! -e "$dir/.complete" ]; then
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	members=""
	for part in "$@"; do
		members="$members $pkg/$part"
	done
	set -f	# the parts are tar's patterns, not the shell's
	# shellcheck disable=SC2086
	tar -xJf "$tarball" -C "$dir.tmp" --strip-components=1 \
		--wildcards $members >&2
	touch "$dir.tmp/.complete"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
fi
echo "$dir"
