#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Which Debian release the host is, and what follows from it: the one
# place that knows, so that deps, the build matrix, the kernel sources
# and the VM's kernels all follow the host.  The release is
# VERSION_CODENAME of os-release; FPGA_HOST_RELEASE overrides it (to try
# another release's choices on this host).  Known: bookworm (Debian 12)
# and trixie (Debian 13); any other fails.
#
#   bookworm  its own kernels are 6.1 (linux-headers-FLAVOUR) and 6.12
#             (linux-headers-6.12-FLAVOUR); sources: linux-source-6.1
#   trixie    its own kernels are 6.12 (linux-headers-FLAVOUR); sources:
#             linux-source-6.12
#
# usage: host-release.sh            the release: bookworm or trixie
#        host-release.sh series     the linux-source series of its kernel
#                                   (checkpatch, kselftest harness, debug
#                                   kernel, peer modules): 6.1 or 6.12
#        host-release.sh headers    the headers metapackages of its own
#                                   kernels, one a line, in the build
#                                   matrix's order
#        host-release.sh metapackages   the same as "SERIES PACKAGE" lines
#        host-release.sh metapackage SERIES FLAVOUR
#                                   the headers metapackage of that line
#                                   (6.1, 6.12) and flavour (amd64,
#                                   rt-amd64, cloud-amd64); fails if the
#                                   release ships no such kernel
set -eu

FLAVOURS="amd64 rt-amd64 cloud-amd64"

release=${FPGA_HOST_RELEASE:-}
if [ -z "$release" ]; then
	for f in /etc/os-release /usr/lib/os-release; do
		[ -r "$f" ] || continue
		release=$(sed -n 's/^VERSION_CODENAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$f")
		break
	done
fi

# lines: the kernel lines the release ships, its own first, each as
# SERIES=INFIX (linux-headers-INFIXFLAVOUR names its metapackages)
case "$release" in
bookworm) lines="6.1= 6.12=6.12-" ;;
trixie) lines="6.12=" ;;
*)
	echo "host-release: the suite runs on Debian bookworm or trixie, not" \
		"'${release:-unknown}' (VERSION_CODENAME in /etc/os-release;" \
		"FPGA_HOST_RELEASE overrides it)" >&2
	exit 1
	;;
esac

case "${1:-}" in
"")
	echo "$release"
	;;
series)
	first=${lines%% *}
	echo "${first%%=*}"
	;;
headers | metapackages)
	for line in $lines; do
		for f in $FLAVOURS; do
			if [ "$1" = headers ]; then
				echo "linux-headers-${line#*=}$f"
			else
				echo "${line%%=*} linux-headers-${line#*=}$f"
			fi
		done
	done
	;;
metapackage)
	[ $# -eq 3 ] || { echo "usage: $0 metapackage SERIES FLAVOUR" >&2; exit 2; }
	case " $FLAVOURS " in
	*" $3 "*) ;;
	*) echo "host-release: no flavour '$3' ($FLAVOURS)" >&2; exit 2 ;;
	esac
	for line in $lines; do
		[ "${line%%=*}" = "$2" ] || continue
		echo "linux-headers-${line#*=}$3"
		exit 0
	done
	echo "host-release: $release ships no $2 kernel" >&2
	exit 1
	;;
*)
	echo "usage: $0 [series|headers|metapackages|metapackage SERIES FLAVOUR]" >&2
	exit 2
	;;
esac
