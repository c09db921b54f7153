#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# "make check-debug": the debug-kernel tier.  Builds (or reuses from the
# cache) a kernel with KASAN, lockdep, kmemleak, fault injection and KUnit
# with the suite inside its tree, builds our modules out of tree against
# it, runs the kselftests, KUnit suites, fault-injection sweeps, stress and
# fuzzing on it, then proves that a KASAN report, a lockdep splat and a
# kmemleak entry each fail a run.  Ends with "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
logs=$top/build/logs/debug
mkdir -p "$logs"
MAKE=${MAKE:-make}
M="$MAKE --no-print-directory"
start=$(date +%s)
. "$top/scripts/check-lib.sh"

# What this tier runs, COLLECTION or COLLECTION:TEST (those the tree has);
# fuzz_debug.sh is the long fuzz run (at least 200,000 calls).
DEBUG_TESTS=${DEBUG_TESTS:-kunit fpga fault stress fuzz:fuzz_debug.sh}

echo "== debug kernel (built once, then cached)"
kstart=$(date +%s)
step debug-kernel-build scripts/debug-kernel.sh
echo "     debug kernel ready in $(( $(date +%s) - kstart )) s"
kdir=$(scripts/debug-kernel.sh --path) || { finish "$start"; exit 1; }
echo "     in $kdir"
kver=$($M -s -C "$kdir" kernelrelease)

# Kconfig is real: the tree's own build made our modules from drivers/.
intree=$kdir/../mod-root/lib/modules/$kver/kernel/drivers/fpga_suite
missing=""
for mod in fpga_dfl fpga_sim fpga_port fpga_fme uio_fpga vgem_ext fpga_dfl_pci \
	fpga_dfl_kunit fpga_fme_kunit fpga_port_kunit fpga_sim_kunit; do
	[ -n "$(find "$intree" -name "$mod.ko" 2>/dev/null)" ] || missing="$missing $mod"
done
if [ -z "$missing" ]; then
	pass "in-tree-build (drivers/fpga_suite, our Kconfig)"
else
	fail "in-tree-build: not built:$missing"
fi

echo "== our modules, out of tree, against the debug kernel"
step debug-modules-werror $M debug-modules
step selftests-build $M selftests
step debug-initramfs $M debug-initramfs

# Two VMs, one after the other: the KUnit suites and kselftests, then
# fault injection and the long fuzz run.  Not side by side: a VM keeps
# both cores busy, so two at once each ran at half speed (no time saved)
# and timing-sensitive tests failed.
main=""
side=""
for t in $DEBUG_TESTS; do
	case "$t" in
	*:*) [ -e "selftests/${t%%:*}/${t#*:}" ] || continue ;;
	*) [ -d "selftests/$t" ] || continue ;;
	esac
	case "$t" in
	fault | fault:* | fuzz | fuzz:*) side="$side${side:+,}$t" ;;
	*) main="$main${main:+,}$t" ;;
	esac
done
vm_kernel=$kdir/arch/x86/boot/bzImage
vm_initrd=build/initramfs-debug.cpio
vm_append=$($M -s print-debug-append)
timeout=${DEBUG_VM_TIMEOUT:-3600}
[ -z "$main" ] || vm_tests debug "$timeout" "$main"
[ -z "$side" ] || vm_tests debug-fault "$timeout" "$side"
# The fuzz run's seed and calls: a failure replays from them
sed -n 's/^[# ]*\(fpga_fuzz seed [0-9]*: .*\)/     \1/p; s/^[# ]*\(replay: .*\)/     \1/p' \
	"$logs/debug-fault-ktap.log" 2>/dev/null

echo "== the sanitizers' reports fail a run"
expect_failure_start kasan harness:kasan_bug.sh \
	"^FAIL kernel problem during harness:kasan_bug.sh: .*BUG: KASAN" 400
expect_failure_start lockdep harness:lockdep_bug.sh \
	"^FAIL kernel problem during harness:lockdep_bug.sh: .*possible circular locking" 400
expect_failure_start kmemleak harness:kmemleak_bug.sh \
	"^FAIL kernel problem .*kmemleak: [0-9]* new suspected" 400
expect_failure_wait

finish "$start"
