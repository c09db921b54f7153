#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# OPAE's tools, unchanged, on the simulated card's AFU models, on two
# cards at once.  fpgaconf programs them from GBS files made by fpgactl
# gbs make (and refuses one of another interface id before the card is
# asked), fpgainfo port then shows the new AFU.  The first card
# programmed with NLB3 runs fpgadiag's read, write and trput modes (and a
# continuous read), the second, programmed with HE-LB, runs
# host_exerciser's lpbk (and read, write, trput, continuous), then NLB0
# comes back on both and hello_fpga passes on each.  Their exit status,
# what they print (the lines read and written), and the cards' DMA
# counters are checked.  Prints KTAP.
#
# fpgadiag is a Python script that runs nlb3: where the VM's Python cannot
# run it, nlb3 runs with the arguments fpgadiag would give it.
#
# Not host_exerciser --interrupt: OPAE 2.14's xfpga reports no interrupts
# for a port of a DFL driver (it takes their number only from the older
# intel-fpga driver's port info), so host_exerciser refuses any vector;
# afu_models_test checks HE-LB's interrupt.
#
# Exit status: 0 all passed (some may be skipped), 1 a test failed,
# 4 nothing ran.

here=$(cd "$(dirname "$0")" && pwd)
SIM=/sys/bus/fpga_sim
SIM_ID=$((9000 + $$ % 500 * 2))
SIM_ID2=$((SIM_ID + 1))
NLB0_GUID=d8424dc4-a4a3-c413-f89e-433683f9040b
NLB3_GUID=f7df405c-bd7a-cf72-22f1-44b0b93acd18
HE_LB_GUID=56e203e9-864f-49a7-b94b-12284c31e02b
OTHER_INTERFACE=3b9d1c34-0d3e-4a57-9a52-1f7e8c6b2d10
HUGEPAGES=16
T=$(mktemp -d) || exit 1
export LIBOPAE_CFGFILE="$here/opae-vm.cfg"

