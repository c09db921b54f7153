#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The upstream DFL device model beside our names, on a simulated card with
# two ports: a region of class fpga_region per port under the card's PCI
# function, dfl-port.N and dfl-fme.N in them with /dev nodes, and their
# attributes checked against what upstream documents (dfl_abi.txt, made
# from the kernel's Documentation/ABI files at build time) and against
# the formats upstream's drivers print.  Prints KTAP.
#
# Exit status: 0 all passed (some may be skipped), 1 a test failed,
# 4 nothing ran.

SIM=/sys/bus/fpga_sim
REGIONS=/sys/class/fpga_region
ABI=$(dirname "$0")/dfl_abi.txt
ID=$((7000 + $$ % 1000))
# The card whose PCI function is removed under an open file
ID2=$((ID + 1000))
T=$(mktemp -d) || exit 1
CARD_ADDED=""
CARD2_ADDED=""
# The cards that fill fpga_sim's PCI bus (t_pci_full)
FILL_IDS=""

cleanup()
{
	exec 5<&-
	[ -n "$CARD_ADDED" ] && echo "$ID" > $SIM/del_device 2>/dev/null
	[ -n "$CARD2_ADDED" ] && echo "$ID2" > $SIM/del_device 2>/dev/null
	for id in $FILL_IDS; do echo "$id" > $SIM/del_device; done 2>/dev/null
	modprobe -r fpga_fme fpga_port fpga_sim fpga_dfl 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

. "$(dirname "$0")/ktap_lib.sh"

# eq WHAT GOT WANT
eq()
{
	[ "$2" = "$3" ] && return 0
	diag "$1: got '$2', expected '$3'"
	return 1
}

# like WHAT FILE REGEX: FILE's content matches the extended REGEX
like()
{
	v=$(cat "$2" 2>&1) || { diag "$1: reading $2: $v"; return 1; }
	echo "$v" | grep -Eqx "$3" && return 0
	diag "$1: $2 is '$v', not /$3/"
	return 1
}

# region_of NODE: the region directory holding NODE (dfl-port.N, ...)
region_of()
{
	for r in $REGIONS/region*; do
		[ -d "$r/$1" ] && { echo "$r"; return; }
	done
}

# files DIR: the attribute files under DIR, relative, one level of
# groups deep, without the driver core's (dev, uevent, power/)
files()
{
	(cd "$1" && find . -maxdepth 2 -type f ! -name dev ! -name uevent \
		! -path './power/*' | sed 's|^\./||' | sort)
}

setup()
{
	[ -s "$ABI" ] || { diag "$ABI missing or empty"; return 1; }
	modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme ||
		return 1
	echo "$ID 2" > $SIM/new_device || return 1
	CARD_ADDED=1
	CARD=$SIM/devices/fpga_sim$ID
	FME=$(ls -d "$CARD"/fpga-fme.* | sed 's/.*\.//')
	PORTS=$(ls -d "$CARD"/fpga-port.* | sed 's/.*\.//' | sort -n)
	P0=$(echo "$PORTS" | head -n 1)
	eq "ports of the card" "$(echo "$PORTS" | wc -l)" 2
}

t_regions()
{
	seen=""
	for p in $PORTS; do
		r=$(region_of "dfl-port.$p")
		[ -n "$r" ] || { diag "no region holds dfl-port.$p"; return 1; }
		eq "ports in ${r##*/}" "$(ls -d "$r"/dfl-port.* | wc -l)" 1 ||
			return 1
		eq "${r##*/}'s device" "$(readlink -f "$r/device")" \
			"$(readlink -f "$CARD/pci_function")" || return 1
		eq "${r##*/}'s class" "$(basename "$(readlink -f "$r/subsystem")")" \
			fpga_region || return 1
		case " $seen " in
		*" $r "*) diag "dfl-port.$p shares ${r##*/}"; return 1 ;;
		esac
		seen="$seen $r"
	done
	eq "the FME's region" "$(region_of "dfl-fme.$FME")" \
		"$(region_of "dfl-port.$P0")"
}

