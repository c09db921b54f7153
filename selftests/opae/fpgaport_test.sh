#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# OPAE's fpgaport (opae.admin, unchanged: scripts/build/opae-admin-stage.sh
# puts it in the VM) releases a port of a simulated card to a VF and
# assigns it back, through upstream's FME ioctls and sriov_numvfs, on a
# card of one port (opae.admin takes a card of several for several
# devices, Documentation/opae.md) with fpga_dfl_pci loaded (opae.admin
# finds no card without /sys/bus/pci/drivers/dfl-pci):
#   - "release BDF 0 -N 1": the port's device, /dev/dfl-port.M and
#     /dev/fpga-port.M go, sriov_numvfs is 1 and the PF's virtfn0 is a VF
#     (0000:d5f2) of it;
#   - "assign BDF 0" with VFs enabled is skipped (OPAE's rule: it
#     destroys VFs only with -X or -N 0), nothing changes;
#   - "assign BDF 0 -X": the VF goes, the port is back under its name;
#   - the same with the FME's node (/dev/dfl-fme.N) for the card, the VF
#     disabled by hand (sriov_numvfs 0) before a plain assign;
#   - a release of a port another process holds open is refused (EBUSY)
#     and changes nothing.
# fpgaport exits 0 whether the ioctl worked or not (it logs a warning):
# the test reads what it logs and what sysfs says.  Prints KTAP.
#
# Exit status: 0 all passed (some may be skipped), 1 a test failed,
# 4 nothing ran.

SIM=/sys/bus/fpga_sim
SIM_ID=$((7000 + $$ % 1000))
CARD=$SIM/devices/fpga_sim$SIM_ID
T=$(mktemp -d) || exit 1

