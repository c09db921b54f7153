#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# OPAE's tools, unchanged, on the simulated card's AFU models: a port
# programmed with NLB3 runs fpgadiag's read, write and trput modes (and a
# continuous read), one programmed with HE-LB runs host_exerciser's lpbk
# (and read, write, trput, continuous), then NLB0 comes
# back and hello_fpga passes.  Their exit status, what they print (the
# lines read and written), and the card's DMA counters are checked.
# Programming is afu_program (a bitstream of the card's format, through
# the FME), built beside this test.  Prints KTAP.
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
SIM_ID=$((9000 + $$ % 1000))
NLB0_GUID=d8424dc4-a4a3-c413-f89e-433683f9040b
NLB3_GUID=f7df405c-bd7a-cf72-22f1-44b0b93acd18
HE_LB_GUID=56e203e9-864f-49a7-b94b-12284c31e02b
HUGEPAGES=16
T=$(mktemp -d) || exit 1
export LIBOPAE_CFGFILE="$here/opae-vm.cfg"

cleanup()
{
	[ -d $SIM ] && echo "$SIM_ID" > $SIM/del_device 2>/dev/null
	echo "${old_huge:-0}" > /proc/sys/vm/nr_hugepages 2>/dev/null
	modprobe -r fpga_fme fpga_port fpga_sim fpga_dfl 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

. "$here/../fpga/ktap_lib.sh"

setup()
{
	for tool in fpgadiag nlb3 hello_fpga; do
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
	echo "$SIM_ID 1" > $SIM/new_device ||
		{ ktap_plan 0 "no simulated card"; exit 1; }
	card=$SIM/devices/fpga_sim$SIM_ID
	SIM_BDF=$(basename "$(readlink -f "$card/pci_function")")
	FME_DEV=/dev/$(cd "$card" && ls -d fpga-fme.* | head -n 1)
	PORT=$(cd "$card" && ls -d fpga-port.* | head -n 1)
	if python3 -c 'import argparse, subprocess' 2>/dev/null; then
		DIAG=fpgadiag
	else
		DIAG=nlb3
	fi
}

# program GUID: port 0 of the card runs the AFU GUID
program()
{
	"$here/afu_program" "$FME_DEV" 0 "$1" > "$T/prog" 2>&1 || {
		diag "afu_program $1: $(cat "$T/prog")"
		return 1
	}
	id=$(cat "/sys/bus/fpga_dfl/devices/$PORT/afu_id")
	[ "$id" = "$(echo "$1" | tr -d -)" ] ||
		{ diag "$PORT afu_id is $id after programming $1"; return 1; }
	# the port's files come back after programming: udev may lag
	for _ in $(seq 50); do
		[ -c "/dev/$PORT" ] && return 0
		sleep 0.1
	done
	diag "no /dev/$PORT"
	return 1
}

cntr()
{
	cat "$card/port0/$1"
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
	program $NLB3_GUID
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
	program $HE_LB_GUID
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
	program $NLB0_GUID
}

t_hello_fpga()
{
	run hello hello_fpga "$SIM_BDF" || { diag "status $?"; return 1; }
	grep -q "Done Running Test" "$T/hello" &&
		! grep -qi "not match\|error\|timed out" "$T/hello" ||
		{ diag "hello_fpga did not pass"; return 1; }
}

tests()
{
	t "NLB3 is programmed into a port" t_program_nlb3 ||
		return
	t "fpgadiag -m read reads every line" t_fpgadiag read
	t "fpgadiag -m write writes every line" t_fpgadiag write
	t "fpgadiag -m trput reads and writes every line" t_fpgadiag trput
	t "fpgadiag -m read --cont reads until stopped" t_fpgadiag_cont
	t "HE-LB is programmed into the port" t_program_he || return
	t "host_exerciser lpbk passes" t_he_lpbk
	t "host_exerciser --mode read lpbk" he_passes 1024 0 --mode read
	t "host_exerciser --mode write lpbk" he_passes 0 1024 --mode write
	t "host_exerciser --mode trput lpbk" he_passes 1024 1024 --mode trput
	t "host_exerciser continuous trput, forced to complete" he_passes "" "" \
		--mode trput --continuousmode true --contmodetime 1
	t "NLB0 is programmed back" t_program_nlb0 || return
	t "hello_fpga passes on it" t_hello_fpga
}

setup
ktap_run tests
ktap_done
