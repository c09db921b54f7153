#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The VM on a kernel of another suite (Debian 13's 6.12, trixie-backports'
# 7.x, sid's): its image unpacked in the suite's root, our modules built
# there by the build matrix, our tools and tests from the stage directories
# (make stage; they do not depend on the kernel), then run-vm.
#
# usage: suite-vm.sh [--built] SUITE KVER IMAGE STAGE_DIR... [-- RUN_VM_ARGS...]
#   IMAGE: the initramfs to write; RUN_VM_ARGS: run-vm's, without --kernel
#   and --initrd.  Without "--", only makes the image and prints the path
#   of the kernel to boot it with (make check runs the VM itself).
#   --built: the matrix has just built the modules for KVER (make check's
#   build-matrix step): use them as they are.
set -eu

built=false
[ "${1:-}" = --built ] && { built=true; shift; }
[ $# -ge 4 ] || { echo "usage: $0 [--built] SUITE KVER IMAGE STAGE_DIR... [-- RUN_VM_ARGS...]" >&2; exit 2; }
suite=$1
kver=$2
image=$3
shift 3
top=$(cd "$(dirname "$0")/../.." && pwd)

stages=""
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	stages="$stages $1"
	shift
done
run=false
[ "${1:-}" = -- ] && { run=true; shift; }

vmlinuz=$("$top/scripts/build/suite-root.sh" --image "$suite" "$kver")
root=$("$top/scripts/build/suite-root.sh" "$suite")
$built || "$top/scripts/build/build-matrix.sh" --suite "$suite" "$kver"
matrix=$("$top/scripts/build/build-matrix.sh" --suite "$suite" --where)
[ -d "$root$matrix/$kver/kernel" ] ||
	{ echo "suite-vm: no modules built for $kver in the $suite root" >&2; exit 1; }

# The kselftests' own modules (make stage builds them for the host's
# kernel), built for KVER in the root, over the stage's
tests=${matrix%/matrix}/test-modules/$kver
rm -rf "$root$tests"
for d in $(make -s -C "$top" print-test-module-dirs); do
	d=${d#selftests/}
	mkdir -p "$root$tests/src/$d" "$root$tests/stage/ksft/${d%/*}"
	cp "$top/selftests/$d/Kbuild" "$top/selftests/$d"/*.c "$root$tests/src/$d/"
	"$top/scripts/build/suite-root.sh" --run "$suite" make -s \
		-C "/lib/modules/$kver/build" M="$tests/src/$d" modules >&2
	cp "$root$tests/src/$d"/*.ko "$root$tests/stage/ksft/${d%/*}/"
done

# shellcheck disable=SC2086
MODROOT=$root/images/$kver MODULES_DIR=$root$matrix/$kver/kernel \
	MODULES_BUILT_AS=$matrix/$kver/kernel \
	"$top/scripts/vm/mkinitramfs.sh" "$kver" "$image" $stages \
	"$root$tests/stage" >&2
$run || { echo "$vmlinuz"; exit 0; }
exec "$top/scripts/vm/run-vm" --kernel "$vmlinuz" --initrd "$image" "$@"
