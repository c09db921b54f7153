#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Copy the files the installed PACKAGEs own (dpkg -L) into DIR, for the
# test VM's image: the VM then runs the tools as the packages installed
# them.  The VM has no compiler and no headers, so the packages are
# installed on this machine, which has the headers of the VM's kernel.
#
# usage: stage-installed.sh DIR PACKAGE...
set -eu
[ $# -ge 2 ] || { echo "usage: $0 DIR PACKAGE..." >&2; exit 2; }
dir=$1
shift
for p in "$@"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q ' installed$' ||
		{ echo "$0: package $p is not installed" >&2; exit 1; }
	dpkg -L "$p" | while read -r f; do
		[ -f "$f" ] && [ ! -L "$f" ] || continue
		mkdir -p "$dir$(dirname "$f")"
		cp -p "$f" "$dir$f"
	done
done
