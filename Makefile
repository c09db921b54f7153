# SPDX-License-Identifier: GPL-2.0-only
#
# FPGA accelerator suite: kernel modules (DKMS), user tools, kselftests and
# the VM test loop.  "make help" lists the targets.

PACKAGE_NAME := $(shell sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' dkms.conf)
# From debian/changelog; expanded only where used (the DKMS tree has none)
VERSION = $(shell scripts/build/version)

# Target kernel: what DKMS passes (KERNELRELEASE), else the running kernel
# if its build dir exists, else the one Debian's metapackage KERNEL_PKG
# names (the test VM's kernel), never whichever is newest.
KERNEL_PKG ?= linux-image-amd64
KVER ?= $(or $(KERNELRELEASE),$(shell \
	if [ -d /lib/modules/$$(uname -r)/build ]; then uname -r; \
	else dpkg-query -W -f='$${Depends}' $(KERNEL_PKG) 2>/dev/null | \
		sed -n 's/^linux-image-\([^ ,]*\).*/\1/p'; fi))
KDIR ?= /lib/modules/$(KVER)/build
# The test VM's kernels: always the ones the metapackages name, never the
# running or the newest one (KERNEL_PKG for the main run, and 6.12 generic)
VM_KVER_OF = $(shell dpkg-query -W -f='$${Depends}' $(1) 2>/dev/null | \
	sed -n 's/^linux-\(image\|headers\)-\([^ ,]*\).*/\2/p')
# The same for the host's headers metapackage of kernel line $(1), flavour
# $(2) (scripts/build/host-release.sh: 6.12 is linux-headers-6.12-* on
# bookworm, the release's own linux-headers-* on trixie); empty if none
VM_KVER_OF_LINE = $(foreach p,$(shell scripts/build/host-release.sh \
	metapackage $(1) $(2)),$(call VM_KVER_OF,$(p)))
VMLINUZ ?= /boot/vmlinuz-$(KVER)

PREFIX ?= /usr/local
# udev's rules go where udev says (bookworm: /lib/udev); without udev's
# pkg-config file, where merged /usr puts them (trixie's lintian refuses
# /lib)
UDEVDIR ?= $(or $(shell pkg-config --variable=udevdir udev 2>/dev/null),/usr/lib/udev)
DESTDIR ?=

BUILD := $(CURDIR)/build
CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/fpga-suite

# The CONFIG_ options our Kconfig enables for this kernel
KCONFIG_OPTS = $(shell scripts/build/kconfig-defaults Kconfig $(KDIR)/include/config/auto.conf)
KBUILD = $(MAKE) -C $(KDIR) M=$(CURDIR)/kernel $(KCONFIG_OPTS)

# The VM's hard limit: derived from the selected tests' own limits unless
# VM_TIMEOUT (seconds) is set
VM_TIMEOUT ?=
# Where the VM's modules come from: dkms (the installed copies, as users get
# them) or build (this tree's kernel/ build, for quick iteration); by
# default dkms if DKMS installed them for KVER, else build
VM_MODULES ?= $(if $(wildcard /lib/modules/$(KVER)/updates/dkms/fpga_dfl.ko*),dkms,build)
# Where the VM's tools come from: build (this tree's) or deb (the installed
# fpga-tools package's)
VM_TOOLS ?= build
# Tests to run in the VM: comma-separated COLLECTION or COLLECTION:TEST
VM_TESTS ?=

.PHONY: build-matrix stage debug-kernel debug-modules debug-initramfs check-debug-run check-debug check-full check-suite-run suite-initramfs kernels-newest check-trixie-host ci-cold \
	fuzz bench bench-initramfs peer-modules floor-module print-kver print-vm-kver print-vm612-kver print-vm612rt-kver print-kdir print-test-module-dirs check-run-all all help modules modules-check clean-modules user selftests \
	harness-module install dkms-install dkms-source deb deps check check-run opae \
	check-harness lint demo vm initramfs clean

all: modules user selftests

help:
	@echo "make demo          build, boot the VM and show the suite at work"
	@echo "make check         install deps, lint, build, run all tests in the VM"
	@echo "make modules       build the kernel modules (KVER=, KDIR=)"
	@echo "make build-matrix  build them with W=1, sparse, -Werror for the host release's kernels"
	@echo "make build-matrix SUITE=trixie|sid  the same for that suite's kernels, in a root of it"
	@echo "make check-suite-run SUITE=trixie [SUITE_KVER=] VM_TESTS=...  the VM on that suite's kernel"
	@echo "make kernels-newest  build against the newest kernels of trixie-backports, sid, experimental"
	@echo "make check-trixie-host  make check on a fresh Debian 13 root (part of check-full)"
	@echo "make ci-cold       .ci/run on a fresh Debian 12 root, cold cache, timed"
	@echo "make user          build fpgactl and its library"
	@echo "make selftests     build the kselftests"
	@echo "make install       install tools, headers, udev rule (DESTDIR=, PREFIX=)"
	@echo "make dkms-install  register, build and install the modules with DKMS"
	@echo "make deb           the Debian packages (build/deb/), checked by lintian"
	@echo "make check-debug   the debug-kernel tier: KUnit, KASAN, lockdep, kmemleak,"
	@echo "                   fault injection, fuzzing (kernel cached in ~/.cache);"
	@echo "                   DEBUG_SET=ci: the part CI runs (.ci/run)"
	@echo "make check-full    make check with every collection on every kernel (sid's too),"
	@echo "                   then the whole debug tier (about 2 hours)"
	@echo "make check-debug-run VM_TESTS=...  some tests on the cached debug kernel"
	@echo "make bench         benchmarks in the VM (table + build/bench.json;"
	@echo "                   BENCH=port,pmu BENCH_ROUNDS=n STRICT=1)"
	@echo "make fuzz          syscall fuzzer in the VM (FUZZ_SECONDS=, FUZZ_SEED=, FUZZ_ARGS=)"
	@echo "make vm            interactive shell in the VM with everything loaded"
	@echo "make deps          install the Debian packages the suite needs"
	@echo "make check-run VM_TESTS=fpga:sim_test [VM_MODULES=build]"
	@echo "                   run some tests on what is built (build: modules"
	@echo "                   from this tree, not the DKMS install)"

modules:
	$(KBUILD) modules

# The same checks against the host release's own kernels (bookworm: 6.1
# and 6.12, trixie: 6.12; generic, rt, cloud: scripts/build/host-release.sh),
# each in its own copy under build/matrix; SUITE=trixie
# (its 6.12, trixie-backports' 7.x) or SUITE=sid: that suite's kernels,
# built in a root of the suite (scripts/build/suite-root.sh)
build-matrix:
	scripts/build/build-matrix.sh $(if $(SUITE),--suite $(SUITE))

# W=1, warnings as errors, sparse: any diagnostic fails the build
modules-check: clean-modules
	@$(KBUILD) W=1 C=1 KCFLAGS=-Werror modules > $(BUILD)/modules-check.log 2>&1; \
		rc=$$?; cat $(BUILD)/modules-check.log; \
		if [ $$rc -ne 0 ] || grep -iE 'warning:|error:' $(BUILD)/modules-check.log; then \
			echo "modules-check: failed or diagnostics above"; exit 1; fi

clean-modules:
	@mkdir -p $(BUILD)
	$(KBUILD) clean >/dev/null

user:
	@if [ -f user/Makefile ]; then $(MAKE) -C user; fi

selftests:
	$(MAKE) -C selftests

# Kernel modules only the kselftests load (for KDIR; the debug kernel's
# in debug-modules)
TEST_MODULE_DIRS := selftests/harness/warn_module selftests/fpga/squatter_module

harness-module:
	@for d in $(TEST_MODULE_DIRS); do \
		$(MAKE) -C $(KDIR) M=$(CURDIR)/$$d modules || exit 1; done

# What fpga-tools holds, and what "make install" puts on a machine: the
# same files (debian/rules calls this with PREFIX=/usr)
install:
	@if [ -f user/Makefile ]; then \
		$(MAKE) -C user install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX); fi
	install -D -m 0644 udev/60-fpga-suite.rules \
		$(DESTDIR)$(UDEVDIR)/rules.d/60-fpga-suite.rules
	# RUN+= needs fpgactl's installed path
	sed 's|@BINDIR@|$(PREFIX)/bin|g' udev/61-fpga-suite-cdi.rules > \
		$(DESTDIR)$(UDEVDIR)/rules.d/61-fpga-suite-cdi.rules
	chmod 0644 $(DESTDIR)$(UDEVDIR)/rules.d/61-fpga-suite-cdi.rules
	install -D -m 0644 etc/modprobe.d/fpga-suite.conf \
		$(DESTDIR)/etc/modprobe.d/fpga-suite.conf
	install -D -m 0644 etc/modules-load.d/fpga-suite.conf \
		$(DESTDIR)/etc/modules-load.d/fpga-suite.conf

