#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# "make check": lint, build with warnings as errors, install the modules
# with DKMS, run every selftest in a VM, then prove that the VM harness
# reports a failing test, a kernel WARN and a hung guest as failures.
# Ends with the line "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
logs=$top/build/logs
mkdir -p "$logs"
MAKE=${MAKE:-make}
M="$MAKE --no-print-directory"
start=$(date +%s)
. "$top/scripts/check-lib.sh"

echo "== build and lint"
step checkpatch scripts/checkpatch.sh
step kconfig-valid scripts/kconfig-check.sh "$($M -s print-kdir)"
step modules-w1-sparse-werror $M modules-check
step user-werror $M user
step user-tests-valgrind $M -C user valgrind
step selftests-build $M selftests
step harness-judge-unit python3 scripts/vm/test-run-vm

kver=$($M -s print-kver)
echo "== DKMS install for $kver"
step dkms-install $M dkms-install
if dkms status -m fpga-suite -k "$kver" 2>/dev/null | grep -q installed; then
	pass "dkms-status-installed"
else
	fail "dkms-status-installed"
fi

echo "== selftests in the VM"
step initramfs $M initramfs
vm_kernel=/boot/vmlinuz-$kver
vm_initrd=build/initramfs.cpio
vm_tests vm "${VM_TIMEOUT:-480}" "${VM_TESTS:-}"

echo "== the harness detects failures (each in its own short VM, side by side)"
# The failure and, under it, the assertion that failed
expect_failure_start failing-test harness:deliberate_fail \
	"^     | deliberate_fail.c:[0-9]*:deliberately_fails:Expected 1 (1) == 2 (2)" 120
expect_failure_start kernel-warn harness:kernel_warn.sh \
	"^FAIL kernel problem during harness:kernel_warn.sh: .*WARNING:" 120
expect_failure_start guest-hang harness:guest_hang.sh \
	"^FAIL guest hung .* while running harness:guest_hang.sh" 40
expect_failure_wait

finish "$start"
