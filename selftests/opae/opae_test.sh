#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# OPAE's own tools, unchanged, on our drivers: fpgainfo, hello_fpga and
# hello_events (built from the OPAE SDK by scripts/build/opae-build.sh, in the VM
# beside this test) on a simulated card (a PCI function of fpga_sim's
# bus) and on the PCI cards of the VM (QEMU ivshmem functions bound to
# fpga_dfl_pci).  What they print is compared with what sysfs says of
# every FME and port in /sys/class/fpga_region.  fpgaconf programs the
# PCI card with a PR engine (selftests/fpga/pci-cards/basic.json, played
# by scripts/images/dfl-model) from GBS files of fpgactl gbs make: one of
# another interface id is refused before the card is asked, one of an
# AFU the model does not know is refused by the card (pr_err), NLB3 is
# loaded (by its GUID: the model runs no NLB3) and fpgainfo port shows
# it, NLB0 comes back and hello_fpga passes on it.  fpgainfo temp and
# power show the BMC sensors of a simulated card of board n3000 (Intel's
# N3000 ids, in the shipped opae.cfg), by label, with their hwmon files' values.
# Prints KTAP.
#
# OPAE loads its xfpga plugin only for PCI ids it knows: the simulated
# card's, both boards', come in the opae.cfg fpga-tools ships (hello_fpga
# and fpgainfo temp/power on them run with that file); opae-vm.cfg adds QEMU's ivshmem (1af4:1110) to them,
# for this VM only.
#
# Exit status: 0 all passed (some may be skipped), 1 a test failed,
# 4 nothing ran.

here=$(cd "$(dirname "$0")" && pwd)
REGIONS=/sys/class/fpga_region
PCI_DRIVER=/sys/bus/pci/drivers/fpga_dfl_pci
SIM=/sys/bus/fpga_sim
SIM_ID=$((8000 + $$ % 1000))
# The card of board n3000, for fpgainfo temp and power (t_bmc_sensors)
BMC_ID=$((SIM_ID + 1000))
SHIPPED_CFG=/usr/share/fpga-suite/opae.cfg
NLB0_GUID=d8424dc4-a4a3-c413-f89e-433683f9040b
NLB3_GUID=f7df405c-bd7a-cf72-22f1-44b0b93acd18
UNKNOWN_GUID=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0
# The PR interface id of the PCI card "basic" (its image's FME)
PCI_INTERFACE=1af41110-0df1-4a7e-b5c3-9e2d6f8a0c41
DFL=/sys/bus/fpga_dfl/devices
T=$(mktemp -d) || exit 1
export LIBOPAE_CFGFILE="$here/opae-vm.cfg"

