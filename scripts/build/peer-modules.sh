#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The upstream DFL drivers as a yardstick for peer_bench: drivers/fpga's
# FPGA manager, bridge and region cores, dfl, dfl-afu, dfl-fme (with its
# manager, bridge and region) and drivers/uio's uio_dfl, from Debian's
# linux-source of the host's line (scripts/build/host-release.sh: 6.1 on
# bookworm, 6.12 on trixie), built unmodified as out-of-tree modules
# against KVER's headers, with the bench's PCI glue (selftests/bench/peer).
# Nothing of them enters the repository or the suite: the sources are
# extracted into the cache, the modules land in OUTDIR.
#
# usage: peer-modules.sh KVER OUTDIR
set -eu

[ $# -eq 2 ] || { echo "usage: $0 KVER OUTDIR" >&2; exit 2; }
kver=$1
out=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
pkg=linux-source-$("$top/scripts/build/host-release.sh" series)
tarball=/usr/src/$pkg.tar.xz
[ -r "$tarball" ] || { echo "peer-modules.sh: $tarball missing (make deps)" >&2; exit 1; }
kdir=/lib/modules/$kver/build
[ -d "$kdir" ] || { echo "peer-modules.sh: no headers for $kver" >&2; exit 1; }
version=$(dpkg-query -W -f='${Version}' "$pkg")
cache=${FPGA_SUITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fpga-suite}
src=$cache/peer-src-$version

if [ ! -e "$src/.complete" ]; then
	rm -rf "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xJf "$tarball" -C "$src.tmp" --strip-components=1 \
		"$pkg/drivers/fpga" "$pkg/drivers/uio/uio_dfl.c"
	touch "$src.tmp/.complete"
	rm -rf "$src"
	mv "$src.tmp" "$src"
fi

# A build tree per kernel: upstream's files as they are, our glue beside
# (their times kept, so that kbuild rebuilds only what changed)
build=$cache/peer-build-$version-$kver
mkdir -p "$build"
cp -p "$src"/drivers/fpga/fpga-mgr.c "$src"/drivers/fpga/fpga-bridge.c \
	"$src"/drivers/fpga/fpga-region.c "$src"/drivers/fpga/dfl.c \
	"$src"/drivers/fpga/dfl.h "$src"/drivers/fpga/dfl-afu*.[ch] \
	"$src"/drivers/fpga/dfl-fme*.[ch] "$src"/drivers/uio/uio_dfl.c \
	"$top"/selftests/bench/peer/dfl-peer-pci.c "$build"/
cat > "$build"/Kbuild <<'KBUILD'
obj-m += fpga-mgr.o fpga-bridge.o fpga-region.o dfl.o dfl-afu.o dfl-fme.o \
	 dfl-fme-mgr.o dfl-fme-br.o dfl-fme-region.o uio_dfl.o dfl-peer-pci.o
dfl-afu-objs := dfl-afu-main.o dfl-afu-region.o dfl-afu-dma-region.o \
		dfl-afu-error.o
dfl-fme-objs := dfl-fme-main.o dfl-fme-pr.o dfl-fme-error.o dfl-fme-perf.o
KBUILD
make -s -j"$(nproc)" -C "$kdir" M="$build" modules >"$build/build.log" 2>&1 || {
	cat "$build/build.log" >&2
	echo "peer-modules.sh: the upstream DFL drivers did not build" >&2
	exit 1
}
mkdir -p "$out"
cp "$build"/*.ko "$out"/
# Without debug sections, as Debian ships its kernel's modules and DKMS
# installs ours: peer_bench times their loading
strip -g "$out"/*.ko
