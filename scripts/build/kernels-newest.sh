#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The canary for the next kernel (make kernels-newest): the newest headers
# Debian has today in trixie-backports, sid and experimental, each flavour,
# built as the build matrix builds (W=1, sparse, -Werror, every module
# Kconfig enables), so that a break shows before a user upgrades to it.
# Each suite's root is brought up to date first, whatever its age
# (scripts/build/suite-root.sh).  Ends with a table, the newest kernel
# first; exits 1 if a build failed.
#
# usage: kernels-newest.sh [SUITE...]   (default: trixie-backports sid
#                                        experimental)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
suites=${*:-trixie-backports sid experimental}
table=$(mktemp)
trap 'rm -f "$table"' EXIT
status=0

for suite in $suites; do
	# The root each suite's kernels are built in
	case "$suite" in
	trixie-backports) root_suite=trixie ;;
	sid|experimental) root_suite=$suite ;;
	*) echo "kernels-newest: no root for '$suite'" >&2; exit 2 ;;
	esac
	echo "== $suite: bringing the $root_suite root up to date"
	if ! root=$(SUITE_ROOT_REFRESH=1 "$top/scripts/build/suite-root.sh" \
			"$root_suite"); then
		echo "$suite - root-failed" >> "$table"
		status=1
		continue
	fi
	kvers=$(awk -v s="$suite" '$2 == s { print $1 }' "$root/kernel-suites")
	[ -n "$kvers" ] || { echo "$suite - no-kernel" >> "$table"; continue; }
	# shellcheck disable=SC2086
	"$top/scripts/build/build-matrix.sh" --suite "$root_suite" $kvers |
		tee "$table.out"
	for kver in $kvers; do
		version=$("$top/scripts/build/suite-root.sh" --run "$root_suite" \
			dpkg-query -W -f='${Version}' "linux-headers-$kver" 2>/dev/null)
		if grep -q "^ok   $kver:" "$table.out"; then
			result=ok
		else
			result=FAILED
			status=1
		fi
		echo "$suite $kver ${version:--} $result" >> "$table"
	done
	rm -f "$table.out"
done

echo "== the newest kernels Debian ships today (build logs: build/matrix/)"
printf '%-17s %-28s %-22s %s\n' suite kernel headers build
sort -k3,3Vr "$table" | while read -r suite kver version result; do
	printf '%-17s %-28s %-22s %s\n' "$suite" "$kver" "$version" "$result"
done
exit "$status"