cleanup()
{
	exec 5>&- 6>&-
	[ -d $SIM ] && echo "$SIM_ID" > $SIM/del_device 2>/dev/null
	[ -d $SIM/devices/fpga_sim$BMC_ID ] &&
		echo "$BMC_ID" > $SIM/del_device 2>/dev/null
	modprobe -r fpga_fme fpga_port fpga_dfl_pci fpga_sim fpga_dfl 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

. "$here/../fpga/ktap_lib.sh"
. "$here/opae_lib.sh"

# guid HEX32: the 32 hex digits of afu_id as OPAE prints a GUID
guid()
{
	echo "$1" | tr 'A-F' 'a-f' |
		sed 's/^\(.\{8\}\)\(.\{4\}\)\(.\{4\}\)\(.\{4\}\)\(.\{12\}\)$/\1-\2-\3-\4-\5/'
}

# lower TEXT: in lower case (fpgainfo prints a segment above 9 as F5A0,
# sysfs as f5a0)
lower()
{
	echo "$1" | tr 'A-F' 'a-f'
}

# hex VALUE: a number in hex, lower case, without 0x and leading zeros
hex()
{
	echo "$1" | tr 'A-F' 'a-f' | sed 's/^0x//; s/^0*\(.\)/\1/'
}

# bdf_of REGION: the PCI function the region is under
bdf_of()
{
	basename "$(readlink -f "$1/device")"
}

# records KEY1 KEY2 < fpgainfo output: "VALUE1 VALUE2" per block
records()
{
	awk -F ' +: ' -v k1="$1" -v k2="$2" '
		/^\/\/\*+/ { if (n) print a " " b; n = 1; a = b = "-" }
		$1 == k1 { a = $2 }
		$1 == k2 { b = $2 }
		END { if (n) print a " " b }' | sed 's/ *$//'
}

# same WHAT FILE_GOT FILE_WANT: the two sorted lists are equal
same()
{
	sort "$2" > "$2.s"
	sort "$3" > "$3.s"
	cmp -s "$2.s" "$3.s" && return 0
	diag "$1 differ (fpgainfo's < > sysfs'):"
	diag "$(diff "$2.s" "$3.s")"
	return 1
}

setup()
{
	for tool in fpgainfo hello_fpga hello_events fpgaconf; do
		command -v $tool > /dev/null || {
			ktap_skip_all "no $tool: OPAE is not in this image (make opae)"
		}
	done
	grep -qx '0x1af4' /sys/bus/pci/devices/*/vendor 2>/dev/null || {
		ktap_skip_all "no ivshmem DFL cards (run-vm --pci-cards)"
	}
	modprobe fpga_dfl_pci && modprobe fpga_sim && modprobe fpga_port &&
		modprobe fpga_fme ||
		{ ktap_plan 0 "modules failed to load"; exit 1; }
	echo "$SIM_ID 2" > $SIM/new_device ||
		{ ktap_plan 0 "no simulated card"; exit 1; }
	SIM_BDF=$(basename "$(readlink -f "$SIM/devices/fpga_sim$SIM_ID/pci_function")")
	# ivshmem is not in the driver's id table; every card is probed
	echo "1af4 1110" > $PCI_DRIVER/new_id
	# the host model answers a reset slowly (as pci_test sets it), and
	# each step of its PR engine within a pass or two of its 1 ms poll:
	# the 1 s pr_timeout_us is plenty, 5 s for a loaded host
	echo 5000000 > /sys/module/fpga_port/parameters/reset_timeout_us
	echo 5000000 > /sys/module/fpga_fme/parameters/pr_timeout_us
	for afu in nlb0 nlb3 $UNKNOWN_GUID; do
		fpgactl gbs make afu $afu interface $PCI_INTERFACE \
			out "$T/pci-$afu.gbs" > /dev/null ||
			{ ktap_plan 0 "fpgactl gbs make afu $afu failed"; exit 1; }
	done
	# the simulated card's interface id, not the PCI card's
	fpgactl gbs make afu nlb3 out "$T/sim-nlb3.gbs" > /dev/null ||
		{ ktap_plan 0 "fpgactl gbs make failed"; exit 1; }
}

# fpgainfo NAME ARGS...: fpgainfo ARGS, its output in $T/NAME
fpgainfo_to()
{
	name=$1
	shift
	fpgainfo "$@" > "$T/$name" 2> "$T/$name.err" && return 0
	diag "fpgainfo $* failed: $(cat "$T/$name.err")"
	return 1
}

# expect NAME WHAT ROW GLOB: $T/NAME.want, the line ROW prints for each
# sysfs directory GLOB matches (at least one)
expect()
{
	: > "$T/$1.want"
	for d in $4; do
		[ -d "$d" ] && $3 "$d" >> "$T/$1.want"
	done
	[ -s "$T/$1.want" ] || { diag "no $2 in $REGIONS"; return 1; }
	diag "$(wc -l < "$T/$1.want") $2 in sysfs"
}

fme_row() { echo "$(bdf_of "${1%/*}") $(hex "$(cat "$1/bitstream_id")")"; }
socket_row() { echo "$(bdf_of "${1%/*}") $(hex "$(cat "$1/socket_id")")"; }
port_row() { echo "$(bdf_of "${1%/*}") $(guid "$(cat "$1/afu_id")")"; }
# The FME error files, in the order fme_errors_row and error_rows print
FME_ERRORS="fme_errors pcie0_errors pcie1_errors nonfatal_errors \
catfatal_errors inject_errors first_error next_error"
fme_errors_row()
{
	[ -f "$1/errors/fme_errors" ] || return 0
	row="$(bdf_of "${1%/*}")"
	for e in $FME_ERRORS; do
		row="$row $(hex "$(cat "$1/errors/$e")")"
	done
	echo "$row"
}
port_errors_row()
{
	[ -f "$1/errors/errors" ] || return 0
	echo "port $(hex "$(cat "$1/errors/errors")") $(hex "$(cat "$1/errors/first_error")")"
}
# error_rows < fpgainfo errors all: per FME the card's address and its
# errors (as fme_errors_row), per port "port ERRORS FIRST_ERROR"
error_rows()
{
	awk -F ' +: ' '
		function flush() {
			if (kind == "fme")
				print bdf, v["Fme Errors"], v["PCIe0 Errors"],
				      v["PCIe1 Errors"], v["Nonfatal Errors"],
				      v["Catfatal Errors"], v["Inject Errors"],
				      v["First Error"], v["Next Error"]
			else if (kind == "port")
				print "port", v["Errors"], v["First Error"]
			kind = ""
			delete v
		}
		/^\/\/\*+ FME ERRORS/ { flush(); kind = "fme"; next }
		/^\/\/\*+ PORT ERRORS/ { flush(); kind = "port"; next }
		/^\/\/\*+/ { flush(); next }
		$1 == "PCIe s:b:d.f" { bdf = $2 }
		NF == 2 { v[$1] = $2 }
		END { flush() }' |
		while read -r first rest; do
			row=$(lower "$first")
			for x in $rest; do row="$row $(hex "$x")"; done
			echo "$row"
		done
}
# fme_error_wait FME FILE VALUE: until the model shows VALUE (it polls)
fme_error_wait()
{
	for _ in $(seq 100); do
		[ "$(cat "$1/errors/$2")" = "$3" ] && return 0
		sleep 0.05
	done
	diag "${1##*/} errors/$2: $(cat "$1/errors/$2"), not $3"
	return 1
}

