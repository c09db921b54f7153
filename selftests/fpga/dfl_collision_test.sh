#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Another FPGA stack owns the class fpga_region (here a module of the
# tests' that registers it, as the kernel's own fpga_region module would):
# fpga_dfl, loaded after it, must say so naming the class, make no
# regions and no upstream-named nodes, and work on with its own names; and
# once the class is free again, loading fpga_dfl brings the upstream
# layout back.  Prints KTAP.
#
# Exit status: 0 all passed (some may be skipped), 1 a test failed,
# 4 nothing ran.

SIM=/sys/bus/fpga_sim
REGIONS=/sys/class/fpga_region
SQUATTER=$(dirname "$0")/fpga_region_squatter.ko
ID=$((9000 + $$ % 1000))
CARD_ADDED=""

. "$(dirname "$0")/ktap_lib.sh"

unload_suite()
{
	modprobe -r uio_fpga fpga_fme fpga_port fpga_sim fpga_dfl_pci fpga_dfl \
		2>/dev/null
	! grep -q '^fpga_dfl ' /proc/modules
}

cleanup()
{
	[ -n "$CARD_ADDED" ] && echo "$ID" > $SIM/del_device 2>/dev/null
	unload_suite
	rmmod fpga_region_squatter 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# card_up: a simulated card with one port, its port number in $PORT
card_up()
{
	echo "$ID 1" > $SIM/new_device || return 1
	CARD_ADDED=1
	PORT=$(ls -d $SIM/devices/fpga_sim$ID/fpga-port.* | sed 's/.*\.//')
	[ -n "$PORT" ] || { diag "card $ID has no port"; return 1; }
}

card_down()
{
	echo "$ID" > $SIM/del_device || return 1
	CARD_ADDED=""
}

setup()
{
	[ -f "$SQUATTER" ] || { diag "$SQUATTER was not built"; return 1; }
	unload_suite || { diag "the suite's modules do not unload"; return 1; }
	insmod "$SQUATTER" || return 1
	[ -d $REGIONS ] || { diag "the squatter made no class fpga_region"; return 1; }
	dmesg -c > /dev/null
	modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme
}

# fpga_dfl says whose the class is, and loads (the host fails the run on
# a stack dump in the log, such as sysfs's for a duplicate class)
t_message()
{
	msg=$(dmesg | grep 'fpga_dfl: class fpga_region belongs to another module')
	[ -n "$msg" ] || { diag "fpga_dfl said nothing of the taken class"; return 1; }
	diag "$msg"
}

# Our names work; nothing of the upstream layout is made
t_own_names()
{
	card_up || return 1
	[ -z "$(ls $REGIONS)" ] || { diag "regions in the other stack's class: $(ls $REGIONS)"; return 1; }
	[ ! -e "/dev/dfl-port.$PORT" ] || { diag "/dev/dfl-port.$PORT exists"; return 1; }
	[ ! -e "$SIM/devices/fpga_sim$ID/pci_function/fpga_region" ] ||
		{ diag "the card's function has an fpga_region directory"; return 1; }
	exec 5< "/dev/fpga-port.$PORT" || return 1
	exec 5<&-
	fpgactl info "$PORT" > /dev/null || { diag "fpgactl info $PORT failed"; return 1; }
	card_down
}

# The other stack goes, fpga_dfl is loaded again: the upstream layout is back
t_class_freed()
{
	unload_suite || { diag "the suite's modules do not unload"; return 1; }
	rmmod fpga_region_squatter || return 1
	modprobe fpga_sim && modprobe fpga_port && card_up || return 1
	[ -e "/dev/dfl-port.$PORT" ] || { diag "no /dev/dfl-port.$PORT"; return 1; }
	ls -d $REGIONS/region*/dfl-port.$PORT > /dev/null 2>&1 ||
		{ diag "dfl-port.$PORT is in no region"; return 1; }
	card_down
}

echo "TAP version 13"
echo "1..4"
t "setup: a module holds class fpga_region, the suite loads after it" setup || ktap_no_setup 4
t "fpga_dfl says the class is taken" t_message
t "its own names work, no upstream layout is made" t_own_names
t "with the class free again, the upstream layout comes back" t_class_freed
ktap_done