# The card is a PCI function of fpga_sim's own bus, as OPAE expects a
# region's parent to be: an address in a domain of its own, the ids of a
# processing accelerator of no vendor, bound to fpga_sim_pci, which
# offers no unbind
t_pci_function()
{
	f=$(readlink -f "$CARD/pci_function")
	[ -n "$f" ] && [ -d "$f" ] || { diag "no pci_function link"; return 1; }
	eq "its bus" "$(basename "$(readlink -f "$f/subsystem")")" pci &&
	eq "its vendor" "$(cat "$f/vendor")" 0x0000 &&
	eq "its device" "$(cat "$f/device")" 0xd5f1 &&
	eq "its class" "$(cat "$f/class")" 0x120000 &&
	eq "its driver" "$(basename "$(readlink -f "$f/driver")")" \
		fpga_sim_pci || return 1
	echo "${f##*/}" | grep -Eqx '[0-9a-f]{4}:00:[01][0-9a-f]\.0' || {
		diag "address ${f##*/} is not a domain:00:slot.0"
		return 1
	}
	[ ! -e "$f/driver/unbind" ] || { diag "fpga_sim_pci offers unbind"; return 1; }
	[ ! -e "$f/resource0" ] || { diag "the function has a BAR"; return 1; }
}

# Removing the PCI function is the card's surprise removal: with a port
# open, its FME, ports, regions and nodes go, a PCI rescan does not bring
# the function back, the open file closes, and the card still deletes
t_pci_remove()
{
	echo "$ID2 1" > $SIM/new_device || return 1
	CARD2_ADDED=1
	card=$SIM/devices/fpga_sim$ID2
	port=$(ls -d "$card"/fpga-port.* | sed 's/.*\.//')
	f=$(readlink -f "$card/pci_function")
	[ -d "$f" ] || { diag "card $ID2 has no PCI function"; return 1; }
	exec 5< "/dev/dfl-port.$port" || return 1
	echo 1 > "$f/remove" || return 1
	[ ! -e "$f" ] || { diag "${f##*/} is still there"; return 1; }
	for n in "$card"/fpga-fme.* "$card"/fpga-port.*; do
		[ -e "$n" ] && { diag "${n##*/} outlived the removal"; return 1; }
	done
	[ -z "$(region_of "dfl-port.$port")" ] || { diag "dfl-port.$port still in a region"; return 1; }
	[ ! -e "/dev/dfl-port.$port" ] || { diag "/dev/dfl-port.$port is still there"; return 1; }
	echo 1 > /sys/bus/pci/rescan || return 1
	[ ! -e "$f" ] || { diag "a rescan brought ${f##*/} back"; return 1; }
	exec 5<&-
	echo "$ID2" > $SIM/del_device || return 1
	CARD2_ADDED=""
	[ ! -e "$card" ] || { diag "card $ID2 is still there"; return 1; }
}

# A node's /dev entry is a character device with the numbers of its dev
t_nodes()
{
	for n in "dfl-fme.$FME" $(for p in $PORTS; do echo "dfl-port.$p"; done); do
		r=$(region_of "$n")
		[ -c "/dev/$n" ] || { diag "/dev/$n is not a character device"; return 1; }
		want=$(cat "$r/$n/dev")
		got=$(stat -c '%t %T' "/dev/$n" | {
			read -r ma mi
			echo "$((0x$ma)):$((0x$mi))"
		})
		eq "/dev/$n" "$got" "$want" || return 1
	done
}

# hwmon_files DIR: the files of the hwmon devices DIR/hwmon/ links to,
# as upstream's ABI names them (hwmon/hwmonX/FILE)
hwmon_files()
{
	for h in "$1"/hwmon/hwmon*; do
		[ -d "$h" ] || continue
		(cd "$h" && find . -maxdepth 1 -type f ! -name uevent |
			sed 's|^\./|hwmon/hwmonX/|')
	done
}