# fpgainfo fme: every FME of every region, with its card's address and
# bitstream id
t_fme()
{
	fpgainfo_to fme fme || return 1
	records "PCIe s:b:d.f" "Bitstream Id" < "$T/fme" |
		while read -r bdf id; do echo "$(lower "$bdf") $(hex "$id")"; done > "$T/fme.got"
	expect fme FMEs fme_row "$REGIONS/region*/dfl-fme.*" &&
		same "the FMEs" "$T/fme.got" "$T/fme.want"
}

# fpgainfo fme: every FME's socket id, which xfpga finds from a token
# through the first "fpga*" entry of its PCI function (the fpga_region
# class directory, not one of fpga_dfl_pci's devices), with no error
t_socket_id()
{
	fpgainfo_to fme fme || return 1
	if grep -qi "socket_id" "$T/fme.err"; then
		diag "fpgainfo fme: $(cat "$T/fme.err")"
		return 1
	fi
	records "PCIe s:b:d.f" "Socket Id" < "$T/fme" |
		while read -r bdf id; do echo "$(lower "$bdf") $(hex "$id")"; done > "$T/socket.got"
	expect socket FMEs socket_row "$REGIONS/region*/dfl-fme.*" &&
		same "the socket ids" "$T/socket.got" "$T/socket.want"
}

# fpgainfo port: every port, with its card's address and AFU GUID
t_port()
{
	fpgainfo_to port port || return 1
	records "PCIe s:b:d.f" "Accelerator GUID" < "$T/port" |
		while read -r bdf id; do echo "$(lower "$bdf") $id"; done > "$T/port.got"
	expect port ports port_row "$REGIONS/region*/dfl-port.*" &&
		same "the ports" "$T/port.got" "$T/port.want"
}

