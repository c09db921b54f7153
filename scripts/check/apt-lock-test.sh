#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# scripts/build/apt-get.sh waits for apt's locks, with a bound: apt-daily
# or unattended-upgrades holding apt's package lists (the lock "apt-get
# update" takes without waiting) must delay make check's apt, not fail
# it, and a lock held for too long must fail it saying who holds it.  The
# holder here is a process with the same fcntl() lock apt takes; the
# "update" reads no source list, so it needs no network.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
lock=/var/lib/apt/lists/lock
out=$(mktemp)
trap 'rm -f "$out"' EXIT
failed=0

# hold SECONDS: take apt's lists lock in the background for that long
hold()
{
	python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "w")
fcntl.lockf(f, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(float(sys.argv[2]))' "$lock" "$1" &
	holder=$!
	sleep 1
}

update()
{
	APT_LOCK_RETRY=1 "$top/scripts/build/apt-get.sh" update -q \
		-o Dir::Etc::sourcelist=/dev/null \
		-o Dir::Etc::sourceparts=/nonexistent > "$out" 2>&1
}

hold 3
t0=$(date +%s)
if update && grep -q 'apt-get.sh: apt is busy, waiting' "$out"; then
	echo "ok   apt-get.sh waited $(( $(date +%s) - t0 )) s for the lists' lock, then ran"
else
	echo "FAIL apt-get.sh did not wait for the lists' lock:"
	sed 's/^/     | /' "$out"
	failed=1
fi
wait "$holder"

hold 8
if APT_LOCK_TIMEOUT=2 update; then
	echo "FAIL apt-get.sh ran although the lock was held past its bound"
	failed=1
elif grep -q "apt-get.sh: apt is still busy after 2 s, giving up: .*held by process $holder" "$out"; then
	echo "ok   apt-get.sh gave up after its bound, naming the holder"
else
	echo "FAIL apt-get.sh failed without saying why:"
	sed 's/^/     | /' "$out"
	failed=1
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
exit "$failed"