cleanup()
{
	for id in $SIM_ID $SIM_ID2; do
		[ -d $SIM ] && echo "$id" > $SIM/del_device 2>/dev/null
	done
	echo "${old_huge:-0}" > /proc/sys/vm/nr_hugepages 2>/dev/null
	modprobe -r fpga_fme fpga_port fpga_sim fpga_dfl 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

. "$here/../fpga/ktap_lib.sh"
. "$here/opae_lib.sh"

setup()
{
	for tool in fpgaconf fpgainfo fpgadiag nlb3 hello_fpga; do
		command -v $tool > /dev/null || {
			ktap_skip_all "no $tool: OPAE is not in this image (make opae)"
		}
	done
	old_huge=$(cat /proc/sys/vm/nr_hugepages)
	# OPAE backs every buffer over 4 KiB with 2 MiB huge pages
	echo $HUGEPAGES > /proc/sys/vm/nr_hugepages
	[ "$(cat /proc/sys/vm/nr_hugepages)" -ge 4 ] ||
		ktap_skip_all "no 2 MiB huge pages for OPAE's buffers"
	modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme ||
		{ ktap_plan 0 "modules failed to load"; exit 1; }
	echo "$SIM_ID 1" > $SIM/new_device && echo "$SIM_ID2 1" > $SIM/new_device ||
		{ ktap_plan 0 "no simulated cards"; exit 1; }
	card=$SIM/devices/fpga_sim$SIM_ID
	card2=$SIM/devices/fpga_sim$SIM_ID2
	SIM_BDF=$(basename "$(readlink -f "$card/pci_function")")
	SIM_BDF2=$(basename "$(readlink -f "$card2/pci_function")")
	for afu in nlb0 nlb3 helb; do
		fpgactl gbs make afu $afu out "$T/$afu.gbs" > /dev/null ||
			{ ktap_plan 0 "fpgactl gbs make afu $afu failed"; exit 1; }
	done
	fpgactl gbs make afu nlb3 interface $OTHER_INTERFACE out "$T/other.gbs" \
		> /dev/null || { ktap_plan 0 "fpgactl gbs make failed"; exit 1; }
	if python3 -c 'import argparse, subprocess' 2>/dev/null; then
		DIAG=fpgadiag
	else
		DIAG=nlb3
	fi
}

# port_of CARD: the sim card's port device (its name stays across a
# programming)
port_of()
{
	(cd "$1" && ls -d fpga-port.* | head -n 1)
}

# program CARD BDF AFU GUID: fpgaconf loads AFU's GBS into the card's
# port; then the port runs GUID, and fpgainfo port says so
program()
{
	run conf fpgaconf -V "$2" "$T/$3.gbs" || { diag "status $?"; return 1; }
	port=$(port_of "$1")
	id=$(cat "/sys/bus/fpga_dfl/devices/$port/afu_id")
	[ "$id" = "$(echo "$4" | tr -d -)" ] ||
		{ diag "$port afu_id is $id after programming $3"; return 1; }
	port_shows_afu "$port" "$2" "$4"
}

# fpgaconf refuses a GBS of another interface id: the card is not asked
# (its PR error stays clear) and keeps its AFU
t_other_interface()
{
	port=$(port_of "$card")
	id=$(cat "/sys/bus/fpga_dfl/devices/$port/afu_id")
	fme=$(cd "$card" && ls -d fpga-fme.* | head -n 1)
	if run conf fpgaconf "$SIM_BDF" "$T/other.gbs"; then
		diag "fpgaconf took a GBS of interface $OTHER_INTERFACE"
		return 1
	fi
	[ "$(cat "/sys/bus/fpga_dfl/devices/$port/afu_id")" = "$id" ] ||
		{ diag "the AFU changed"; return 1; }
	[ "$(cat "/sys/bus/fpga_dfl/devices/$fme/errors/pr_err")" = 0x0 ] ||
		{ diag "pr_err $(cat "/sys/bus/fpga_dfl/devices/$fme/errors/pr_err")"; return 1; }
}

cntr()
{
	cat "$CNTR_CARD/port0/$1"
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

# fpgadiag_mode MODE ARGS...: fpgadiag -m MODE --csv ARGS...
fpgadiag_mode()
{
	mode=$1
	shift
	if [ $DIAG = fpgadiag ]; then
		run diag fpgadiag -m "$mode" --csv "$@"
	else
		run diag nlb3 --mode="$mode" --csv "$@" -t fpga
	fi
}

# diag_rows: the CSV rows fpgadiag printed: "CACHELINES READS WRITES"
diag_rows()
{
	awk -F, '/^[0-9]+,/ { print $1, $2, $3 }' "$T/diag"
}

t_program_nlb3()
{
	program "$card" "$SIM_BDF" nlb3 $NLB3_GUID
}

# fpgadiag -m MODE over 1023..1025 lines: each row's reads and writes,
# and the card's counters moved by as many lines
t_fpgadiag()
{
	mode=$1
	rd0=$(cntr dma_rd_lines)
	wr0=$(cntr dma_wr_lines)
	fpgadiag_mode "$mode" --begin=1023 --end=1025 ||
		{ diag "$DIAG $mode: status $?"; return 1; }
	diag_rows > "$T/rows"
	[ "$(wc -l < "$T/rows")" -eq 3 ] || { diag "not 3 rows"; return 1; }
	rd=0
	wr=0
	while read -r cl r w; do
		case $mode in
		read) want="$cl 0" ;;
		write) want="0 $cl" ;;
		trput) want="$cl $cl" ;;
		esac
		[ "$r $w" = "$want" ] ||
			{ diag "$cl lines: reads, writes $r $w, not $want"; return 1; }
		rd=$((rd + r))
		wr=$((wr + w))
	done < "$T/rows"
	[ $(($(cntr dma_rd_lines) - rd0)) -eq $rd ] &&
		[ $(($(cntr dma_wr_lines) - wr0)) -eq $wr ] || {
		diag "the card counted $(($(cntr dma_rd_lines) - rd0)) lines read, $(($(cntr dma_wr_lines) - wr0)) written"
		return 1
	}
}

