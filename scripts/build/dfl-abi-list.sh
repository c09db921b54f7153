#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The sysfs files upstream documents for the DFL device model, from the
# kernel's own ABI files (Debian's linux-source of the host's line; 6.1's
# and 6.12's list the same files): one line per file,
# "fme|port|region PATH", PATH relative to dfl-fme.N, dfl-port.N or
# regionN.  dfl_abi_test compares our upstream-named devices with it.
set -eu
abi=$("$(dirname "$0")/linux-source.sh")/Documentation/ABI/testing
sed -n 's#^What:[[:space:]]*/sys/bus/platform/devices/dfl-\(fme\|port\)\.0/#\1 #p' \
	"$abi/sysfs-platform-dfl-fme" "$abi/sysfs-platform-dfl-port"
sed -n 's|^What:[[:space:]]*/sys/class/fpga_region/<region>/|region |p' \
	"$abi/sysfs-class-fpga-region"
