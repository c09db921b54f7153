#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the modules against every kernel a Debian bookworm user can
# install, with W=1, sparse (C=1) and warnings as errors: the 6.1 and 6.12
# lines, generic, rt and cloud.  Each kernel is the one that Debian's
# headers metapackage of its flavour names today (so the matrix follows
# Debian's updates); "make deps" installs them.  Each build runs in its own
# copy of the sources (kbuild puts objects next to them), and each kernel
# gets the modules our Kconfig enables for its configuration.
#
# usage: build-matrix.sh [KVER...]   (default: the six kernels)
#        build-matrix.sh --list      (print the six kernels)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/build/matrix
MAKE=${MAKE:-make}

# The headers metapackages of the six flavours, in the order printed
METAPACKAGES="linux-headers-amd64 linux-headers-rt-amd64
	linux-headers-cloud-amd64 linux-headers-6.12-amd64
	linux-headers-6.12-rt-amd64 linux-headers-6.12-cloud-amd64"

# The kernel release a headers metapackage depends on
kver_of()
{
	dpkg-query -W -f='${Depends}' "$1" 2>/dev/null |
		sed -n 's/^linux-headers-\([^ ,]*\).*/\1/p'
}

list=false
if [ "${1:-}" = --list ]; then
	list=true
	shift
fi
if [ $# -eq 0 ]; then
	for pkg in $METAPACKAGES; do
		kver=$(kver_of "$pkg")
		if [ -z "$kver" ]; then
			echo "build-matrix: $pkg is not installed (make deps)" >&2
			exit 1
		fi
		set -- "$@" "$kver"
	done
fi
if $list; then
	echo "$@"
	exit 0
fi

failed=0
for kver in "$@"; do
	kdir=/lib/modules/$kver/build
	src=$out/$kver
	log=$out/$kver.log
	rm -rf "$src"
	mkdir -p "$src/scripts/build" "$src/scripts/deb"
	cp -r "$top/kernel" "$top/include" "$top/Kconfig" "$src/"
	cp "$top/scripts/build/kconfig-defaults" "$src/scripts/build/"
	cp "$top/scripts/deb/dkms-modules" "$src/scripts/deb/"
	# Our reading of Kconfig must agree with this kernel's kconfig
	if ! "$top/scripts/build/kconfig-check.sh" "$kdir" >"$log" 2>&1; then
		echo "FAIL $kver: kconfig-check ($log)"
		failed=1
		continue
	fi
	opts=$("$src/scripts/build/kconfig-defaults" "$src/Kconfig" \
		"$kdir/include/config/auto.conf") || { failed=1; continue; }
	# shellcheck disable=SC2086
	$MAKE -C "$kdir" M="$src/kernel" $opts clean >/dev/null 2>&1
	# shellcheck disable=SC2086
	if $MAKE -j"$(nproc)" -C "$kdir" M="$src/kernel" $opts W=1 C=1 KCFLAGS=-Werror \
			modules >"$log" 2>&1 &&
	   ! grep -iqE 'warning:|error:' "$log"; then
		# Every module Kconfig enabled was built
		missing=""
		for m in $("$src/scripts/deb/dkms-modules" "$src" "$kdir"); do
			[ -f "$src/$m.ko" ] || missing="$missing ${m##*/}"
		done
		if [ -z "$missing" ]; then
			echo "ok   $kver: $(echo $("$src/scripts/deb/dkms-modules" \
				"$src" "$kdir" | sed 's|.*/||'))"
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