# The DKMS source tree: what fpga-suite-dkms holds, and what dkms-install
# registers
dkms-source:
	scripts/deb/dkms-source.sh $(DESTDIR)/usr/src/$(PACKAGE_NAME)-$(VERSION)

# The Debian packages, into build/deb/, from a copy of the tree's files
# (dpkg-buildpackage writes to the source's parent directory)
deb:
	scripts/deb/make-deb.sh $(BUILD)/deb

dkms-install:
	scripts/deb/dkms-install.sh $(KVER)

deps:
	scripts/build/deps.sh

lint:
	scripts/build/checkpatch.sh
	$(MAKE) modules-check

# What the VM gets besides kernel modules: tools, kselftests, demo.  The
# tools are this tree's, or with VM_TOOLS=deb those the installed packages
# hold (make check, after installing them)
stage: selftests harness-module user
	rm -rf $(BUILD)/stage
	$(MAKE) -C selftests install INSTALL_PATH=$(BUILD)/stage/ksft
ifeq ($(VM_TOOLS),deb)
	scripts/deb/stage-installed.sh $(BUILD)/stage fpga-tools fpga-tools-dbgsym
else
	$(MAKE) -C user install DESTDIR=$(BUILD)/stage PREFIX=/usr
endif
	# uio_test runs the example driver (installed only as source)
	install -D -m 0755 user/examples/uio_nlb_example $(BUILD)/stage/usr/bin/uio_nlb_example
	install -D -m 0755 scripts/vm/demo.sh $(BUILD)/stage/usr/share/fpga-suite/demo.sh

