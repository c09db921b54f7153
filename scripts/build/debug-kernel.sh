#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build (once) the debug kernel of "make check-debug" from Debian's
# linux-source of the host's line (scripts/build/host-release.sh: 6.1 on
# bookworm, 6.12 on trixie): allnoconfig +
# scripts/build/debug-kernel/debug.config (and debug-SERIES.config, what
# differs in that line's Kconfig, when there is one), with the suite itself inside the
# tree as drivers/fpga_suite (so that our Kconfig and Kbuild files are used
# as a kernel uses them).
#
# The kernel is cached outside the repository, keyed by a hash of the
# config fragment's options, the source package version and TREE_LAYOUT (bump it when
# the way the tree is prepared changes); a later run with the same key only
# syncs the suite into the tree and rebuilds what changed.  Prints the
# build directory (the KDIR for out-of-tree modules); bzImage is in
# arch/x86/boot/, the installed modules in ../mod-root/.
#
#   debug-kernel.sh          build or update, print the build directory
#   debug-kernel.sh --path   print it if a build is complete, else fail
#   debug-kernel.sh --config configure and check the fragment only (no
#                            build), print the path of the .config
set -euo pipefail

TREE_LAYOUT=1

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
series=$("$here/host-release.sh" series)
pkg=linux-source-$series
tarball=/usr/src/$pkg.tar.xz
[ -r "$tarball" ] || { echo "debug-kernel: $tarball missing (make deps)" >&2; exit 1; }
version=$(dpkg-query -W -f='${Version}' "$pkg")
cache=${FPGA_SUITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fpga-suite}/debug-kernel
# The fragment: the common one, then the line's own (6.12 has no DMA_OPS,
# for one).  Its "# gone: CONFIG_X" lines name common options that line's
# Kconfig no longer has, which the check below then does not look for.
series_fragment=$here/debug-kernel/debug-$series.config
fragment=$(mktemp)
trap 'rm -f "$fragment"' EXIT
fragment_names=debug.config
cat "$here/debug-kernel/debug.config" > "$fragment"
if [ -e "$series_fragment" ]; then
	cat "$series_fragment" >> "$fragment"
	fragment_names="$fragment_names + ${series_fragment##*/}"
fi
gone=$(sed -n 's/^# gone: \(CONFIG_[A-Z0-9_]*\)$/\1/p' "$fragment" | tr '\n' ' ')
# Comments in the fragment do not change the kernel: not in the key
key=$(grep -v -e '^#' -e '^$' "$fragment" | cat - <(echo "$version $TREE_LAYOUT") |
	sha256sum | cut -c1-12)
src=$cache/src-$version
out=$cache/$key
jobs=${JOBS:-$(nproc)}
log() { echo "debug-kernel: $*" >&2; }

if [ "${1:-}" = --path ]; then
	[ -e "$out/.complete" ] || { log "not built yet: make debug-kernel"; exit 1; }
	echo "$out/build"
	exit 0
fi

mkdir -p "$cache"
# One builder of a source tree at a time: it and its builds are shared
# (the 6.1 and 6.12 trees apart).
exec 9>"$cache/.lock-$version"
flock 9

if [ ! -e "$src/.complete" ]; then
	log "extracting $tarball"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xJf "$tarball" -C "$src.tmp" --strip-components=1
	# The suite as a driver directory of the tree
	echo 'source "drivers/fpga_suite/Kconfig"' >> "$src.tmp/drivers/Kconfig"
	echo 'obj-y += fpga_suite/' >> "$src.tmp/drivers/Makefile"
	touch "$src.tmp/.complete"
	mv "$src.tmp" "$src"
fi

# The suite's kernel sources, synced by content so that unchanged files
# keep their timestamps and are not rebuilt.
mkdir -p "$src/drivers/fpga_suite"
rsync -rc --delete --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
	--exclude='.*.cmd' --exclude=modules.order --exclude=Module.symvers \
	--include='/Kconfig' --include='/Kbuild' --include='/kernel/***' \
	--include='/include/***' --exclude='/*' \
	"$repo"/ "$src/drivers/fpga_suite/"

mkdir -p "$out/build"
kmake() { make -s -C "$src" O="$out/build" -j"$jobs" "$@"; }

if [ ! -e "$out/build/.config" ]; then
	log "configuring $out/build (allnoconfig + $fragment_names)"
	kmake KCONFIG_ALLCONFIG="$fragment" allnoconfig >&2
fi
# The suite's options: all of them, as modules
suite_opts=$(sed -n 's/^config \(FPGA_SUITE_[A-Z0-9_]*\)$/\1/p' "$repo/Kconfig")
for opt in $suite_opts; do
	"$src/scripts/config" --file "$out/build/.config" --module "$opt"
done
kmake olddefconfig >&2
# Every line of the fragment must have survived: a dependency that is not
# met drops an option silently otherwise.
missing=0
while read -r line; do
	case "$line" in
	CONFIG_*=n) want="# ${line%=n} is not set" ;;
	CONFIG_*) want=$line ;;
	*) continue ;;
	esac
	case " $gone" in *" ${line%%=*} "*) continue ;; esac
	if ! grep -qxF "$want" "$out/build/.config"; then
		log "option not in the final config: $line"
		missing=1
	fi
done < "$fragment"
for opt in $suite_opts; do
	grep -qx "CONFIG_$opt=m" "$out/build/.config" || {
		log "suite option not enabled (dependencies?): CONFIG_$opt"
		missing=1
	}
done
[ "$missing" -eq 0 ] || exit 1
if [ "${1:-}" = --config ]; then
	echo "$out/build/.config"
	exit 0
fi

start=$(date +%s)
log "building in $out/build with $jobs jobs"
kmake bzImage modules >&2
rm -rf "$out/mod-root.tmp"
kmake INSTALL_MOD_PATH="$out/mod-root.tmp" modules_install >/dev/null
rm -rf "$out/mod-root"
mv "$out/mod-root.tmp" "$out/mod-root"
touch "$out/.complete"
log "built in $(( $(date +%s) - start )) s"
echo "$out/build"
