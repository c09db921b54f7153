#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the parts of the OPAE SDK the interoperability tests run (libopae-c,
# its xfpga plugin, fpgainfo, hello_fpga, hello_events, fpgaconf, fpgadiag
# with its nlb programs, and host_exerciser where Debian's CLI11 and spdlog
# are installed) from the unmodified snapshot beside the checkout
# (../shared/third_party), offline, and install them under a root of their
# own (prefix /usr) for the VM's initramfs.  OPAE is a test client, not
# part of the suite: the build is cached outside the repository, keyed by
# the snapshot, this script and whether host_exerciser can be built, like
# the debug kernel.
#
# fpgadiag is a Python script (-m read runs nlb3 --mode=read) that OPAE
# installs only with its pybind11 extensions, as a Python package: here it
# is the script alone, beside the programs it runs.
#
# usage: opae-build.sh          build if needed; print the root
#        opae-build.sh --path   print the root if it is built, else fail
#   OPAE_TARBALL=FILE  the snapshot (default: opae-sdk-*.tar.xz in
#                      ../shared/third_party of the checkout, or of the
#                      local repository it was cloned from)
#   FPGA_SUITE_CACHE=DIR  the cache (default ~/.cache/fpga-suite)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${FPGA_SUITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fpga-suite}
tarball=${OPAE_TARBALL:-}
beside=$(cd "$top/.." && pwd)/shared/third_party
# Beside the checkout; a clone elsewhere (as CI makes) finds it beside the
# local repository it was cloned from
if [ -z "$tarball" ]; then
	origin=$(git -C "$top" config --get remote.origin.url 2>/dev/null || :)
	for d in "$beside" ${origin:+"$origin/../shared/third_party"}; do
		for f in "$d"/opae-sdk-*.tar.xz; do
			[ -f "$f" ] && { tarball=$f; break 2; }
		done
	done
fi
[ -n "$tarball" ] && [ -f "$tarball" ] || {
	echo "opae-build: no OPAE SDK snapshot: set OPAE_TARBALL=FILE${OPAE_TARBALL:+ (not a file: $OPAE_TARBALL)}, or put opae-sdk-*.tar.xz in $beside" >&2
	exit 1
}
# host_exerciser needs CLI11 and spdlog (scripts/build/deps.sh): without
# them OPAE would download them, so it is left out
he=no
pkg-config --exists CLI11 spdlog 2>/dev/null && he=yes
key=$( (cat "$tarball" "$0"; echo "host_exerciser=$he") | sha256sum | cut -c1-12)
dir=$cache/opae-$key
root=$dir/root

# What a usable root holds: the tests need all of these
complete()
{
	for t in fpgainfo hello_fpga hello_events fpgaconf fpgadiag nlb3; do
		[ -x "$root/usr/bin/$t" ] || return 1
	done
	ls "$root"/usr/lib*/*/opae/libxfpga.so "$root"/usr/lib*/opae/libxfpga.so \
		2>/dev/null | grep -q . &&
		[ -f "$dir/done" ]
}

if [ "${1:-}" = --path ]; then
	complete || { echo "opae-build: not built ($dir)" >&2; exit 1; }
	echo "$root"
	exit 0
fi
if complete; then
	echo "$root"
	exit 0
fi

log=$dir.log
mkdir -p "$cache"
# One build is kept: the older ones go
rm -rf "$cache"/opae-*
tmp=$cache/opae-$key.tmp
mkdir -p "$tmp/src"
echo "opae-build: building OPAE from $(basename "$tarball") in $tmp (log: $log)" >&2
{
	tar -xJf "$tarball" -C "$tmp/src" --strip-components=1
	# Every optional dependency but CLI11 and spdlog (host_exerciser's)
	# off, and those off unless installed, so that CMake downloads nothing
	with=$([ $he = yes ] && echo ON || echo OFF)
	cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_INSTALL_PREFIX=/usr \
		-DFETCHCONTENT_FULLY_DISCONNECTED=ON -DOPAE_BUILD_TESTS=OFF \
		-DOPAE_WITH_CLI11=$with -DOPAE_WITH_SPDLOG=$with \
		-DOPAE_WITH_LIBEDIT=OFF -DOPAE_WITH_PYBIND11=OFF \
		-DOPAE_WITH_HWLOC=OFF -DOPAE_WITH_TBB=OFF -DOPAE_WITH_NUMA=OFF
	make -C "$tmp/build" -j"$(nproc)" xfpga opaeuio hello_fpga hello_events \
		fpgainfo fpgaconf nlb0 nlb3 nlb7
	# Built with bookworm's CLI11 and spdlog; a release whose versions
	# OPAE's code does not take loses only host_exerciser (its tests skip)
	if [ $he = yes ] && ! make -C "$tmp/build" -j"$(nproc)" host_exerciser; then
		echo "opae-build: host_exerciser did not build: its tests will skip"
		he=failed
	fi
	# Only the directories of what was built: a whole install would
	# build the rest and run OPAE's pip steps.  A directory's install
	# stops at the first program of it not built (its samples): what
	# the tests need is checked after
	for d in libraries/libopae-c libraries/libopaeuio \
		libraries/plugins/xfpga binaries/fpgainfo samples/hello_fpga \
		samples/hello_events libraries/libbitstream \
		libraries/libopaecxx libraries/c++utils binaries/fpgaconf \
		binaries/fpgadiag \
		$([ $he = yes ] && echo samples/host_exerciser); do
		DESTDIR=$tmp/root cmake -P "$tmp/build/$d/cmake_install.cmake"
	done
	# fpgadiag, a script, beside the programs it runs
	install -m 0755 "$tmp/src/binaries/fpgadiag/opae/diag/fpgadiag.py" \
		"$tmp/root/usr/bin/fpgadiag"
	# The VM runs them: no headers or sources
	rm -rf "$tmp/root/usr/include" "$tmp/root/usr/src"
} > "$log" 2>&1 || {
	tail -n 20 "$log" >&2
	echo "opae-build: failed (log: $log)" >&2
	exit 1
}
mkdir -p "$dir"
mv "$tmp/root" "$root"
rm -rf "$tmp"
touch "$dir/done"
complete || { echo "opae-build: the install lacks a part (log: $log)" >&2; exit 1; }
echo "$root"
