#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Purge the packages deb-install.sh installed and check that nothing of
# them is left: no modules in any kernel's tree, no DKMS state or sources,
# no tools, udev rule or configuration.  The "fpga" group stays (it may
# own files), as Debian policy has it.
#
# usage: deb-purge-check.sh
set -u
export DEBIAN_FRONTEND=noninteractive
"$(dirname "$0")"/../build/apt-get.sh purge -y -q fpga-suite-dkms fpga-tools fpga-tools-dbgsym || exit 1

left=$(
	for p in fpga-suite-dkms fpga-tools fpga-tools-dbgsym; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -v '^unknown ok not-installed$' |
			sed "s/^/package $p: /"
	done
	find /lib/modules/*/updates /lib/modules/*/extra -name 'fpga_*.ko*' \
		-o -name 'uio_fpga.ko*' -o -name 'vgem_ext.ko*' 2>/dev/null
	ls -d /var/lib/dkms/fpga-suite /usr/src/fpga-suite-* \
		/usr/bin/fpgactl /lib/udev/rules.d/60-fpga-suite.rules \
		/usr/lib/udev/rules.d/60-fpga-suite.rules \
		/lib/udev/rules.d/61-fpga-suite-cdi.rules \
		/usr/lib/udev/rules.d/61-fpga-suite-cdi.rules \
		/etc/modprobe.d/fpga-suite.conf \
		/etc/modules-load.d/fpga-suite.conf \
		/usr/share/bash-completion/completions/fpgactl \
		/usr/share/doc/fpga-tools /usr/share/doc/fpga-suite-dkms 2>/dev/null
)
if [ -n "$left" ]; then
	echo "deb-purge: left behind:"
	echo "$left"
	exit 1
fi
getent group fpga > /dev/null || { echo "deb-purge: the fpga group is gone"; exit 1; }
echo "deb-purge: nothing left but the fpga group"