# OPAE's tools and libraries (make opae), when built, for selftests/opae
OPAE_ROOT = $(shell scripts/build/opae-build.sh --path 2>/dev/null)
# OPAE's opae.admin (fpgaport) and the Python it needs, from the same
# snapshot, cached apart from the C build: a few seconds to make
OPAE_ADMIN_ROOT = $(shell scripts/build/opae-admin-stage.sh)

# The kernel's ynl CLI and the Python it needs, for selftests/fpga/ynl_test.py
# (where Debian's linux-source-6.12 is installed: make deps)
YNL_ROOT = $(if $(wildcard /usr/src/linux-source-6.12.tar.xz),$(BUILD)/ynl-root)

$(BUILD)/ynl-root: scripts/build/ynl-stage.sh scripts/build/python-stage.sh \
		scripts/build/linux-source.sh \
		Documentation/netlink/specs/fpga.yaml selftests/fpga/ynl_test.py
	scripts/build/ynl-stage.sh $@

# podman, crun and conmon for selftests/container (empty without podman)
CONTAINER_ROOT = $(BUILD)/container-root

$(CONTAINER_ROOT): scripts/vm/container-stage.sh scripts/vm/containers/containers.conf \
		scripts/vm/containers/storage.conf $(wildcard /usr/bin/podman)
	scripts/vm/container-stage.sh $@

initramfs: stage $(YNL_ROOT) $(CONTAINER_ROOT) $(if $(filter build,$(VM_MODULES)),modules)
	MODULES_DIR=$(if $(filter build,$(VM_MODULES)),$(CURDIR)/kernel) \
		scripts/vm/mkinitramfs.sh $(KVER) $(BUILD)/initramfs.cpio $(BUILD)/stage \
		$(OPAE_ROOT) $(OPAE_ADMIN_ROOT) $(YNL_ROOT) $(CONTAINER_ROOT)

# The OPAE SDK from ../shared/third_party, built once and cached
opae:
	scripts/build/opae-build.sh

# Everything, on a fresh machine: deps, lint, build, DKMS, VM, self-checks
check:
	@scripts/build/deps.sh --check >/dev/null || scripts/build/deps.sh
	@$(MAKE) --no-print-directory check-run-all

check-run-all:
	@scripts/check/check.sh

