#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fpga_dfl beside other FPGA stacks.  Prints KTAP.
#
# On a kernel without an FPGA core (Debian's): another module owns the
# class fpga_region (a module of the tests' that registers it, as an
# out-of-tree fpga_region would): fpga_dfl, loaded after it, must say so
# naming the class, make no regions and no upstream-named nodes, and work
# on with its own names; once the class is free again, loading fpga_dfl
# brings the upstream layout back.
#
# On a kernel built with CONFIG_FPGA_REGION (the debug kernel): fpga_dfl
# depends on the kernel's fpga_region module and registers its regions in
# that class, the layout is the upstream one, and nothing of ours is left
# in the class once the suite is unloaded (fpga_region then unloads too).
#
# On both: a module holds the bus "dfl" (as the upstream DFL drivers'
# module dfl does): fpga_dfl leaves the upstream names to it.
#
# Exit status: 0 all passed (some may be skipped), 1 a test failed,
# 4 nothing ran.

SIM=/sys/bus/fpga_sim
REGIONS=/sys/class/fpga_region
SQUATTERS=$(dirname "$0")
ID=$((9000 + $$ % 1000))
CARD_ADDED=""

. "$(dirname "$0")/ktap_lib.sh"

unload_suite()
{
	modprobe -r uio_fpga fpga_fme fpga_port fpga_sim fpga_dfl_pci fpga_dfl \
		2>/dev/null
	! grep -q '^fpga_dfl ' /proc/modules
}

load_suite()
{
	modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme
}

