#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Install the packages of DEBDIR (make deb) the way a user does, with apt:
# fpga-suite-dkms's postinst (dh_dkms, DKMS's common.postinst) registers
# the sources and builds the modules.  A registration made from a checkout
# (make dkms-install) is removed first, and so are packages installed
# earlier, so that what runs is this tree's.
#
# usage: deb-install.sh DEBDIR
set -eu
[ $# -eq 1 ] || { echo "usage: $0 DEBDIR" >&2; exit 2; }
debdir=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
version=$("$top/scripts/build/version")
packages="fpga-suite-dkms fpga-tools fpga-tools-dbgsym"
export DEBIAN_FRONTEND=noninteractive

installed()
{
	dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q ' installed$'
}

old=""
for p in $packages; do
	installed "$p" && old="$old $p"
done
if [ -n "$old" ]; then
	echo "deb-install: purging the installed$old"
	# shellcheck disable=SC2086
	"$(dirname "$0")"/../build/apt-get.sh purge -y -q $old
fi
# What a checkout registered: every version, and its source trees
for v in $(dkms status -m fpga-suite 2>/dev/null |
	   sed -n 's|^fpga-suite/\([^,:]*\)[,:].*|\1|p' | sort -u); do
	echo "deb-install: removing fpga-suite/$v, registered from a checkout"
	dkms remove -m fpga-suite -v "$v" --all
done
rm -rf /usr/src/fpga-suite-*

"$(dirname "$0")"/../build/apt-get.sh install -y -q --no-install-recommends \
	"$debdir/fpga-suite-dkms_${version}_all.deb" \
	"$debdir"/fpga-tools_"${version}"_*.deb \
	"$debdir"/fpga-tools-dbgsym_"${version}"_*.deb
dkms status -m fpga-suite