# The VM part only, on what is built and installed already
check-run: initramfs
	scripts/vm/run-vm --kernel $(VMLINUZ) --initrd $(BUILD)/initramfs.cpio \
		--log-dir $(BUILD)/logs $(if $(VM_TIMEOUT),--timeout $(VM_TIMEOUT)) \
		--tests "$(VM_TESTS)"

# The VM on a kernel of another suite, built and unpacked in its root:
# make check-suite-run SUITE=trixie [SUITE_KVER=7.3.4+deb13-amd64]
# VM_TESTS=... (SUITE_KVER: by default the suite's own generic kernel)
SUITE ?=
SUITE_KVER ?=
check-suite-run: stage $(YNL_ROOT) $(CONTAINER_ROOT)
	@[ -n "$(SUITE)" ] || { echo "make check-suite-run: SUITE=trixie or SUITE=sid" >&2; exit 2; }
	scripts/vm/suite-vm.sh $(SUITE) \
		$(or $(SUITE_KVER),$$(head -n 1 $$(scripts/build/suite-root.sh $(SUITE))/kernels)) \
		$(BUILD)/initramfs-$(SUITE).cpio $(BUILD)/stage $(OPAE_ROOT) \
		$(OPAE_ADMIN_ROOT) $(YNL_ROOT) $(CONTAINER_ROOT) -- \
		--log-dir $(BUILD)/logs --name $(SUITE) \
		$(if $(VM_TIMEOUT),--timeout $(VM_TIMEOUT)) --tests "$(VM_TESTS)"

# make check on a fresh Debian 13 machine: a new trixie root, make check
# inside it (scripts/check/host-fresh.sh; about an hour; check-full)
check-trixie-host:
	@scripts/check/host-fresh.sh trixie

# CI's .ci/run on a new bookworm machine from a cold cache, timed: a fresh
# bookworm root (scripts/check/host-fresh.sh; about an hour)
ci-cold:
	@scripts/check/host-fresh.sh --ci bookworm

# The canary: the newest kernels of trixie-backports, sid and experimental
# today, built as the matrix builds them (not part of make check)
kernels-newest:
	@scripts/build/kernels-newest.sh

# make check's image for such a kernel, with the modules its matrix step
# has just built: make suite-initramfs SUITE=... SUITE_KVER=... SUITE_IMAGE=...
SUITE_IMAGE ?= $(BUILD)/initramfs-$(SUITE)-$(SUITE_KVER).cpio
suite-initramfs: stage $(YNL_ROOT) $(CONTAINER_ROOT)
	scripts/vm/suite-vm.sh --built $(SUITE) $(SUITE_KVER) $(SUITE_IMAGE) \
		$(BUILD)/stage $(OPAE_ROOT) $(OPAE_ADMIN_ROOT) $(YNL_ROOT) \
		$(CONTAINER_ROOT) > /dev/null

demo:
	@scripts/build/deps.sh --check >/dev/null || scripts/build/deps.sh
	@# First: initramfs finds OPAE_ROOT when make reads the Makefile
	@$(MAKE) --no-print-directory opae
	@$(MAKE) --no-print-directory modules user dkms-install initramfs
	scripts/vm/run-vm --mode demo --kernel $(VMLINUZ) \
		--initrd $(BUILD)/initramfs.cpio --log-dir $(BUILD)/logs --name demo

# Benchmarks in the VM: a table on stdout, the figures in build/bench.json
# (BENCH=scale,port: only those; BENCH_ROUNDS=n samples per figure, default
# 9; STRICT=1: fail on a target missed beyond its noise band; BENCH_SLOW=
# figure:percent slows our side of that figure, to check STRICT;
# BENCH_FAULT=upstream_reset_leak leaks upstream's port disable count, to
# check that peer_bench refuses the reset row then).  The PCI
# cards are peer_bench's: two identical ones, for upstream's DFL drivers and
# ours.
bench: bench-initramfs
	scripts/vm/run-vm --mode bench --kernel $(VMLINUZ) \
		--initrd $(BUILD)/initramfs-bench.cpio --log-dir $(BUILD)/logs --name bench \
		--pci-cards $(CURDIR)/selftests/bench/pci-cards \
		--timeout 1500 --json-out $(BUILD)/bench.json --tests "$(BENCH)" \
		$(if $(filter 1,$(STRICT)),--strict) \
		$(if $(BENCH_ROUNDS)$(BENCH_SLOW)$(BENCH_FAULT),--append "$(if $(BENCH_ROUNDS),BENCH_ROUNDS=$(BENCH_ROUNDS)) $(if $(BENCH_SLOW),BENCH_SLOW=$(BENCH_SLOW)) $(if $(BENCH_FAULT),BENCH_FAULT=$(BENCH_FAULT))")