# Every file is one upstream documents; every one a card like ours backs
# is there.  Not backed: the port's ap1_event/ap2_event (no power
# management) and userclk_* (no user clock); the FME's hwmon/ only on a
# kernel with hwmon.
t_documented()
{
	r=$(region_of "dfl-port.$P0")
	{
		files "$r/dfl-port.$P0" | sed 's/^/port /'
		files "$r/dfl-fme.$FME" | sed 's/^/fme /'
		hwmon_files "$r/dfl-fme.$FME" | sed 's/^/fme /'
		files "$r" | grep -v / | sed 's/^/region /'
	} | sort -u > "$T/ours"
	sort "$ABI" > "$T/abi"
	extra=$(grep -vxF -f "$T/abi" "$T/ours")
	[ -z "$extra" ] || { diag "not in the upstream ABI: $extra"; return 1; }
	for f in "port id" "port afu_id" "port power_state" "port ltr" \
		 "port errors/errors" "port errors/first_error" \
		 "port errors/first_malformed_req" "fme ports_num" \
		 "fme bitstream_id" "fme bitstream_metadata" "fme cache_size" \
		 "fme fabric_version" "fme socket_id" "fme errors/fme_errors" \
		 "fme errors/pcie0_errors" "fme errors/pcie1_errors" \
		 "fme errors/nonfatal_errors" "fme errors/catfatal_errors" \
		 "fme errors/inject_errors" "fme errors/first_error" \
		 "fme errors/next_error" "region compat_id"; do
		grep -qx "$f" "$T/abi" || { diag "upstream does not document $f"; return 1; }
		grep -qx "$f" "$T/ours" || { diag "missing: $f"; return 1; }
	done
	[ -d /sys/class/hwmon ] || return 0
	grep '^fme hwmon/' "$T/abi" | sort > "$T/abi.hwmon"
	grep '^fme hwmon/' "$T/ours" > "$T/ours.hwmon"
	cmp -s "$T/abi.hwmon" "$T/ours.hwmon" && return 0
	diag "the FME's hwmon files are not upstream's:"
	diag "$(diff "$T/abi.hwmon" "$T/ours.hwmon")"
	return 1
}

# The formats upstream's dfl-afu and dfl-fme print
t_formats()
{
	r=$(region_of "dfl-port.$P0")
	p=$r/dfl-port.$P0
	f=$r/dfl-fme.$FME
	like id "$p/id" '[0-9]+' &&
	like afu_id "$p/afu_id" '[0-9a-f]{32}' &&
	eq "afu_id of both names" "$(cat "$p/afu_id")" \
		"$(cat "$CARD/fpga-port.$P0/afu_id")" &&
	like power_state "$p/power_state" '0x[0-9a-f]+' &&
	like ltr "$p/ltr" '[01]' &&
	like errors "$p/errors/errors" '0x[0-9a-f]+' &&
	like first_error "$p/errors/first_error" '0x[0-9a-f]+' &&
	like first_malformed_req "$p/errors/first_malformed_req" \
		'0x[0-9a-f]{32}' &&
	eq ports_num "$(cat "$f/ports_num")" 2 &&
	like bitstream_id "$f/bitstream_id" '0x[0-9a-f]+' &&
	like bitstream_metadata "$f/bitstream_metadata" '0x[0-9a-f]+' &&
	like cache_size "$f/cache_size" '[0-9]+' &&
	like fabric_version "$f/fabric_version" '[0-9]+' &&
	like socket_id "$f/socket_id" '[01]' || return 1
	for e in fme_errors pcie0_errors pcie1_errors nonfatal_errors \
		 catfatal_errors inject_errors first_error next_error; do
		like "errors/$e" "$f/errors/$e" '0x[0-9a-f]+' || return 1
	done
	# A container region has no compat id: reading it fails, as upstream
	if cat "$r/compat_id" > /dev/null 2>&1; then
		diag "compat_id of a container region reads"
		return 1
	fi
}

