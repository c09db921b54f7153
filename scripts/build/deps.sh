#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages the suite needs, from Debian's archive only.
# Idempotent: packages already installed are left alone, and apt is not
# touched at all when nothing is missing.
#
# usage: deps.sh [--check]   (--check: exit 1 if something is missing)
set -eu

# Headers of every kernel bookworm ships (build-matrix.sh): 6.1 and 6.12,
# generic, rt and cloud.  Debian's 6.12 headers pull their images in.
# cmake, g++ and uuid-dev (with pkg-config and json-c): OPAE's offline
# build, for the interoperability tests (scripts/build/opae-build.sh).
# liburing-dev: port_bench's baseline for DMA mapping (io_uring's buffer
# registration), linked statically into the benchmark.
# linux-source-6.12, python3-yaml, python3-jsonschema: the kernel's ynl
# tools (6.1's sources have none), which check the netlink spec
# (scripts/check/ynl-check.sh) and drive the family in the VM.
# debootstrap: the roots of other suites the build matrix builds their
# kernels in (scripts/build/suite-root.sh).
PACKAGES="
	linux-headers-amd64 linux-image-amd64 linux-source-6.1 linux-perf
	linux-headers-rt-amd64 linux-headers-cloud-amd64
	linux-headers-6.12-amd64 linux-headers-6.12-rt-amd64
	linux-headers-6.12-cloud-amd64
	build-essential pkg-config bc flex bison libelf-dev libssl-dev
	kmod dkms sparse cpio rsync python3 dash valgrind
	qemu-system-x86 busybox-static
	libnl-3-dev libnl-genl-3-dev libdrm-dev libjson-c-dev
	systemtap-sdt-dev liburing-dev
	debhelper dh-dkms lintian bash-completion git
	cmake g++ uuid-dev
	linux-source-6.12 python3-yaml python3-jsonschema
	debootstrap
"

missing=""
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done

if [ -z "$missing" ]; then
	[ "${1:-}" = --check ] || echo "deps: all packages present"
	exit 0
fi
if [ "${1:-}" = --check ]; then
	echo "deps: missing:$missing"
	exit 1
fi

echo "deps: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO "$(dirname "$0")"/apt-get.sh update -q
# shellcheck disable=SC2086
$SUDO "$(dirname "$0")"/apt-get.sh install -y -q --no-install-recommends $missing
