#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the Debian packages the suite needs, from Debian's archive only.
# Idempotent: packages already installed are left alone, and apt is not
# touched at all when nothing is missing.  The list is the same on every
# host release but for the kernels: the headers of the release's own and
# the sources of its line (scripts/build/host-release.sh).
#
# usage: deps.sh [--check|--list]   (--check: exit 1 if something is
#                                    missing; --list: print the list)
set -eu
here=$(dirname "$0")

# linux-image-amd64: the VM's kernel; linux-perf: perf in the VM.
# cmake, g++ and uuid-dev (with pkg-config and json-c): OPAE's offline
# build, for the interoperability tests (scripts/build/opae-build.sh);
# libcli11-dev and libspdlog-dev (bookworm 2.1.2 and 1.10, trixie 2.4.1
# and 1.15): its host_exerciser, which OPAE would otherwise download them
# for.
# liburing-dev: port_bench's baseline for DMA mapping (io_uring's buffer
# registration), linked statically into the benchmark.
# linux-source-6.12, python3-yaml, python3-jsonschema: the kernel's ynl
# tools (6.1's sources have none), which check the netlink spec
# (scripts/check/ynl-check.sh) and drive the family in the VM.
# debootstrap: the roots of other suites the build matrix builds their
# kernels in (scripts/build/suite-root.sh).  libsensors5: lm-sensors'
# library, which sensors_test uses in the VM to see the FME's hwmon
# devices as "sensors" does.
# zlib1g-dev: fpgactl's CRC-32 of the simulated card's bitstream (gbs make).
# prometheus: its promtool, which checks fpgactl metrics' output in make
# check.  The server it also brings is not used: where systemd runs it
# starts as a service, harmless; nothing relies on it.
# golang-github-container-orchestrated-devices-container-device-interface-dev:
# the CDI library's JSON schema (schema/schema.json under /usr/share/gocode),
# which checks fpgactl cdi's spec in make check (on trixie a transitional
# package for golang-tags.cncf-container-device-interface-dev).
# podman, crun, conmon: the container engine selftests/container runs in
# the VM (scripts/vm/container-stage.sh copies them into its image; on
# the host only the package's podman.socket is enabled, and not used).
COMMON="
	linux-image-amd64 linux-perf
	build-essential pkg-config bc flex bison libelf-dev libssl-dev
	kmod dkms sparse cpio rsync python3 dash valgrind
	qemu-system-x86 busybox-static
	libnl-3-dev libnl-genl-3-dev libdrm-dev libjson-c-dev zlib1g-dev
	systemtap-sdt-dev liburing-dev
	debhelper dh-dkms lintian bash-completion git
	cmake g++ uuid-dev libcli11-dev libspdlog-dev
	linux-source-6.12 python3-yaml python3-jsonschema
	debootstrap libsensors5 prometheus
	golang-github-container-orchestrated-devices-container-device-interface-dev
	podman crun conmon
"
# The release's own: the headers of every kernel it ships (the build
# matrix; Debian's 6.12 headers pull their images in, which the VM boots)
# and the sources of its line (checkpatch, the kselftest harness, the
# debug kernel, the peer modules: scripts/build/linux-source.sh).  On
# bookworm: the headers of 6.1 and 6.12, and linux-source-6.1; on trixie:
# those of 6.12 (linux-headers-6.12-* and linux-source-6.1 are not there).
release=$("$here/host-release.sh")
series=$("$here/host-release.sh" series)
headers=$("$here/host-release.sh" headers)

PACKAGES=""
for p in $headers linux-source-"$series" $COMMON; do
	case " $PACKAGES " in
	*" $p "*) ;;
	*) PACKAGES="$PACKAGES $p" ;;
	esac
done

if [ "${1:-}" = --list ]; then
	echo "$PACKAGES" | tr ' ' '\n' | sed '/^$/d'
	exit 0
fi

missing=""
for p in $PACKAGES; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done

if [ -z "$missing" ]; then
	[ "${1:-}" = --check ] || echo "deps: all packages present ($release)"
	exit 0
fi
if [ "${1:-}" = --check ]; then
	echo "deps: missing ($release):$missing"
	exit 1
fi

echo "deps: installing ($release):$missing"
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO "$here"/apt-get.sh update -q
# shellcheck disable=SC2086
$SUDO "$here"/apt-get.sh install -y -q --no-install-recommends $missing