# fpgadiag -m read --cont: a second of reads, stopped, counted
t_fpgadiag_cont()
{
	fpgadiag_mode read --begin=64 --cont --timeout-sec=1 ||
		{ diag "$DIAG read --cont: status $?"; return 1; }
	set -- $(diag_rows)
	[ $# -eq 3 ] && [ "$2" -gt 64 ] && [ "$3" -eq 0 ] ||
		{ diag "continuous read: $*"; return 1; }
}

t_program_he()
{
	program "$card2" "$SIM_BDF2" helb $HE_LB_GUID
}

# host_exerciser ARGS... lpbk: passes; its counts are LINES_READ LINES_WRITTEN
he_passes()
{
	want_rd=$1
	want_wr=$2
	shift 2
	command -v host_exerciser > /dev/null || {
		WHY="no host_exerciser: OPAE built without CLI11 and spdlog, or it did not build"
		return $KSFT_SKIP
	}
	run he host_exerciser "$@" lpbk || { diag "status $?"; return 1; }
	grep -q "Test lpbk(1): PASS" "$T/he" || { diag "no PASS"; return 1; }
	[ -z "$want_rd" ] && return 0
	grep -q "Total number of Reads sent: $want_rd\$" "$T/he" &&
		grep -q "Total number of Writes sent: $want_wr\$" "$T/he" ||
		{ diag "not $want_rd reads and $want_wr writes"; return 1; }
}

t_he_lpbk()
{
	n=$(cntr dma_wr_bytes)
	he_passes 1024 1024 || return
	# 64 KiB copied, the DSM not counted
	[ $(($(cntr dma_wr_bytes) - n)) -eq 65536 ] ||
		{ diag "dma_wr_bytes moved by $(($(cntr dma_wr_bytes) - n))"; return 1; }
}

t_program_nlb0()
{
	program "$card" "$SIM_BDF" nlb0 $NLB0_GUID &&
		program "$card2" "$SIM_BDF2" nlb0 $NLB0_GUID
}

t_hello_fpga()
{
	run hello hello_fpga "$1" || { diag "status $?"; return 1; }
	grep -q "Done Running Test" "$T/hello" &&
		! grep -qi "not match\|error\|timed out" "$T/hello" ||
		{ diag "hello_fpga did not pass"; return 1; }
}

tests()
{
	t "fpgaconf refuses a GBS of another interface id" t_other_interface
	t "fpgaconf programs NLB3 into the first card" t_program_nlb3 ||
		return
	CNTR_CARD=$card
	t "fpgadiag -m read reads every line" t_fpgadiag read
	t "fpgadiag -m write writes every line" t_fpgadiag write
	t "fpgadiag -m trput reads and writes every line" t_fpgadiag trput
	t "fpgadiag -m read --cont reads until stopped" t_fpgadiag_cont
	t "fpgaconf programs HE-LB into the second card" t_program_he || return
	CNTR_CARD=$card2
	t "host_exerciser lpbk passes" t_he_lpbk
	t "host_exerciser --mode read lpbk" he_passes 1024 0 --mode read
	t "host_exerciser --mode write lpbk" he_passes 0 1024 --mode write
	t "host_exerciser --mode trput lpbk" he_passes 1024 1024 --mode trput
	t "host_exerciser continuous trput, forced to complete" he_passes "" "" \
		--mode trput --continuousmode true --contmodetime 1
	t "fpgaconf programs NLB0 back into both" t_program_nlb0 || return
	t "hello_fpga passes on the first" t_hello_fpga "$SIM_BDF"
	t "hello_fpga passes on the second" t_hello_fpga "$SIM_BDF2"
}

setup
ktap_run tests
ktap_done