# ltr sets and clears the latency bit; a value that is not a boolean
# is refused; errors refuses a value other than the current one
t_writes()
{
	p=$(region_of "dfl-port.$P0")/dfl-port.$P0
	echo 1 > "$p/ltr" && eq "ltr after 1" "$(cat "$p/ltr")" 1 &&
	echo 0 > "$p/ltr" && eq "ltr after 0" "$(cat "$p/ltr")" 0 || return 1
	if echo maybe > "$p/ltr" 2> /dev/null; then
		diag "ltr took 'maybe'"
		return 1
	fi
	cur=$(cat "$p/errors/errors")
	if echo $((cur + 1)) > "$p/errors/errors" 2> /dev/null; then
		diag "errors took a value other than the current $cur"
		return 1
	fi
}

# Open through the upstream name: the same port, whose O_EXCL holder
# excludes the other name too (checked by port_test in C); here that the
# node opens and reads nothing odd
t_open()
{
	exec 5< "/dev/dfl-port.$P0" || return 1
	exec 5<&-
	exec 5< "/dev/dfl-fme.$FME" || return 1
	exec 5<&-
}

# fpga_sim's bus has 32 slots: a card made when all are taken works
# without a PCI function (its regions under the card's own device), and
# a slot freed by a deleted card serves the next card
t_pci_full()
{
	full=""
	for i in $(seq 40); do
		id=$((ID2 + i))
		echo "$id 1" > $SIM/new_device || return 1
		FILL_IDS="$FILL_IDS $id"
		[ -e "$SIM/devices/fpga_sim$id/pci_function" ] || { full=$id; break; }
	done
	[ -n "$full" ] || { diag "40 cards, all with a PCI function"; return 1; }
	card=$SIM/devices/fpga_sim$full
	port=$(ls -d "$card"/fpga-port.* 2>/dev/null | sed 's/.*\.//')
	[ -n "$port" ] && [ -c "/dev/fpga-port.$port" ] ||
		{ diag "card $full (no slot) has no working port"; return 1; }
	r=$(region_of "dfl-port.$port")
	[ -n "$r" ] || { diag "dfl-port.$port of card $full is in no region"; return 1; }
	case "$(readlink -f "$r")" in
	*/fpga_sim$full/*) ;;
	*) diag "${r##*/} is not under card $full: $(readlink -f "$r")"; return 1 ;;
	esac
	echo "$full" > $SIM/del_device || return 1
	first=${FILL_IDS# }
	first=${first%% *}
	echo "$first" > $SIM/del_device || return 1
	FILL_IDS=$(echo "$FILL_IDS" | tr ' ' '\n' | grep -vx -e "$full" -e "$first")
	id=$((ID2 + 41))
	echo "$id 1" > $SIM/new_device || return 1
	FILL_IDS="$FILL_IDS $id"
	[ -e "$SIM/devices/fpga_sim$id/pci_function" ] ||
		{ diag "a freed slot did not serve card $id"; return 1; }
	for id in $FILL_IDS; do
		echo "$id" > $SIM/del_device || return 1
	done
	FILL_IDS=""
}

# With the card, its regions and nodes go
t_card_del()
{
	nodes=$(for p in $PORTS; do echo "dfl-port.$p"; done)
	echo "$ID" > $SIM/del_device || return 1
	CARD_ADDED=""
	for n in "dfl-fme.$FME" $nodes; do
		[ -n "$(region_of "$n")" ] && { diag "$n still in a region"; return 1; }
		[ -e "/dev/$n" ] && { diag "/dev/$n is still there"; return 1; }
	done
	return 0
}

ktap_plan 11
t "setup: a simulated card with two ports" setup || ktap_no_setup 11
t "the card is a PCI function of fpga_sim's bus" t_pci_function
t "a region per port, of class fpga_region, under the card's function" t_regions
t "/dev/dfl-port.N and /dev/dfl-fme.N match their dev" t_nodes
t "every attribute is in upstream's ABI, all a card like ours backs are there" t_documented
t "attributes print as upstream's drivers print them" t_formats
t "ltr and errors take what upstream takes, refuse the rest" t_writes
t "the upstream-named nodes open" t_open
t "removing the PCI function removes the card under an open port" t_pci_remove
t "a card made with every PCI slot taken works without a function" t_pci_full
t "the regions and nodes go with the card" t_card_del
ktap_done