# The upstream DFL drivers, peer_bench's yardstick: built from Debian's
# linux-source of the host's line at bench time, in the bench's initramfs
# only
peer-modules:
	scripts/build/peer-modules.sh $(KVER) $(BUILD)/peer-root/ksft/bench/peer

# The bench's floors (selftests/bench/floor_module): a module for the
# bench's initramfs only, never staged for the tests, never in DKMS or the
# packages.  It links against fpga_dfl's exports, so it is built after
# this tree's modules, with their Module.symvers; W=1, warnings as errors.
FLOOR_MODULE_DIR := selftests/bench/floor_module

floor-module: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(FLOOR_MODULE_DIR) W=1 KCFLAGS=-Werror \
		KBUILD_EXTRA_SYMBOLS=$(CURDIR)/kernel/Module.symvers modules
	rm -rf $(BUILD)/floor-root
	install -D -m 0644 $(FLOOR_MODULE_DIR)/fpga_bench_floor.ko \
		$(BUILD)/floor-root/ksft/bench/floor/fpga_bench_floor.ko

bench-initramfs: stage peer-modules floor-module $(if $(filter build,$(VM_MODULES)),modules)
	MODULES_DIR=$(if $(filter build,$(VM_MODULES)),$(CURDIR)/kernel) STRIP_MODULES=1 \
		scripts/vm/mkinitramfs.sh $(KVER) $(BUILD)/initramfs-bench.cpio \
		$(BUILD)/stage $(BUILD)/peer-root $(BUILD)/floor-root

# The syscall fuzzer in the VM for FUZZ_SECONDS (seed: FUZZ_SEED or random;
# FUZZ_ARGS: more fpga_fuzz options, e.g. "-w 1 -n 5000" to replay)
FUZZ_SECONDS ?= 120
fuzz: initramfs
	scripts/vm/run-vm --mode fuzz --kernel $(VMLINUZ) \
		--initrd $(BUILD)/initramfs.cpio --log-dir $(BUILD)/logs --name fuzz \
		--timeout $$(( $(FUZZ_SECONDS) + 120 )) \
		--fuzz-args "-t $(FUZZ_SECONDS) -n 1000000000 $(if $(FUZZ_SEED),-s $(FUZZ_SEED)) $(FUZZ_ARGS)"

vm: initramfs
	scripts/vm/run-vm --mode shell --kernel $(VMLINUZ) \
		--initrd $(BUILD)/initramfs.cpio --log-dir $(BUILD)/logs --name shell

# The debug-kernel tier: a kernel with KASAN, lockdep, kmemleak, fault
# injection and KUnit, built once from the host line's linux-source and
# cached (see scripts/build/debug-kernel.sh); our modules built out of tree
# against it.
DEBUG_KDIR = $(shell scripts/build/debug-kernel.sh --path 2>/dev/null)
DEBUG_BUILD := $(BUILD)/debug
DEBUG_VM_TIMEOUT ?=
# The debug kernel may print nothing for minutes (a kmemleak scan, a long
# KASAN-checked sweep): its guest is hung only after this much silence
DEBUG_VM_SILENCE ?= 600
# The debug kernel is many times slower: what waits for the simulated
# card's model thread (the port reset handshake) gets more time.
DEBUG_APPEND := fpga_dfl.reset_timeout_us=2000000

debug-kernel:
	scripts/build/debug-kernel.sh >/dev/null

