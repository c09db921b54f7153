#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The container engine for the VM's container tests (selftests/container):
# Debian's podman, crun and conmon as installed on the host (make deps),
# with a configuration for a VM without systemd or a network
# (containers/*.conf).  mkinitramfs.sh lays DIR over the image's root and
# adds the libraries the binaries need.  Without podman on the host DIR is
# left empty, and the container tests skip.
#
# usage: container-stage.sh DIR
set -eu
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
out=$1
rm -rf "$out"
mkdir -p "$out"
command -v podman > /dev/null || {
	echo "container-stage: no podman on this host (make deps): the container tests will skip" >&2
	exit 0
}

# copy FILE: at its own path under DIR (symlinks resolved)
copy()
{
	mkdir -p "$out$(dirname "$1")"
	cp -L "$1" "$out$1"
}

for tool in podman crun conmon; do
	copy "$(command -v $tool)"
done
# podman's helpers where the packages keep them (podman 5 needs netavark
# even for --network none), and containers-common's seccomp profile
for f in /usr/libexec/podman/* /usr/lib/podman/* \
	 /usr/share/containers/seccomp.json \
	 /usr/share/containers/containers.conf; do
	[ ! -f "$f" ] || copy "$f"
done
mkdir -p "$out/etc/containers" "$out/var/lib/containers" "$out/etc/cdi"
# CDI specs are looked for in /etc/cdi and /var/run/cdi, run's tmpfs
ln -s ../run "$out/var/run"
cp "$here/containers/containers.conf" "$here/containers/storage.conf" \
	"$out/etc/containers/"
# no image is pulled, but podman reads the policy when it starts
echo '{"default": [{"type": "reject"}]}' > "$out/etc/containers/policy.json"
