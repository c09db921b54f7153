#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# "make check" (or CI's .ci/run) on a fresh Debian machine of a release:
# a new minimal root of that suite (debootstrap; nothing of the suite's
# packages in it), with /dev, /proc and /sys, a clone of this checkout's
# committed tree and ../shared (read-only) in it, and the command run
# there as root, which must install what it needs with apt and pass.  The
# host's own caches are not used: the root's ~/.cache starts empty, as on
# a new machine.  The root is made anew each run (the test is of set-up
# from nothing) and removed after it, unless KEEP_ROOT=1.  Ends with the
# inner run's "N passed, N failed".
#   make check-trixie-host   host-fresh.sh trixie (part of make check-full)
#   make ci-cold             host-fresh.sh --ci bookworm: CI's run from a
#                            cold cache on a new bookworm machine, timed
#
# usage: host-fresh.sh [--ci] bookworm|trixie [MAKE_ARGS...]
#        (MAKE_ARGS for make check, e.g. VM_TESTS=fpga:sim_test)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
log() { echo "host-fresh: $*"; }
cmd=check
if [ "${1:-}" = --ci ]; then
	cmd=ci
	shift
fi
suite=${1:-}
case "$suite" in
bookworm|trixie) shift ;;
*) log "usage: host-fresh.sh [--ci] bookworm|trixie [MAKE_ARGS...]" >&2; exit 2 ;;
esac
[ "$cmd" = check ] || [ $# -eq 0 ] ||
	{ log ".ci/run takes no make arguments" >&2; exit 2; }
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${FPGA_SUITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fpga-suite}
root=$cache/$suite-host
shared=$(cd "$top/../shared" 2>/dev/null && pwd -P) ||
	{ log "no ../shared beside the checkout" >&2; exit 1; }

command -v debootstrap > /dev/null || { log "debootstrap missing (make deps)"; exit 1; }
[ "$(id -u)" -eq 0 ] || { log "needs root (debootstrap, chroot)"; exit 1; }

# Mounts live in a namespace of their own, so none is left behind; still,
# never remove a root something is mounted in
if grep -q " $root/" /proc/mounts; then
	log "something is mounted in $root: not removing it"
	exit 1
fi
if [ "${REUSE_ROOT:-0}" = 1 ] && [ -d "$root/work/suite" ]; then
	# For debugging this script: the root a run kept (KEEP_ROOT=1), as
	# it is, with the checkout brought up to this one's HEAD
	log "reusing $root"
	git -C "$root/work/suite" pull -q "$top" HEAD
	reuse=true
else
	reuse=false
	rm -rf "$root"
	mkdir -p "$cache"
	log "making a fresh $suite root in $root"
	t0=$(date +%s)
	debootstrap --variant=minbase --include=make,git,ca-certificates \
		"$suite" "$root" "$mirror" > "$root.log" 2>&1 ||
		{ log "debootstrap failed ($root.log)"; tail -n 5 "$root.log"; exit 1; }
	log "root made in $(( $(date +%s) - t0 )) s"
fi
if ! $reuse; then
	# As the release's installer sets apt up: the release, its updates
	# and its security archive
	cat > "$root/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb ${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security} $suite-security main
EOF
	git clone -q "$top" "$root/work/suite"
	mkdir -p "$root/work/shared"
fi

# In a mount and a PID namespace of their own: when this script is
# stopped, every process of the run stops with the namespace's first
rc=0
start=$(date +%s)
# shellcheck disable=SC2016
unshare -m -p -f --kill-child sh -c '
	root=$1 shared=$2 cmd=$3
	shift 3
	# The root is a mount point, as / is on a machine: the mount
	# namespaces of suite-root.sh need one
	mount --bind "$root" "$root" &&
	mount --rbind /dev "$root/dev" &&
	# Its own /dev/shm: the VMs keep their memory there, named by PID,
	# and PIDs here are those of a namespace
	mount -t tmpfs tmpfs "$root/dev/shm" &&
	mount -t proc proc "$root/proc" &&
	mount --rbind /sys "$root/sys" &&
	mount --bind "$shared" "$root/work/shared" &&
	mount -o remount,bind,ro "$root/work/shared" || exit 1
	exec chroot "$root" /usr/bin/env -i HOME=/root LC_ALL=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		sh -c "cd /work/suite && if [ $cmd = ci ]; then exec .ci/run;
			else exec make check \"\$@\"; fi" sh "$@"
' sh "$root" "$shared" "$cmd" "$@" &
run=$!
trap 'kill "$run" 2>/dev/null' INT TERM HUP
wait "$run" || rc=$?
trap - INT TERM HUP
log "$suite root, $([ "$cmd" = ci ] && echo .ci/run || echo make check): $(( $(date +%s) - start )) s after the root was made"

if [ "${KEEP_ROOT:-0}" != 1 ]; then
	grep -q " $root/" /proc/mounts || rm -rf "$root" "$root.log"
fi
exit "$rc"