cleanup()
{
	[ -n "$CARD_ADDED" ] && echo "$ID" > $SIM/del_device 2>/dev/null
	unload_suite
	rmmod fpga_region_squatter dfl_bus_squatter 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Whether fpga_dfl was built against a kernel's own fpga_region
kernel_has_fpga_region()
{
	grep '/fpga_dfl\.ko:' "/lib/modules/$(uname -r)/modules.dep" |
		grep -q '/fpga[-_]region\.ko'
}

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

# expect_log TEXT: the kernel log has a line with TEXT
expect_log()
{
	msg=$(dmesg | grep -F "$1")
	[ -n "$msg" ] || { diag "no log line: $1"; return 1; }
	diag "$msg"
}

# The card has our names only: no region, no /dev/dfl-port.N
own_names_only()
{
	[ -z "$(ls $REGIONS 2>/dev/null)" ] ||
		{ diag "regions in the other stack's class: $(ls $REGIONS)"; return 1; }
	[ ! -e "/dev/dfl-port.$PORT" ] || { diag "/dev/dfl-port.$PORT exists"; return 1; }
	[ ! -e "$SIM/devices/fpga_sim$ID/pci_function/fpga_region" ] ||
		{ diag "the card's function has an fpga_region directory"; return 1; }
	exec 5< "/dev/fpga-port.$PORT" || return 1
	exec 5<&-
	fpgactl info "$PORT" > /dev/null || { diag "fpgactl info $PORT failed"; return 1; }
}

# The card's port is in a region of the class, under the card's function
upstream_layout()
{
	[ -c "/dev/dfl-port.$PORT" ] || { diag "no /dev/dfl-port.$PORT"; return 1; }
	region=$(ls -d $REGIONS/region*/dfl-port.$PORT 2>/dev/null | head -n 1)
	[ -n "$region" ] || { diag "dfl-port.$PORT is in no region"; return 1; }
	region=${region%/dfl-port.*}
	[ "$(readlink -f "$region/device")" = \
	  "$(readlink -f "$SIM/devices/fpga_sim$ID/pci_function")" ] ||
		{ diag "$region is not under the card's function"; return 1; }
	exec 5< "/dev/dfl-port.$PORT" || return 1
	exec 5<&-
}

# --- a kernel without an FPGA core: another module owns the class ---

setup_squatted()
{
	[ -f "$SQUATTERS/fpga_region_squatter.ko" ] ||
		{ diag "fpga_region_squatter.ko was not built"; return 1; }
	unload_suite || { diag "the suite's modules do not unload"; return 1; }
	insmod "$SQUATTERS/fpga_region_squatter.ko" || return 1
	[ -d $REGIONS ] || { diag "the squatter made no class fpga_region"; return 1; }
	dmesg -c > /dev/null
	load_suite
}

# fpga_dfl says whose the class is, and loads (the host fails the run on
# a stack dump in the log, such as sysfs's for a duplicate class)
t_squatted_message()
{
	expect_log 'fpga_dfl: class fpga_region belongs to another module'
}

t_squatted_own_names()
{
	card_up && own_names_only && card_down
}

# The other stack goes, fpga_dfl is loaded again: the upstream layout is back
t_class_freed()
{
	unload_suite || { diag "the suite's modules do not unload"; return 1; }
	rmmod fpga_region_squatter || return 1
	load_suite && card_up && upstream_layout && card_down
}

# --- a kernel with its own fpga_region: the suite uses its class ---

setup_kernel_class()
{
	unload_suite || { diag "the suite's modules do not unload"; return 1; }
	modprobe -r fpga_region 2>/dev/null
	dmesg -c > /dev/null
	load_suite || return 1
	[ -e /sys/module/fpga_region/holders/fpga_dfl ] ||
		{ diag "fpga_dfl does not use module fpga_region"; return 1; }
}

t_kernel_class_message()
{
	expect_log "fpga_dfl: upstream DFL layout in the kernel's class fpga_region (module fpga_region)"
}

# Upstream's container regions have a compat_id that cannot be read
t_kernel_class_layout()
{
	card_up && upstream_layout || return 1
	! cat "$region/compat_id" > /dev/null 2>&1 ||
		{ diag "$region/compat_id can be read"; return 1; }
	card_down || return 1
	[ -z "$(ls $REGIONS)" ] || { diag "regions left: $(ls $REGIONS)"; return 1; }
}

# Nothing of ours holds the kernel's module once the suite is gone; and
# the suite loads it again
t_kernel_class_released()
{
	unload_suite || { diag "the suite's modules do not unload"; return 1; }
	modprobe -r fpga_region || { diag "fpga_region is still held"; return 1; }
	[ ! -d $REGIONS ] || { diag "$REGIONS is still there"; return 1; }
	load_suite && card_up && upstream_layout && card_down
}

# --- both: the upstream DFL drivers' bus is there ---

t_dfl_bus()
{
	[ -f "$SQUATTERS/dfl_bus_squatter.ko" ] ||
		{ diag "dfl_bus_squatter.ko was not built"; return 1; }
	unload_suite || { diag "the suite's modules do not unload"; return 1; }
	insmod "$SQUATTERS/dfl_bus_squatter.ko" || return 1
	dmesg -c > /dev/null
	load_suite || return 1
	expect_log 'fpga_dfl: bus dfl belongs to another module' || return 1
	card_up && own_names_only && card_down || return 1
	unload_suite && rmmod dfl_bus_squatter
}

ktap_plan 5
if kernel_has_fpga_region; then
	t "setup: the suite loads with the kernel's fpga_region" setup_kernel_class ||
		ktap_no_setup 5
	t "fpga_dfl says it uses the kernel's class" t_kernel_class_message
	t "a card's regions are the kernel's, in the upstream layout" t_kernel_class_layout
	t "unloaded, the suite leaves fpga_region free to go" t_kernel_class_released
else
	t "setup: a module holds class fpga_region, the suite loads after it" setup_squatted ||
		ktap_no_setup 5
	t "fpga_dfl says the class is taken" t_squatted_message
	t "its own names work, no upstream layout is made" t_squatted_own_names
	t "with the class free again, the upstream layout comes back" t_class_freed
fi
t "with the bus dfl taken, the upstream names are left to it" t_dfl_bus
ktap_done
