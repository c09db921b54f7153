#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# apt-get as the suite's scripts run it.  apt is shared with the system
# (apt-daily, unattended-upgrades): wait for its locks rather than fail on
# them.  apt-get waits for dpkg's lock itself (DPkg::Lock::Timeout), but
# not for the lock of its package lists or of its download cache: "apt-get
# update" beside apt-daily's fails at once ("Could not get lock
# /var/lib/apt/lists/lock").  A lock error comes before apt changes
# anything, so such a run is repeated, every APT_LOCK_RETRY seconds (10),
# for up to APT_LOCK_TIMEOUT seconds (1800) in all, saying who holds the
# lock (scripts/check/apt-lock-test.sh).
# A dpkg run that was interrupted (an install killed half way) leaves
# apt refusing everything until "dpkg --configure -a": finish it first.
#
# usage: apt-get.sh ARGS...   (as apt-get; run as root)
set -eu

limit=${APT_LOCK_TIMEOUT:-1800}
deadline=$(( $(date +%s) + limit ))
out=$(mktemp)
trap 'rm -f "$out" "$out.rc"' EXIT

if [ -n "$(dpkg --audit 2>/dev/null)" ]; then
	echo "apt-get.sh: dpkg was interrupted: dpkg --configure -a" >&2
	dpkg --configure -a || true
fi
while :; do
	left=$(( deadline - $(date +%s) ))
	[ "$left" -gt 0 ] || left=1
	{
		rc=0
		apt-get -o DPkg::Lock::Timeout="$left" "$@" 2>&1 || rc=$?
		echo "$rc" > "$out.rc"
	} | tee "$out"
	rc=$(cat "$out.rc")
	[ "$rc" -ne 0 ] && grep -q '^E: Could not get lock' "$out" || exit "$rc"
	holder=$(sed -n 's/^E: Could not get lock \(.*\)$/\1/p' "$out" | head -n 1)
	if [ "$(date +%s)" -ge "$deadline" ]; then
		echo "apt-get.sh: apt is still busy after $limit s, giving up: $holder" >&2
		exit "$rc"
	fi
	echo "apt-get.sh: apt is busy, waiting (up to $limit s in all): $holder" >&2
	sleep "${APT_LOCK_RETRY:-10}"
done
