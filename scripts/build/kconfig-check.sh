#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Our Kconfig must stay valid Kconfig, and scripts/build/kconfig-defaults (what
# the out-of-tree build uses) must agree with the kernel's own kconfig.
# Runs the target kernel's scripts/kconfig/conf on our Kconfig, with every
# kernel symbol it depends on defined as in the kernel's configuration,
# and compares the options it enables with kconfig-defaults' answer.
#
# usage: kconfig-check.sh KDIR
set -eu
kdir=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
conf=$kdir/scripts/kconfig/conf
autoconf=$kdir/include/config/auto.conf
[ -x "$conf" ] || { echo "kconfig-check: $conf missing" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$top/Kconfig" "$work/Kconfig"

# The kernel symbols our Kconfig refers to, with the kernel's values
ours=$(sed -n 's/^config //p' "$top/Kconfig")
deps=$(sed -n 's/^[[:space:]]*depends on //p' "$top/Kconfig" |
	tr -c 'A-Za-z0-9_\n' '\n' | grep -E '^[A-Z][A-Z0-9_]+$' | sort -u)
{
	echo 'config MODULES'
	printf '\tbool\n\tdefault y\n\tmodules\n'
	for sym in $deps; do
		echo "$ours" | grep -qx "$sym" && continue
		[ "$sym" = MODULES ] && continue
		val=$(sed -n "s/^CONFIG_$sym=//p" "$autoconf")
		echo "config $sym"
		case "$val" in
		m) printf '\ttristate\n\tdefault m\n' ;;
		y) printf '\ttristate\n\tdefault y\n' ;;
		*) printf '\ttristate\n' ;;
		esac
	done
	echo 'source "Kconfig"'
} > "$work/Top"

(cd "$work" && KCONFIG_CONFIG=out.config srctree=. "$conf" --olddefconfig Top >/dev/null)
for sym in $ours; do
	grep "^CONFIG_$sym=" "$work/out.config" || true
done > "$work/kconfig.txt"
"$top/scripts/build/kconfig-defaults" "$top/Kconfig" "$autoconf" > "$work/ours.txt"
if ! diff -u "$work/kconfig.txt" "$work/ours.txt"; then
	echo "kconfig-check: kconfig-defaults disagrees with the kernel's kconfig"
	exit 1
fi
echo "kconfig-check: Kconfig valid; $(wc -l < "$work/ours.txt") options agree with the kernel's kconfig"