cleanup()
{
	exec 5>&-
	# Deleting the card disables its VFs and frees a released port
	[ -d $SIM ] && echo "$SIM_ID" > $SIM/del_device 2>/dev/null
	modprobe -r fpga_fme fpga_port fpga_dfl_pci fpga_sim fpga_dfl 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../fpga/ktap_lib.sh"

setup()
{
	command -v fpgaport > /dev/null ||
		ktap_skip_all "no fpgaport: OPAE's opae.admin is not in this image"
	modprobe fpga_dfl_pci && modprobe fpga_sim && modprobe fpga_port &&
		modprobe fpga_fme ||
		{ ktap_plan 0 "modules failed to load"; exit 1; }
	[ -d /sys/bus/pci/drivers/dfl-pci ] ||
		{ ktap_plan 0 "no /sys/bus/pci/drivers/dfl-pci"; exit 1; }
	echo "$SIM_ID 1" > $SIM/new_device ||
		{ ktap_plan 0 "no simulated card"; exit 1; }
	PF=$(readlink -f "$CARD/pci_function")
	BDF=${PF##*/}
	FME=$(cd "$CARD" && echo fpga-fme.*)
	PORT=$(cd "$CARD" && echo fpga-port.*)
	[ -c "/dev/$FME" ] && [ -c "/dev/$PORT" ] && [ -d "$PF" ] ||
		{ ktap_plan 0 "no FME, port or PCI function of the card"; exit 1; }
	DFL_FME=dfl-fme.${FME#fpga-fme.}
	DFL_PORT=dfl-port.${PORT#fpga-port.}
	diag "card $SIM_ID: $BDF, $FME, $PORT"
}

# fpgaport ARGS...: OPAE's fpgaport, what it says in $T/out; fails if it
# exits non-zero
fpgaport_to()
{
	fpgaport "$@" > "$T/out" 2>&1 ||
		{ diag "fpgaport $* failed ($?): $(cat "$T/out")"; return 1; }
}

# quiet ARGS...: fpgaport logged no warning or error
quiet()
{
	if grep -q -e WARNING -e ERROR -e Traceback "$T/out"; then
		diag "fpgaport $* says:"
		diag "$(cat "$T/out")"
		return 1
	fi
}

# numvfs N: the PF's sriov_numvfs is N, and it has a VF 0 exactly when N
# is 1, a function 0000:d5f2 whose physfn is the PF
numvfs()
{
	n=$(cat "$PF/sriov_numvfs")
	[ "$n" = "$1" ] || { diag "sriov_numvfs $n, not $1"; return 1; }
	if [ "$1" = 0 ]; then
		[ ! -e "$PF/virtfn0" ] || { diag "virtfn0 with no VF"; return 1; }
		return 0
	fi
	[ -e "$PF/virtfn0" ] || { diag "no virtfn0"; return 1; }
	id="$(cat "$PF/virtfn0/vendor"):$(cat "$PF/virtfn0/device")"
	[ "$id" = 0x0000:0xd5f2 ] || { diag "virtfn0 is $id"; return 1; }
	[ "$(readlink -f "$PF/virtfn0/physfn")" = "$PF" ] ||
		{ diag "virtfn0's physfn is not $BDF"; return 1; }
}

# port_gone: the port has no device (fpga-port.M under the card, on the
# bus, in the PF's regions) and no node
port_gone()
{
	for f in "$CARD/$PORT" "/sys/bus/fpga_dfl/devices/$PORT" \
		"/dev/$PORT" "/dev/$DFL_PORT"; do
		[ ! -e "$f" ] || { diag "$f after the release"; return 1; }
	done
	if ls -d "$PF"/fpga_region/region*/dfl-port.* > /dev/null 2>&1; then
		diag "a dfl-port.* in $BDF's regions after the release"
		return 1
	fi
}

# port_back: the port is back under its name, with its nodes
port_back()
{
	# the nodes come back with the device: udev may lag
	for _ in $(seq 50); do
		[ -c "/dev/$PORT" ] && [ -c "/dev/$DFL_PORT" ] && break
		sleep 0.1
	done
	for f in "$CARD/$PORT" "/sys/bus/fpga_dfl/devices/$PORT"; do
		[ -d "$f" ] || { diag "no $f"; return 1; }
	done
	[ -c "/dev/$PORT" ] && [ -c "/dev/$DFL_PORT" ] ||
		{ diag "no /dev/$PORT or /dev/$DFL_PORT"; return 1; }
	ls -d "$PF"/fpga_region/region*/"$DFL_PORT" > /dev/null 2>&1 ||
		{ diag "no $DFL_PORT in $BDF's regions"; return 1; }
}

# release TARGET: fpgaport release TARGET 0 -N 1 releases the port to a VF
release()
{
	fpgaport_to release "$1" 0 -N 1 && quiet release "$1" &&
		port_gone && numvfs 1
}

# assign TARGET ARGS...: fpgaport assign TARGET 0 ARGS takes the VF away
# and the port back
assign()
{
	target=$1
	shift
	fpgaport_to assign "$target" 0 "$@" && quiet assign "$target" 0 "$@" &&
		numvfs 0 && port_back
}

# OPAE's assign leaves a card with VFs alone unless told to destroy them
# (-X or -N 0): it warns, and nothing changes
t_assign_vfs()
{
	fpgaport_to assign "$BDF" 0 || return 1
	grep -q "has VFs, skipping" "$T/out" ||
		{ diag "fpgaport assign did not skip: $(cat "$T/out")"; return 1; }
	numvfs 1 && port_gone
}

# The VFs disabled by hand first: a plain assign
t_assign_novfs()
{
	echo 0 > "$PF/sriov_numvfs" && numvfs 0 && port_gone &&
		assign "/dev/$DFL_FME"
}

# A port another process holds open: the release is refused, as
# upstream's (EBUSY), fpgaport says so, and nothing changes
t_busy()
{
	exec 5< "/dev/$PORT" || return 1
	fpgaport_to release "$BDF" 0 -N 1
	rc=$?
	exec 5>&-
	[ $rc -eq 0 ] || return 1
	grep -q "Device or resource busy" "$T/out" ||
		{ diag "fpgaport did not say EBUSY: $(cat "$T/out")"; return 1; }
	numvfs 0 && port_back
}

setup
ktap_plan 6
t "fpgaport release of a port held open: EBUSY, nothing changes" t_busy
t "fpgaport release BDF 0 -N 1: the port goes, its VF comes" release "$BDF"
t "fpgaport assign BDF 0 with VFs enabled: skipped, nothing changes" t_assign_vfs
t "fpgaport assign BDF 0 -X: the VF goes, the port comes back" assign "$BDF" -X
t "fpgaport release /dev/dfl-fme.N 0 -N 1: the same by the FME's node" release "/dev/$DFL_FME"
t "sriov_numvfs 0, then fpgaport assign /dev/dfl-fme.N 0: the port is back" t_assign_novfs
ktap_done
