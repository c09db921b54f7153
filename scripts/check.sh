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
passed=0
failed=0

pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

# step NAME COMMAND...: one test; output kept in build/logs/NAME.log
step()
{
	name=$1
	shift
	if "$@" > "$logs/$name.log" 2>&1; then
		pass "$name"
	else
		fail "$name (log: $logs/$name.log)"
		tail -n 20 "$logs/$name.log" | sed 's/^/     | /'
	fi
}

echo "== build and lint"
step checkpatch scripts/checkpatch.sh
step kconfig-valid scripts/kconfig-check.sh "$($M -s print-kdir)"
step modules-w1-sparse-werror $M modules-check
step user-werror $M user
step user-tests-valgrind $M -C user valgrind
step selftests-build $M selftests

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
vm_out=$logs/vm-run.txt
scripts/vm/run-vm --kernel "/boot/vmlinuz-$kver" \
	--initrd build/initramfs.cpio --log-dir "$logs" \
	--timeout "${VM_TIMEOUT:-480}" --tests "${VM_TESTS:-}" | tee "$vm_out"
summary=$(sed -n 's/^run-vm: \([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$vm_out")
if [ -z "$summary" ]; then
	fail "vm-run (no summary)"
else
	passed=$((passed + ${summary% *}))
	failed=$((failed + ${summary#* }))
fi

echo "== the harness detects failures (each in its own short VM)"
# expect_failure NAME TEST PATTERN: the run must fail, saying PATTERN
expect_failure()
{
	out=$logs/harness-$1.txt
	if scripts/vm/run-vm --kernel "/boot/vmlinuz-$kver" \
		--initrd build/initramfs.cpio --log-dir "$logs" \
		--name "harness-$1" --timeout "$4" --tests "$2" > "$out" 2>&1; then
		fail "harness detects $1 (the run passed)"
	elif grep -q "$3" "$out"; then
		pass "harness detects $1"
	else
		fail "harness detects $1 (no '$3' in $out)"
	fi
}
expect_failure failing-test harness:deliberate_fail \
	"^FAIL harness:deliberate_fail/global.deliberately_fails" 120
expect_failure kernel-warn harness:kernel_warn.sh \
	"^FAIL kernel problem during harness:kernel_warn.sh: .*WARNING:" 120
expect_failure guest-hang harness:guest_hang.sh \
	"^FAIL guest hung .* while running harness:guest_hang.sh" 25

echo "== make check took $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
