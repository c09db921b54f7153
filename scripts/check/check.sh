#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# "make check": lint, build with warnings as errors, build the Debian
# packages and install them (their postinst builds the modules with DKMS),
# run every selftest in a VM on what they installed, prove that the VM
# harness reports a failing test, a kernel WARN, a test past its own time
# limit and a hung (silent) guest as failures, and purge the packages.
# Ends with the line "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
logs=$top/build/logs
mkdir -p "$logs"
# FPGA_CHECK_SET=full (make check-full): every collection on every kernel;
# ci (the default): what fits CI's hour, as the comments below say
set=${FPGA_CHECK_SET:-ci}
MAKE=${MAKE:-make}
M="$MAKE --no-print-directory"
start=$(date +%s)
. "$top/scripts/check/check-lib.sh"
# bookworm or trixie (scripts/build/host-release.sh): which kernels are the
# host's own (its DKMS, its main VM), which come from a root of another
# suite
host=$(scripts/build/host-release.sh) || exit 1

echo "== build and lint"
step checkpatch scripts/build/checkpatch.sh
step kconfig-valid scripts/build/kconfig-check.sh "$($M -s print-kdir)"
# W=1, sparse, -Werror against each kernel the host's release ships
# (bookworm: 6.1 and 6.12, trixie: 6.12; generic, rt, cloud; the VM's
# among them).  CI's hour (scripts/check/ci-kernels.sh): the VM's generic
# kernel (bookworm's 6.12 line is trixie's, built below); deb-install
# builds every flavour of the host's kernels with DKMS (as the package's
# postinst does), check-full all of them with W=1 and sparse
# shellcheck disable=SC2046
step build-matrix scripts/build/build-matrix.sh \
	$(scripts/check/ci-kernels.sh "$set" host)
# On trixie, bookworm's 6.1 in a bookworm root, as trixie's kernels are
# built in a trixie root on bookworm
# shellcheck disable=SC2046
[ "$host" = trixie ] &&
	step build-matrix-bookworm scripts/build/build-matrix.sh --suite bookworm \
		$(scripts/check/ci-kernels.sh "$set" bookworm)
# and against Debian 13's: trixie's 6.12 and trixie-backports' 7.x,
# generic, rt and cloud (CI: the generic ones and 7.x rt, the kernels its
# VMs boot), in a root of that suite with its own compiler
# (made once and cached: scripts/build/suite-root.sh).  sid's newest only
# in check-full: it changes every few weeks, make kernels-newest watches it
# shellcheck disable=SC2046
step build-matrix-trixie scripts/build/build-matrix.sh --suite trixie \
	$(scripts/check/ci-kernels.sh "$set" trixie)
[ "$set" = full ] &&
	step build-matrix-sid scripts/build/build-matrix.sh --suite sid
step user-werror $M user
# and with the flags the .deb builds them with (debian/rules' hardening):
# -D_FORTIFY_SOURCE makes an ignored result of symlink() an error.  From
# scratch, as the flags change with the host's dpkg
rm -rf build/user-deb-flags
# shellcheck disable=SC2016
step user-werror-deb-flags sh -c 'f=$(DEB_BUILD_MAINT_OPTIONS=hardening=+all \
	dpkg-buildflags --export=sh) && eval "$f" && exec "$@" -C user \
	O=../build/user-deb-flags' sh $M
# Side by side: valgrind runs one program per CPU
step user-tests-valgrind $M -j"$(nproc)" -C user valgrind
step selftests-build $M -j"$(nproc)" selftests
# Documentation/security.md's permission matrix is perm_test's table
step security-table scripts/check/perm-table.sh
step netlink-spec scripts/check/ynl-check.sh
# README, the man page, the package and the help name no internal issue
step user-docs scripts/check/user-docs.sh
step harness-judge-unit python3 scripts/vm/test-run-vm
# apt is shared with the system: make check's apt waits for its locks
step apt-lock-wait scripts/check/apt-lock-test.sh