# fpgainfo errors all: every FME's and every port's error registers, as
# sysfs has them, with an error injected on the simulated card (non-fatal)
# and on a PCI card (catastrophic); "fpgainfo errors fme --clear" runs
t_errors()
{
	sim_fme=$(ls -d "$REGIONS"/region*/dfl-fme.* | while read -r f; do
		[ "$(bdf_of "${f%/*}")" = "$SIM_BDF" ] && echo "$f"; done)
	pci_fme=$(ls -d "$REGIONS"/region*/dfl-fme.* | while read -r f; do
		[ "$(bdf_of "${f%/*}")" != "$SIM_BDF" ] && echo "$f"; done | head -n 1)
	[ -n "$sim_fme" ] && [ -n "$pci_fme" ] ||
		{ diag "no FME of the simulated card or of a PCI card"; return 1; }
	echo 4 > "$sim_fme/errors/inject_errors" &&
		echo 1 > "$pci_fme/errors/inject_errors" || return 1
	fme_error_wait "$sim_fme" nonfatal_errors 0x40 &&
		fme_error_wait "$pci_fme" catfatal_errors 0x800 || return 1
	fpgainfo_to err errors all || return 1
	error_rows < "$T/err" > "$T/err.got"
	expect err "FMEs with errors" fme_errors_row "$REGIONS/region*/dfl-fme.*" &&
		mv "$T/err.want" "$T/err.fme" &&
		expect err "ports with errors/" port_errors_row "$REGIONS/region*/dfl-port.*" &&
		cat "$T/err.fme" >> "$T/err.want" &&
		same "the errors" "$T/err.got" "$T/err.want" || return 1
	grep -q "^$SIM_BDF 0 0 0 40 0 4 " "$T/err.got" ||
		{ diag "fpgainfo does not show the injected error on $SIM_BDF"; return 1; }

	# OPAE's clear writes each error's value back: our store must take
	# it.  It writes inject_errors its own value too (it looks for a file
	# inject_error), as on upstream's driver: the injection stays until 0
	# is written, as hello_events does
	fpgainfo_to clear errors fme --clear || return 1
	if grep -qi "error" "$T/clear.err"; then
		diag "fpgainfo errors --clear: $(cat "$T/clear.err")"
		return 1
	fi
	for f in "$sim_fme" "$pci_fme"; do
		echo 0 > "$f/errors/inject_errors" &&
			fme_error_wait "$f" nonfatal_errors 0x0 &&
			fme_error_wait "$f" catfatal_errors 0x0 || return 1
	done
}

# fpgainfo temp, fpgainfo power: every FME's block, exit 0.  OPAE 2.14's
# xfpga has metrics only for the BMC sensors of Intel cards it knows by
# PCI id, never the FME's hwmon devices (Documentation/opae.md): on our
# cards it says so, and that is all it may say
t_sensors()
{
	for cmd in temp power; do
		fpgainfo_to "$cmd" "$cmd" || return 1
		records "PCIe s:b:d.f" "Bitstream Id" < "$T/$cmd" |
			while read -r bdf id; do echo "$(lower "$bdf") $(hex "$id")"; done > "$T/$cmd.got"
		expect "$cmd" FMEs fme_row "$REGIONS/region*/dfl-fme.*" &&
			same "the FMEs of fpgainfo $cmd" "$T/$cmd.got" "$T/$cmd.want" ||
			return 1
		diag "fpgainfo $cmd says: $(sort -u "$T/$cmd.err" | tr '\n' ' ')"
		if grep -vi -e metric -e "hardware type" -e "vendor id" \
			-e "device id" -e "^ *$" "$T/$cmd.err" | grep -qi error; then
			diag "fpgainfo $cmd: an error beside the metrics'"
			return 1
		fi
	done
	# The simulated card's FME has the files xfpga's table names
	# (hwmon/hwmon*/temp*_*, power*_*), on a kernel with hwmon
	[ -d /sys/class/hwmon ] || return 0
	for f in "$REGIONS"/region*/dfl-fme.*; do
		[ "$(bdf_of "${f%/*}")" = "$SIM_BDF" ] || continue
		ls "$f"/hwmon/hwmon*/temp1_input "$f"/hwmon/hwmon*/power1_input \
			> /dev/null 2>&1 || { diag "no hwmon/ files in $f"; return 1; }
	done
}

# metric_lines BDF < fpgainfo output: "NAME|VALUE|UNITS" of each metric
# of the block of the card at BDF (fpgainfo prints its segment in capitals)
metric_lines()
{
	awk -F ' +: ' -v bdf="$(echo "$1" | tr 'a-f' 'A-F')" '
		/^\/\/\*+/ { mine = 0 }
		$1 == "PCIe s:b:d.f" { mine = ($2 == bdf) }
		mine && /^\( *[0-9]+\) / {
			name = $1; sub(/^\( *[0-9]+\) /, "", name)
			split($2, v, " ")
			print name "|" v[1] "|" v[2]
		}'
}

# bmc_want FILE: the BMC's sensors from its hwmon files, "NAME|VALUE"
# in fpgainfo's units (mC, mV, mA to C, V, A; uW to W), "|" TYPE
bmc_want()
{
	for l in "$1"/*_label; do
		f=${l%_label}
		case ${f##*/} in
		power*) div=1000000 type=power ;;
		temp*) div=1000 type=temp ;;
		*) div=1000 type=power ;;
		esac
		echo "$(cat "$l")|$(awk -v v="$(cat "${f}_input")" -v d=$div \
			'BEGIN { printf "%.2f", v / d }')|$type"
	done
}

# fpgainfo temp and power on a card of board n3000, with the opae.cfg
# fpga-tools ships: OPAE's xfpga takes it for an N3000 by its PCI ids
# (listed there) and reads the BMC's sensors under its
# FME by their labels (Documentation/opae.md); each shows, with about
# the value of its hwmon file, in the command of its kind only
t_bmc_sensors()
{
	if [ ! -d /sys/class/hwmon ] || [ ! -d /sys/class/spi_master ]; then
		WHY="no hwmon or no SPI in this kernel: no BMC"
		return "$KSFT_SKIP"
	fi
	echo "$BMC_ID 1 board=n3000" > $SIM/new_device ||
		{ diag "no card of board n3000"; return 1; }
	bdf=$(basename "$(readlink -f "$SIM/devices/fpga_sim$BMC_ID/pci_function")")
	hw=""
	for f in "$REGIONS"/region*/dfl-fme.*; do
		[ "$(bdf_of "${f%/*}")" = "$bdf" ] || continue
		hw=$(ls -d "$f"/dfl_dev.*/spi_master/spi*/spi*.0/simbmc-hwmon.*/hwmon/hwmon* 2>/dev/null | head -n 1)
	done
	[ -n "$hw" ] || { diag "no BMC hwmon device under $bdf's FME"; return 1; }
	[ -f "$SHIPPED_CFG" ] || { diag "$SHIPPED_CFG is not installed"; return 1; }
	rc=0
	# with the opae.cfg a user names, the one fpga-tools ships
	for cmd in temp power; do
		(LIBOPAE_CFGFILE=$SHIPPED_CFG && export LIBOPAE_CFGFILE &&
			fpgainfo_to "bmc-$cmd" "$cmd") || rc=1
		metric_lines "$bdf" < "$T/bmc-$cmd" > "$T/bmc-$cmd.got"
		diag "fpgainfo $cmd on $bdf: $(tr '\n' ';' < "$T/bmc-$cmd.got")"
	done
	[ $rc = 0 ] || return 1
	bmc_want "$hw" > "$T/bmc.want"
	[ "$(wc -l < "$T/bmc.want")" -ge 5 ] ||
		{ diag "$hw: $(wc -l < "$T/bmc.want") labels, not 5"; return 1; }
	while IFS='|' read -r name want type; do
		other=power
		[ "$type" = power ] && other=temp
		got=$(awk -F '|' -v n="$name" '$1 == n { print $2 }' "$T/bmc-$type.got")
		if [ -z "$got" ]; then
			diag "fpgainfo $type: no \"$name\""
			rc=1
		elif ! awk -v a="$got" -v b="$want" \
			'BEGIN { d = a - b; exit !(d <= 1 && d >= -1) }'; then
			diag "fpgainfo $type: $name $got, the hwmon file $want"
			rc=1
		fi
		if awk -F '|' -v n="$name" '$1 == n { f = 1 } END { exit !f }' \
			"$T/bmc-$other.got"; then
			diag "fpgainfo $other shows \"$name\" too"
			rc=1
		fi
	done < "$T/bmc.want"
	echo "$BMC_ID" > $SIM/del_device || rc=1
	return $rc
}

# nlb_card: the address of the first PCI card with an NLB0 port
nlb_card()
{
	for p in $REGIONS/region*/dfl-port.*; do
		bdf=$(bdf_of "${p%/*}")
		[ "$bdf" != "$SIM_BDF" ] || continue
		[ "$(guid "$(cat "$p/afu_id")")" = $NLB0_GUID ] || continue
		echo "$bdf"
		return
	done
}

# hello CFG BDF: hello_fpga on BDF with OPAE's config CFG, its output in
# $T/hello and in the diagnostics; its exit status
hello()
{
	LIBOPAE_CFGFILE=$1 hello_fpga "$2" > "$T/hello" 2>&1
	set -- $?
	diag "$(cat "$T/hello")"
	return "$1"
}

# said [-i] TEXT: hello_fpga printed TEXT
said()
{
	grep -q "$@" "$T/hello"
}

# hello_passes CFG BDF: hello_fpga on BDF says it passed (its exit status
# is 0 even when the data differ: "Output does NOT match input at offset
# N!")
hello_passes()
{
	hello "$1" "$2" || { diag "hello_fpga on $2: status $?"; return 1; }
	said "Done Running Test" || { diag "no 'Done Running Test'"; return 1; }
	if said -i "not match\|error\|timed out"; then
		diag "hello_fpga reported an error"
		return 1
	fi
}

# hello_fpga opens its accelerator exclusively: with the port open in
# another process it must fail cleanly at the open, and not touch the AFU
t_hello_busy()
{
	bdf=$(nlb_card)
	[ -n "$bdf" ] || { diag "no PCI card with NLB0"; return 1; }
	# every NLB0 port of that card held, so that OPAE finds none free
	fd=5
	for p in $REGIONS/region*/dfl-port.*; do
		[ "$(bdf_of "${p%/*}")" = "$bdf" ] || continue
		[ "$(guid "$(cat "$p/afu_id")")" = $NLB0_GUID ] || continue
		[ $fd -le 6 ] || { diag "more than two NLB0 ports on $bdf"; return 1; }
		eval "exec $fd< /dev/${p##*/}" || return 1
		fd=$((fd + 1))
	done
	hello "$LIBOPAE_CFGFILE" "$bdf"
	rc=$?
	exec 5>&- 6>&-
	[ $rc -ne 0 ] || { diag "hello_fpga on busy $bdf: status 0"; return 1; }
	said "Error opening accelerator: resource busy" || {
		diag "hello_fpga did not fail at the open with 'resource busy'"
		return 1
	}
	if said "Done Running Test"; then
		diag "hello_fpga ran its test on a port open elsewhere"
		return 1
	fi
}

# hello_fpga on the simulated card, with the opae.cfg fpga-tools ships
t_hello_sim()
{
	[ -f "$SHIPPED_CFG" ] || { diag "$SHIPPED_CFG is not installed"; return 1; }
	[ -n "$SIM_BDF" ] || { diag "the simulated card has no PCI function"; return 1; }
	hello_passes "$SHIPPED_CFG" "$SIM_BDF" || return 1
	# and the NLB really copied: the card's own counter moved
	n=$(cat "$SIM/devices/fpga_sim$SIM_ID/counters/dma_rd_bytes")
	[ "$n" -gt 0 ] || { diag "the card's dma_rd_bytes is $n"; return 1; }
}

# hello_fpga on a PCI card: the host-side model (scripts/images/dfl-model)
# runs NLB0 in the guest's memory
t_hello_pci()
{
	bdf=$(nlb_card)
	[ -n "$bdf" ] || { diag "no PCI card with NLB0"; return 1; }
	hello_passes "$LIBOPAE_CFGFILE" "$bdf"
}

# hello_events on the simulated card: OPAE registers an eventfd for the
# FME's error interrupt, injects a fatal error through inject_errors 5 s
# later, must see the interrupt, then writes 0; the error is gone after
t_hello_events()
{
	[ -n "$SIM_BDF" ] || { diag "the simulated card has no PCI function"; return 1; }
	LIBOPAE_CFGFILE=$SHIPPED_CFG hello_events "$SIM_BDF" > "$T/events" 2>&1
	rc=$?
	diag "$(cat "$T/events")"
	[ $rc -eq 0 ] || { diag "hello_events: status $rc"; return 1; }
	grep -q "^FME Interrupt occurred" "$T/events" &&
		grep -q "Successfully tested Register/Unregister for FME events" \
			"$T/events" || { diag "no interrupt, or no success line"; return 1; }
	fme=$(ls -d "$REGIONS"/region*/dfl-fme.* | while read -r f; do
		[ "$(bdf_of "${f%/*}")" = "$SIM_BDF" ] && echo "$f"; done)
	fme_error_wait "$fme" inject_errors 0x0 &&
		fme_error_wait "$fme" catfatal_errors 0x0
}

# pr_card: "FME BDF" of the PCI card whose PR interface id is
# PCI_INTERFACE (our fpga-fme.N/pr/interface_id)
pr_card()
{
	want=$(echo $PCI_INTERFACE | tr -d -)
	for f in $DFL/fpga-fme.*; do
		[ "$(cat "$f/pr/interface_id" 2>/dev/null)" = "$want" ] || continue
		dir=$(dirname "$(readlink -f "$f")")
		echo "${f##*/} $(basename "$(dirname "$dir")")"
		return
	done
}

# pr_port FME: port 0 of the FME's card (its name stays across a
# programming)
pr_port()
{
	for p in "$(dirname "$(readlink -f "$DFL/$1")")"/fpga-port.*; do
		[ "$(cat "$p/id")" = 0 ] && echo "${p##*/}" && return
	done
}

# run NAME COMMAND...: COMMAND's output in $T/NAME and the diagnostics;
# its exit status
run()
{
	name=$1
	shift
	"$@" > "$T/$name" 2>&1
	set -- $? "$@"
	diag "$ $(shift; echo "$*")"
	diag "$(cat "$T/$name")"
	return "$1"
}

# pr_setup: PR_FME, PR_BDF and PR_PORT of the PCI card with a PR engine
pr_setup()
{
	# shellcheck disable=SC2046
	set -- $(pr_card)
	[ $# -eq 2 ] ||
		{ diag "no PCI card with PR interface $PCI_INTERFACE"; return 1; }
	PR_FME=$1
	PR_BDF=$2
	PR_PORT=$(pr_port "$PR_FME")
	[ -n "$PR_PORT" ] || { diag "no port 0 on $PR_BDF"; return 1; }
}

# pr_kept AFU_ID PR_ERR: port 0 still runs AFU_ID, the FME says PR_ERR
pr_kept()
{
	id=$(cat "$DFL/$PR_PORT/afu_id")
	[ "$id" = "$1" ] || { diag "$PR_PORT afu_id is $id, not $1"; return 1; }
	err=$(cat "$DFL/$PR_FME/errors/pr_err")
	[ "$err" = "$2" ] || { diag "$PR_FME pr_err is $err, not $2"; return 1; }
}

# fpgaconf refuses a GBS of another interface id (the simulated card's):
# the card is not asked, its AFU stays
t_pci_other_interface()
{
	pr_setup || return 1
	id=$(cat "$DFL/$PR_PORT/afu_id")
	if run conf fpgaconf -V "$PR_BDF" "$T/sim-nlb3.gbs"; then
		diag "fpgaconf took a GBS of the simulated card's interface"
		return 1
	fi
	grep -q "No suitable slots found" "$T/conf" ||
		{ diag "no 'No suitable slots found'"; return 1; }
	pr_kept "$id" 0x0
}

# An AFU the model does not know: the card refuses it (PR operation
# error), fpgaconf fails, the AFU stays
t_pci_refused()
{
	[ -n "$PR_PORT" ] || return 1
	id=$(cat "$DFL/$PR_PORT/afu_id")
	if run conf fpgaconf -V "$PR_BDF" "$T/pci-$UNKNOWN_GUID.gbs"; then
		diag "fpgaconf loaded an AFU the card does not know"
		return 1
	fi
	pr_kept "$id" 0x1
}

# pci_program AFU GUID: fpgaconf loads AFU's GBS into port 0 of the PCI
# card; its afu_id and fpgainfo port say GUID
pci_program()
{
	[ -n "$PR_PORT" ] || return 1
	run conf fpgaconf -V "$PR_BDF" "$T/pci-$1.gbs" ||
		{ diag "status $?"; return 1; }
	pr_kept "$(echo "$2" | tr -d -)" 0x0 || return 1
	port_shows_afu "$PR_PORT" "$PR_BDF" "$2"
}

# NLB0 back on the PCI card, and hello_fpga passes on it
t_pci_hello_again()
{
	pci_program nlb0 $NLB0_GUID && hello_passes "$LIBOPAE_CFGFILE" "$PR_BDF"
}

setup
ktap_plan 14
t "fpgainfo fme lists every FME" t_fme
t "fpgainfo fme shows every FME's socket id" t_socket_id
t "fpgainfo port lists every port and AFU" t_port
t "fpgainfo errors all shows the FMEs' and ports' errors" t_errors
t "hello_fpga passes on the simulated card" t_hello_sim
t "hello_fpga passes on a PCI card" t_hello_pci
t "hello_fpga on a port open elsewhere is refused" t_hello_busy
t "hello_events sees the FME error interrupt of an injected error" t_hello_events
t "fpgainfo temp and power list every FME" t_sensors
t "fpgainfo temp and power show the sensors of an n3000 card's BMC" t_bmc_sensors
t "fpgaconf on a PCI card refuses a GBS of another interface id" t_pci_other_interface
t "fpgaconf on a PCI card: an AFU the card does not know is refused" t_pci_refused
t "fpgaconf programs NLB3 into a PCI card, fpgainfo port shows it" pci_program nlb3 $NLB3_GUID
t "fpgaconf programs NLB0 back, hello_fpga passes on the PCI card" t_pci_hello_again
ktap_done
