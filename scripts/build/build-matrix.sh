#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the modules against every kernel Debian ships, with W=1, sparse
# (C=1) and warnings as errors, and every module our Kconfig enables for
# the kernel's configuration:
#   - on the host, the kernels a user of the host's release can install
#     (scripts/build/host-release.sh): bookworm's 6.1 and 6.12 lines,
#     trixie's 6.12, generic, rt and cloud ("make deps" installs them);
#   - with --suite SUITE, those of another suite, built inside a root of
#     that suite with its own compiler (scripts/build/suite-root.sh):
#     trixie's 6.12 and trixie-backports' 7.x, sid's newest.
# Each kernel is the one Debian's headers metapackage of its flavour names
# today, so the matrix follows Debian's updates.  Each build runs in its
# own copy of the sources (kbuild puts objects next to them).  A build
# where sparse did not run fails, as one with a diagnostic does.
#
# usage: build-matrix.sh [--suite SUITE] [KVER...]  (default: all kernels)
#        build-matrix.sh [--suite SUITE] --list     (print the kernels)
#        build-matrix.sh [--suite SUITE] --where    (where it builds, as
#                                                    the root sees it)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
MAKE=${MAKE:-make}

# The kernel release a headers metapackage depends on
kver_of()
{
	dpkg-query -W -f='${Depends}' "$1" 2>/dev/null |
		sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p'
}

suite=""
list=false
where=false
while [ $# -gt 0 ]; do
	case "$1" in
	--suite) suite=$2; shift 2 ;;
	--list) list=true; shift ;;
	--where) where=true; shift ;;
	*) break ;;
	esac
done

# Where the kernels are: the host (root "") or a suite's root, and how a
# command runs there
if [ -n "$suite" ]; then
	root=$("$top/scripts/build/suite-root.sh" "$suite") || exit 1
	run="$top/scripts/build/suite-root.sh --run $suite"
else
	root=""
	run=""
fi
# In a suite's root each checkout builds in a directory of its own, so
# that two checkouts can build there at once
if [ -n "$root" ]; then
	out=/build/$(printf '%s' "$top" | sha256sum | cut -c1-12)/matrix
else
	out=$top/build/matrix
fi
logs=$top/build/matrix
if $where; then
	echo "$out"
	exit 0
fi

if [ $# -eq 0 ]; then
	if [ -n "$root" ]; then
		# shellcheck disable=SC2046
		set -- $(cat "$root/kernels")
	else
		# The headers metapackages of the host release's kernels, each
		# with its line, in the order printed
		release=$("$top/scripts/build/host-release.sh") || exit 1
		metapackages=$("$top/scripts/build/host-release.sh" metapackages)
		kvers=""
		while read -r series pkg; do
			kver=$(kver_of "$pkg")
			if [ -z "$kver" ]; then
				echo "build-matrix: $pkg is not installed (make deps)" >&2
				exit 1
			fi
			# Another release's package of that name names another line
			case "$kver" in
			"$series".*) ;;
			*)
				echo "build-matrix: $pkg names $kver, not" \
					"$release's $series line: is the host $release?" >&2
				exit 1
				;;
			esac
			kvers="$kvers $kver"
		done <<EOF
$metapackages
EOF
		# shellcheck disable=SC2086
		set -- $kvers
	fi
fi
if $list; then
	echo "$@"
	exit 0
fi

mkdir -p "$logs"
failed=0
for kver in "$@"; do
	kdir=/lib/modules/$kver/build
	src=$out/$kver			# as the build sees it
	copy=$root$src			# as this script sees it
	log=$logs/$kver.log
	rm -rf "$copy"
	mkdir -p "$copy/scripts/build" "$copy/scripts/deb"
	cp -r "$top/kernel" "$top/include" "$top/Kconfig" "$copy/"
	cp "$top/scripts/build/kconfig-defaults" \
		"$top/scripts/build/kconfig-check.sh" "$copy/scripts/build/"
	cp "$top/scripts/deb/dkms-modules" "$copy/scripts/deb/"
	# Our reading of Kconfig must agree with this kernel's kconfig
	if ! $run "$src/scripts/build/kconfig-check.sh" "$kdir" >"$log" 2>&1; then
		echo "FAIL $kver: kconfig-check ($log)"
		failed=1
		continue
	fi
	opts=$($run "$src/scripts/build/kconfig-defaults" "$src/Kconfig" \
		"$kdir/include/config/auto.conf") || { failed=1; continue; }
	# The root's newer sparse, where its own is too old (suite-root.sh)
	[ -n "$root" ] && [ -r "$root/checker" ] &&
		opts="$opts CHECK=$(cat "$root/checker")"
	# shellcheck disable=SC2086
	if $run $MAKE -j"$(nproc)" -C "$kdir" M="$src/kernel" $opts W=1 C=1 \
			KCFLAGS=-Werror modules >"$log" 2>&1 &&
	   ! grep -iqE 'warning:|error:' "$log"; then
		if ! grep -q '^  CHECK ' "$log"; then
			echo "FAIL $kver: sparse did not run (C=1 ignored: $log)"
			grep -i 'sparse\|checker' "$log" | head -3 | sed 's/^/     | /'
			failed=1
			continue
		fi
		# Every module Kconfig enabled was built
		modules=$($run "$src/scripts/deb/dkms-modules" "$src" "$kdir")
		missing=""
		for m in $modules; do
			[ -f "$root$src/$m.ko" ] || missing="$missing ${m##*/}"
		done
		if [ -z "$missing" ]; then
			# shellcheck disable=SC2046
			echo "ok   $kver:" $(echo "$modules" | sed 's|.*/||')
			continue
		fi
		echo "FAIL $kver: not built:$missing"
	else
		echo "FAIL $kver: build failed or diagnostics ($log):"
		grep -iE 'warning:|error:' "$log" | head -20 | sed 's/^/     | /'
	fi
	failed=1
done
exit $failed