# The VM's kernel is named (KERNEL_PKG, or KVER given to make check),
# whatever the host runs or has installed besides
kver=${KVER:-$($M -s print-vm-kver)}
matrix=$(scripts/build/build-matrix.sh --list 2>/dev/null)
echo "== Debian packages: built, lintian, installed with apt as a user does"
# The tools' tests ran above (user-tests-valgrind): not again in the build
step deb env DEB_BUILD_OPTIONS=nocheck $M deb
step deb-same-files scripts/deb/deb-same-files.sh build/deb
step bash-completion bash user/tests/completion_test.sh
# fpga-suite-dkms's own postinst builds the modules: for every kernel with
# headers when the running one is not installed (CI), else for the running
# and the newest; DKMS's kernel hook would build the others as a kernel
# upgrade does, and so does this step for the rest of the matrix
step deb-install scripts/deb/deb-install.sh build/deb
for k in $(echo "$kver" $matrix | tr ' ' '\n' | sort -u); do
	dkms status -m fpga-suite -k "$k" 2>/dev/null | grep -q installed &&
		continue
	[ "$k" = "$kver" ] && continue   # the VM's: the postinst's job
	echo "dkms: $k was not built by the postinst (not running, not newest)"
	dkms install -m fpga-suite -v "$(scripts/build/version)" -k "$k" \
		>> "$logs/deb-install.log" 2>&1
done
# Installed, with exactly the modules Kconfig enables for that kernel
for k in $(echo "$kver" $matrix | tr ' ' '\n' | sort -u); do
	want=$(scripts/deb/dkms-modules . "/lib/modules/$k/build" | sed 's|.*/||' |
	       sort | tr '\n' ' ')
	have=$(cd "/lib/modules/$k/updates/dkms" 2>/dev/null &&
	       ls | sed 's/\.ko.*//' | sort | tr '\n' ' ')
	if dkms status -m fpga-suite -k "$k" 2>/dev/null | grep -q installed &&
	   [ "$want" = "$have" ]; then
		pass "dkms-installed-$k"
	else
		fail "dkms-installed-$k (want: $want; installed: $have)"
	fi
done

echo "== selftests in the VM"
# OPAE's tools for selftests/opae: built once from ../shared/third_party,
# cached outside the tree, put in the VM's image
step opae-build scripts/build/opae-build.sh
step initramfs $M initramfs KVER="$kver" VM_MODULES=dkms VM_TOOLS=deb
vm_kernel=/boot/vmlinuz-$kver
vm_initrd=build/initramfs.cpio
# The hard limit is derived from the tests' own limits; VM_TIMEOUT, set
# explicitly, replaces it
vm_tests vm "${VM_TIMEOUT:-}" "${VM_TESTS:-}"

echo "== the harness detects failures (each in its own short VM, side by side)"
# The failure and, under it, the assertion that failed
expect_failure_start failing-test harness:deliberate_fail \
	"^     | deliberate_fail.c:[0-9]*:deliberately_fails:Expected 1 (1) == 2 (2)"
expect_failure_start kernel-warn harness:kernel_warn.sh \
	"^FAIL kernel problem during harness:kernel_warn.sh: .*WARNING:"
# A test that keeps printing past its own 5 s limit (harness/timeouts)
expect_failure_start test-timeout harness:deliberate_timeout.sh \
	"^FAIL harness:deliberate_timeout.sh (ran out of its 5 s limit after [0-9]* s)$"
# A guest that prints nothing: hung after 20 s of silence, not at the hard
# limit (guest_hang.sh has no limit of its own)
expect_failure_start guest-hang harness:guest_hang.sh \
	"^FAIL guest silent for 20 s (hung) while running harness:guest_hang.sh" "" 20
expect_failure_wait

# PREEMPT_RT: interrupt handlers in threads, sleeping spinlocks.  The
# tests of the driver paths whose locking, interrupts and timing it
# changes; the tools' tests (fpgactl_*, trace, netlink, the ABI list) run
# the same kernel paths as on the generic kernels
rt_tests="fpga:modules_test,fpga:sim_test,fpga:port_test,fpga:dma_test,\
fpga:dfl_test,fpga:uio_test,fpga:vgem_test,fpga:pmu_test,fpga:pci_test,\
fpga:remote_access_test,\
fpga:perf_test.sh,stress"

