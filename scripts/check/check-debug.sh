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
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
logs=$top/build/logs/debug
mkdir -p "$logs"
MAKE=${MAKE:-make}
M="$MAKE --no-print-directory"
start=$(date +%s)
. "$top/scripts/check/check-lib.sh"

# What this tier runs, COLLECTION or COLLECTION:TEST (those the tree has).
# DEBUG_SET=full (make check-full, the default): every kselftest, the
# fault-injection sweeps and the long fuzz run (fuzz_debug.sh, at least
# 200,000 calls).  DEBUG_SET=ci (what .ci/run can afford): the KUnit
# suites, the stress and the kselftests of locking, lifetimes and
# hot-unplug (loads and unloads, card removal with files open, mapped and
# DMA in flight, driver switches, a port replaced by a programming while
# it is used, while its card is added or removed), the suite on this
# kernel's own fpga_region (the debug kernel has CONFIG_FPGA_REGION=m: Debian's have
# not), the short fuzz run, and of the fault sweeps those of card
# creation and removal and of the port's calls, each sweep cut to
# FAULT_SECONDS, with no kmemleak scan per scenario
# (FAULT_LEAK_SCAN=end: a scan costs about 25 s on this kernel, nine of
# them were 7 minutes; the VM's closing scan still fails the run on a
# leak, without naming the scenario).  Not pci_test (156 s here, most of
# it the QEMU card's model, polled): the PCI card's removal runs in every
# VM of make check, and under the sanitizers in check-full.
case "${DEBUG_SET:-full}" in
full)
	DEBUG_TESTS=${DEBUG_TESTS:-kunit fpga stress fault fuzz:fuzz_debug.sh}
	;;
ci)
	DEBUG_TESTS=${DEBUG_TESTS:-kunit stress fpga:modules_test fpga:sim_test fpga:fme_test \
fpga:port_test fpga:uio_test fpga:pr_test fpga:port_release_test fpga:sriov_test \
fpga:remote_access_test fpga:bmc_test \
fpga:dfl_collision_test.sh fpga:dfl_abi_test.sh \
fault:fault_card_test \
fault:fault_port_test fuzz:fuzz_smoke.sh}
	fault_seconds=${FAULT_SECONDS:-8}
	fault_leak_scan=end
	;;
*)
	echo "check-debug: DEBUG_SET is full or ci, not '$DEBUG_SET'"
	exit 2
	;;
esac
echo "== debug tier: DEBUG_SET=${DEBUG_SET:-full}: $DEBUG_TESTS"

echo "== debug kernel (built once, then cached)"
kstart=$(date +%s)
step debug-kernel-build scripts/build/debug-kernel.sh
echo "     debug kernel ready in $(( $(date +%s) - kstart )) s"
kdir=$(scripts/build/debug-kernel.sh --path) || { finish "$start"; exit 1; }
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

# One VM for all of them: a debug kernel's boot and shutdown cost about
# 100 s.  The fault sweeps and the fuzzing come last in DEBUG_TESTS, so
# that what they leave reaches no other test.  (Never two VMs side by
# side: a VM keeps both cores busy, and timing-sensitive tests fail.)
tests=""
for t in $DEBUG_TESTS; do
	# A test named here and not built is a mistake, not something to skip
	case "$t" in
	*:*) grep -qx "$t" build/stage/ksft/kselftest-list.txt ;;
	*) grep -q "^$t:" build/stage/ksft/kselftest-list.txt ;;
	esac || { fail "debug tests: no $t in build/stage/ksft"; continue; }
	tests="$tests${tests:+,}$t"
done
vm_kernel=$kdir/arch/x86/boot/bzImage
vm_initrd=build/initramfs-debug.cpio
vm_append="$($M -s print-debug-append)${fault_seconds:+ FAULT_SECONDS=$fault_seconds}\
${fault_leak_scan:+ FAULT_LEAK_SCAN=$fault_leak_scan}"
timeout=${DEBUG_VM_TIMEOUT:-}
vm_silence=$($M -s print-debug-silence)
# Hard limits derived from the tests' own (DEBUG_VM_TIMEOUT replaces them)
[ -z "$tests" ] || vm_tests debug "$timeout" "$tests"
sed -n 's/^[# ]*\(fpga_fuzz seed [0-9]*: .*\)/     \1/p; s/^[# ]*\(replay: .*\)/     \1/p' \
	"$logs/debug-ktap.log" 2>/dev/null

echo "== the sanitizers' reports fail a run"
# One VM commits the three bugs; each report must fail it.  Lockdep first:
# a KASAN report marks lock debugging unreliable and turns lockdep off.
sanitizers="lockdep kasan kmemleak"
out=$logs/harness-sanitizers.txt
scripts/vm/run-vm --kernel "$vm_kernel" --initrd "$vm_initrd" \
	--log-dir "$logs" --name harness-sanitizers --timeout 900 \
	--silence "$vm_silence" --append "$vm_append" \
	--tests "$(printf 'harness:%s_bug.sh,' $sanitizers | sed 's/,$//')" \
	> "$out" 2>&1
for s in $sanitizers; do
	case $s in
	kasan) pattern="^FAIL kernel problem during harness:kasan_bug.sh: .*BUG: KASAN" ;;
	lockdep) pattern="^FAIL kernel problem during harness:lockdep_bug.sh: .*possible circular locking" ;;
	kmemleak) pattern="^FAIL kernel problem .*kmemleak: [0-9]* new suspected" ;;
	esac
	if grep -q "$pattern" "$out"; then
		pass "harness detects $s"
	else
		fail "harness detects $s (no '$pattern' in $out)"
	fi
done

finish "$start"
