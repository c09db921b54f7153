#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Print the path of the parts of Debian's linux-source-6.1 the suite uses
# (checkpatch, the kselftest harness, the DFL sysfs ABI), extracting them once into a cache
# outside the repository keyed by the package version.
set -eu

tarball=/usr/src/linux-source-6.1.tar.xz
[ -r "$tarball" ] || { echo "linux-source.sh: $tarball missing (make deps)" >&2; exit 1; }
version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
cache=${FPGA_SUITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fpga-suite}
# The suffix names the set of parts extracted: a new part, a new suffix
dir=$cache/linux-source-$version-2

if [ ! -e "$dir/.complete" ]; then
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	tar -xJf "$tarball" -C "$dir.tmp" --strip-components=1 \
		--wildcards 'linux-source-6.1/scripts/*' \
		'linux-source-6.1/tools/testing/selftests/kselftest*' \
		'linux-source-6.1/tools/testing/selftests/lib.mk' \
		'linux-source-6.1/tools/testing/selftests/run_kselftest.sh' \
		'linux-source-6.1/Documentation/ABI/testing/sysfs-platform-dfl-*' \
		'linux-source-6.1/Documentation/ABI/testing/sysfs-class-fpga-region' >&2
	touch "$dir.tmp/.complete"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
fi
echo "$dir"