# suite_vm NAME SUITE KVER TESTS: TESTS in the VM on a kernel of another
# suite, unpacked in its root, with the modules the matrix built there
suite_vm()
{
	echo "== ${4:-the default collections} in the VM on $3 ($2)"
	vm_initrd=build/initramfs-$1.cpio
	step "initramfs-$1" $M suite-initramfs SUITE="$2" SUITE_KVER="$3" \
		SUITE_IMAGE="$vm_initrd" || return
	vm_kernel=$(scripts/build/suite-root.sh --image "$2" "$3") || return
	vm_tests "vm-$1" "${VM_TIMEOUT:-}" "${VM_TESTS:-$4}"
}

# Debian 13.  CI runs, on each kernel but the main VM's, the tests of the
# paths the compat layer (kernel/compat) switches between kernels: the
# tools' tests run the same kernel paths everywhere, and the main VM runs
# them all.  On trixie's 6.12, the line bookworm's 6.12 is of (check-full
# runs that one too): module load, mmap and its revocation, DMA mapping,
# UIO, DRM, PCI, permissions, and OPAE's tools.  On trixie-backports' 7.x,
# the newest kernel Debian's releases ship, besides those: the DFL bus's
# driver_override, the BMC's SPI controller (sensors), the PMU's cpumask,
# UIO's mmap_prepare through fpgactl, and the stress tests; and the rt
# list on its PREEMPT_RT kernel.  Every collection on both in check-full.
# The root's kernels, in order: 6.12 generic, rt, cloud, then 7.x
# generic, rt, cloud.
t612_tests="fpga:modules_test,fpga:sim_test,fpga:port_test,fpga:dma_test,\
fpga:uio_test,fpga:vgem_test,fpga:pci_test,fpga:perm_test,opae"
t7_tests="$t612_tests,fpga:dfl_test,fpga:sensors_test,fpga:pmu_test,\
fpga:fpgactl_uio_test.sh,stress"
[ "$set" = full ] && t612_tests= && t7_tests=
# shellcheck disable=SC2046
set -- $(scripts/build/build-matrix.sh --suite trixie --list 2>/dev/null)
if [ $# -eq 6 ]; then
	# On trixie its 6.12 is the main VM's kernel
	[ "$host" = trixie ] ||
		suite_vm trixie-6.12 trixie "$1" "$t612_tests"
	suite_vm trixie-7 trixie "$4" "$t7_tests"
	suite_vm trixie-7-rt trixie "$5" "$rt_tests"
else
	fail "trixie-kernels (the trixie root lists: $*)"
fi

# On trixie, bookworm's 6.1 from the bookworm root, as trixie's 6.12 is
# on bookworm
if [ "$host" = trixie ]; then
	# shellcheck disable=SC2046
	set -- $(scripts/build/build-matrix.sh --suite bookworm --list 2>/dev/null)
	if [ $# -eq 3 ]; then
		suite_vm bookworm-6.1 bookworm "$1" "$t612_tests"
	else
		fail "bookworm-kernels (the bookworm root lists: $*)"
	fi
fi

# The host's 6.12 with the modules DKMS built for them, only in
# check-full: on bookworm its 6.12 generic and rt (the line of trixie's
# 6.12, which CI boots); on trixie the rt (its generic is the main VM's)
if [ "$set" = full ]; then
	vm_initrd=build/initramfs.cpio
	if [ "$host" = bookworm ]; then
		kver612=$($M -s print-vm612-kver)
		echo "== fpga and stress selftests in the VM on $kver612"
		step initramfs-6.12 $M initramfs KVER="$kver612" VM_MODULES=dkms VM_TOOLS=deb
		vm_kernel=/boot/vmlinuz-$kver612
		vm_tests vm-6.12 "${VM_TIMEOUT:-}" "${VM_TESTS:-fpga,stress}"
	fi

	kver612rt=$($M -s print-vm612rt-kver)
	echo "== driver selftests in the VM on $kver612rt"
	step initramfs-6.12-rt $M initramfs KVER="$kver612rt" VM_MODULES=dkms VM_TOOLS=deb
	vm_kernel=/boot/vmlinuz-$kver612rt
	vm_tests vm-6.12-rt "${VM_TIMEOUT:-}" "${VM_TESTS:-$rt_tests}"
fi

echo "== the packages purge cleanly"
step deb-purge scripts/deb/deb-purge-check.sh

finish "$start"
