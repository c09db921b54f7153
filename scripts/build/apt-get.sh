#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# apt-get as the suite's scripts run it.  apt is shared with the system
# (apt-daily, unattended-upgrades): wait for its lock rather than fail on
# it.  A dpkg run that was interrupted (an install killed half way) leaves
# apt refusing everything until "dpkg --configure -a": finish it first.
#
# usage: apt-get.sh ARGS...   (as apt-get; run as root)
set -eu

if [ -n "$(dpkg --audit 2>/dev/null)" ]; then
	echo "apt-get.sh: dpkg was interrupted: dpkg --configure -a" >&2
	dpkg --configure -a || true
fi
exec apt-get -o DPkg::Lock::Timeout=1800 "$@"