# Out of tree, as DKMS would build them, from a copy of the sources (M=
# builds in place, and kernel/ holds the build for Debian's kernel).
debug-modules:
	@test -n "$(DEBUG_KDIR)" || { echo "no debug kernel: make debug-kernel"; exit 1; }
	@mkdir -p $(DEBUG_BUILD)/src
	@rsync -rc --delete --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
		--exclude='.*.cmd' --exclude=modules.order --exclude=Module.symvers \
		--include='/Kconfig' --include='/kernel/***' \
		--include='/include/***' --include='/selftests/' \
		--include='/selftests/harness/' --include='/selftests/fpga/' \
		--include='/selftests/*/*_module/***' --exclude='*' \
		./ $(DEBUG_BUILD)/src/
	@# W=1 and sparse here too: the KUnit modules are built only here
	$(MAKE) -C $(DEBUG_KDIR) M=$(DEBUG_BUILD)/src/kernel W=1 C=1 KCFLAGS=-Werror \
		$$(scripts/build/kconfig-defaults Kconfig $(DEBUG_KDIR)/include/config/auto.conf) \
		modules > $(DEBUG_BUILD)/modules.log 2>&1; \
		rc=$$?; cat $(DEBUG_BUILD)/modules.log; \
		if [ $$rc -ne 0 ] || grep -iE 'warning:|error:' $(DEBUG_BUILD)/modules.log; then \
			echo "debug-modules: failed or diagnostics above"; exit 1; fi
	@for m in harness/warn_module harness/sanitizer_module fpga/squatter_module; do \
		$(MAKE) -C $(DEBUG_KDIR) M=$(DEBUG_BUILD)/src/selftests/$$m \
			KCFLAGS=-Werror modules || exit 1; done
	@rm -rf $(DEBUG_BUILD)/stage && \
		mkdir -p $(DEBUG_BUILD)/stage/ksft/harness $(DEBUG_BUILD)/stage/ksft/fpga
	cp $(DEBUG_BUILD)/src/selftests/harness/*_module/*.ko \
		$(DEBUG_BUILD)/stage/ksft/harness/
	cp $(DEBUG_BUILD)/src/selftests/fpga/*_module/*.ko \
		$(DEBUG_BUILD)/stage/ksft/fpga/

# The debug stage comes last: its harness modules replace Debian's
# (the ynl CLI too: check-full runs fpga:ynl_test.py here)
debug-initramfs: stage debug-modules $(YNL_ROOT)
	MODROOT=$(DEBUG_KDIR)/../mod-root MODULES_DIR=$(DEBUG_BUILD)/src/kernel \
		scripts/vm/mkinitramfs.sh $$($(MAKE) -s -C $(DEBUG_KDIR) kernelrelease) \
		$(BUILD)/initramfs-debug.cpio $(BUILD)/stage $(YNL_ROOT) $(DEBUG_BUILD)/stage

# Some tests on the debug kernel: make check-debug-run VM_TESTS=fpga:port_test
check-debug-run: debug-initramfs
	scripts/vm/run-vm --kernel $(DEBUG_KDIR)/arch/x86/boot/bzImage \
		--initrd $(BUILD)/initramfs-debug.cpio --log-dir $(BUILD)/logs \
		--name debug $(if $(DEBUG_VM_TIMEOUT),--timeout $(DEBUG_VM_TIMEOUT)) \
		--silence $(DEBUG_VM_SILENCE) \
		--tests "$(VM_TESTS)" --append "$(DEBUG_APPEND)"

# The whole tier, from a cold cache if need be (DEBUG_SET=ci: CI's part)
check-debug:
	@scripts/build/deps.sh --check >/dev/null || scripts/build/deps.sh
	@scripts/check/check-debug.sh

# Everything: what must pass before an issue that changes kernel code is
# called resolved.  CI's stages with the whole debug tier: the same stage
# table and closing line.
check-full:
	@FPGA_CHECK_SET=full FPGA_DEBUG_SET=full FPGA_CI_DEBUG=1 .ci/run

clean: clean-modules
	$(MAKE) -C selftests clean
	@if [ -f user/Makefile ]; then $(MAKE) -C user clean; fi
	@for d in $(TEST_MODULE_DIRS) $(FLOOR_MODULE_DIR); do $(MAKE) -C $(KDIR) M=$(CURDIR)/$$d clean; done
	rm -rf $(BUILD)

print-kver:
	@echo $(KVER)

print-vm-kver:
	@echo $(call VM_KVER_OF,$(KERNEL_PKG))

print-vm612-kver:
	@echo $(call VM_KVER_OF_LINE,6.12,amd64)

print-vm612rt-kver:
	@echo $(call VM_KVER_OF_LINE,6.12,rt-amd64)

print-kdir:
	@echo $(KDIR)

print-test-module-dirs:
	@echo $(TEST_MODULE_DIRS)

print-debug-append:
	@echo $(DEBUG_APPEND)

print-debug-silence:
	@echo $(DEBUG_VM_SILENCE)
