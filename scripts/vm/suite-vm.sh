#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The VM on a kernel of another suite (Debian 13's 6.12, trixie-backports'
# 7.x, sid's): its image unpacked in the suite's root, our modules built
# there by the build matrix, our tools and tests from the stage directories
# (make stage; they do not depend on the kernel), then run-vm.
#
# usage: suite-vm.sh SUITE KVER IMAGE STAGE_DIR... -- RUN_VM_ARGS...
#   IMAGE: the initramfs to write; RUN_VM_ARGS: run-vm's, without --kernel
#   and --initrd
set -eu

[ $# -ge 4 ] || { echo "usage: $0 SUITE KVER IMAGE STAGE_DIR... -- RUN_VM_ARGS..." >&2; exit 2; }
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
[ "${1:-}" = -- ] && shift

vmlinuz=$("$top/scripts/build/suite-root.sh" --image "$suite" "$kver")
root=$("$top/scripts/build/suite-root.sh" "$suite")
"$top/scripts/build/build-matrix.sh" --suite "$suite" "$kver"

# shellcheck disable=SC2086
MODROOT=$root/images/$kver MODULES_DIR=$root/build/matrix/$kver/kernel \
	MODULES_BUILT_AS=/build/matrix/$kver/kernel \
	"$top/scripts/vm/mkinitramfs.sh" "$kver" "$image" $stages
exec "$top/scripts/vm/run-vm" --kernel "$vmlinuz" --initrd "$image" "$@"
