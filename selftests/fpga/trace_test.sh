#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Observability with Debian's perf: every fpga:* tracepoint is listed, a
# tracepoint count is exact, a loopback and a DMA fault record the right
# fields, libfpga's USDT probes and a uprobe with an argument fire with
# the right values, a kprobe on the port driver fires during a reset, and
# "fpgactl trace" shows a loopback's sequence in order.  Prints KTAP.
#
# Exit status: 0 all passed (some may be skipped), 1 a test failed,
# 4 nothing ran.

SIM=/sys/bus/fpga_sim
FPGACTL=$(command -v fpgactl)
NLB_SRC_ADDR=0x120

TRACEPOINTS="card_add card_remove port_reset_begin port_reset_end
irq_deliver engine_start engine_complete irq_raise error_raise dma_map
dma_unmap region_mmap error_clear fence_irq uio_bind uio_unbind uio_irq
pmu_add pmu_del vgem_create vgem_export vgem_import port_program_begin
port_program_end pr_end"

T=$(mktemp -d) || exit 1
# perf keeps its build-id cache (and the SDT probes found there) in ~/.debug
export HOME=$T
ID=$((5000 + $$ % 1000))
CARDS=""

cleanup()
{
	perf probe -q -d 'sdt_fpga:*' 2>/dev/null
	perf probe -q -d 'probe_fpgactl:*' 2>/dev/null
	perf probe -q -d 'probe:fpga_port_reset*' 2>/dev/null
	for id in $CARDS; do
		echo "$id" > $SIM/del_device 2>/dev/null
	done
	modprobe -r uio_fpga fpga_fme fpga_port fpga_sim fpga_dfl vgem_ext \
		2>/dev/null
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

# has FILE REGEX: an extended regex matches a line of FILE
has()
{
	grep -Eq -e "$2" "$1" && return 0
	diag "no line matches '$2' in:"
	diag "$(head -n 40 "$1")"
	return 1
}

# rec EVENTS -- CMD: perf record -a of EVENTS, the events as text in
# $T/script (perf script), one per line
rec()
{
	ev=$1
	shift 2
	perf record -q -a -e "$ev" -o "$T/perf.data" -- "$@" \
		> "$T/out" 2> "$T/err"
	RC=$?
	perf script -i "$T/perf.data" > "$T/script" 2> "$T/err2"
}

# nev NAME: how many NAME events $T/script holds
nev()
{
	grep -c " $1:" "$T/script"
}

setup()
{
	modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme &&
		modprobe uio_fpga && modprobe vgem_ext || return 1
	echo "$ID 1" > $SIM/new_device || return 1
	CARDS=$ID
	for d in $SIM/devices/fpga_sim$ID/fpga-port.*; do
		P=${d##*.}
	done
	RESET=/sys/bus/fpga_dfl/devices/fpga-port.$P/reset
	[ -e /dev/fpga-port."$P" ] && [ -w "$RESET" ]
}

t_list()
{
	perf list 'fpga:*' > "$T/out" 2>&1
	for e in $TRACEPOINTS; do
		if ! grep -q "fpga:$e \+\[Tracepoint event\]" "$T/out"; then
			diag "perf list has no fpga:$e"
			diag "$(cat "$T/out")"
			return 1
		fi
	done
}

# N resets through sysfs (no open file: the last close resets too)
t_reset_count()
{
	perf stat -a -x';' -o "$T/stat" -e 'fpga:port_reset*' -- \
		sh -c "for i in 1 2 3 4 5; do echo 1 > $RESET || exit 1; done" \
		> "$T/out" 2> "$T/err"
	eq "perf stat exit" $? 0 || return 1
	eq port_reset_begin "$(awk -F';' '$3 == "fpga:port_reset_begin" { print $1 }' "$T/stat")" 5 &&
	eq port_reset_end "$(awk -F';' '$3 == "fpga:port_reset_end" { print $1 }' "$T/stat")" 5
}

t_loopback()
{
	rec 'fpga:dma_map,fpga:engine_start,fpga:engine_complete,fpga:port_reset_end' -- \
		"$FPGACTL" dma loopback "$P" --size 1M
	eq "loopback exit" "$RC" 0 || { diag "$(cat "$T/err")"; return 1; }
	eq "engine_start events" "$(nev fpga:engine_start)" 1 &&
	eq "engine_complete events" "$(nev fpga:engine_complete)" 1 &&
	has "$T/script" "fpga:engine_start: sim=$ID port=0 src=0x[0-9a-f]+ dst=0x[0-9a-f]+ lines=16384$" &&
	has "$T/script" "fpga:engine_complete: sim=$ID port=0 lines=16384 bytes=1048576 result=0 " &&
	has "$T/script" "fpga:dma_map: port=$P iova=0x[0-9a-f]+ length=1048576 pages=256 owner=[0-9]+ kind=user" &&
	has "$T/script" "fpga:port_reset_end: card=[0-9]+ port=$P result=0 duration_ns=[1-9]"
}

t_dma_fault()
{
	echo 1 > $SIM/devices/fpga_sim$ID/port0/fail_dma || return 1
	rec 'fpga:error_raise,fpga:engine_complete' -- \
		"$FPGACTL" dma loopback "$P" --size 64K --timeout 2000
	eq "loopback exit (fault)" "$RC" 1 || return 1
	has "$T/script" "fpga:engine_complete: sim=$ID port=0 lines=1024 bytes=0 result=-14 " &&
	has "$T/script" "fpga:error_raise: sim=$ID port=0 bits=0x1 port_error=0x1$" &&
	"$FPGACTL" errors "$P" --clear > /dev/null
}

t_usdt()
{
	perf buildid-cache --add "$FPGACTL" 2> "$T/err" || {
		diag "$(cat "$T/err")"; return 1; }
	perf list sdt > "$T/out" 2>&1
	for p in mmio_read32 mmio_read64 mmio_write32 mmio_write64 reset \
		 reset_done dma_map dma_unmap \
		 irq_wait irq_wake loopback_start loopback_done \
		 loopback_vgem_start loopback_vgem_done; do
		has "$T/out" "sdt_fpga:$p " || return 1
	done
	perf probe -x "$FPGACTL" -a 'sdt_fpga:*' > "$T/out" 2>&1 || {
		diag "$(cat "$T/out")"; return 1; }
	rec 'sdt_fpga:mmio_write*' -- "$FPGACTL" mmio write "$P" $NLB_SRC_ADDR 0x1234
	eq "mmio write exit" "$RC" 0 || return 1
	eq "mmio_write probes hit" "$(grep -c ' sdt_fpga:mmio_write' "$T/script")" 1 &&
	has "$T/script" "sdt_fpga:mmio_write64: \([0-9a-f]+\) arg1=$P arg2=(288|0x120) arg3=(4660|0x1234)"
}

# A uprobe on a library function, with its arguments (needs the debug info
# installed under /usr/lib/debug/.build-id)
t_uprobe_arg()
{
	perf probe -x "$FPGACTL" -a 'fpga_mmio_write64 off val' \
		> "$T/out" 2>&1 || { diag "$(cat "$T/out")"; return 1; }
	rec 'probe_fpgactl:fpga_mmio_write64' -- \
		"$FPGACTL" mmio write "$P" $NLB_SRC_ADDR 0x4321
	eq "mmio write exit" "$RC" 0 || return 1
	eq "uprobe hits" "$(nev probe_fpgactl:fpga_mmio_write64)" 1 &&
	has "$T/script" "probe_fpgactl:fpga_mmio_write64: \([0-9a-f]+\) off=(288|0x120) val=(17185|0x4321)"
}

t_kprobe()
{
	if ! perf probe -m fpga_port -a fpga_port_reset > "$T/out" 2>&1 &&
	   ! perf probe -a fpga_port_reset >> "$T/out" 2>&1; then
		diag "$(cat "$T/out")"
		return 1
	fi
	perf stat -a -x';' -o "$T/stat" -e 'probe:fpga_port_reset' -- \
		sh -c "echo 1 > $RESET" > "$T/out" 2> "$T/err"
	eq "perf stat exit" $? 0 || return 1
	eq "kprobe hits" "$(awk -F';' '$3 == "probe:fpga_port_reset" { print $1 }' "$T/stat")" 1
}

# first EVENT: the line of the first EVENT in fpgactl trace's output
first()
{
	n=$(grep -n " $1 " "$T/trace" | head -n 1 | cut -d: -f1)
	echo "${n:-0}"
}

t_fpgactl_trace()
{
	"$FPGACTL" trace "$P" -- "$FPGACTL" dma loopback "$P" --size 64K \
		--alloc vgem > "$T/trace" 2> "$T/err"
	eq "fpgactl trace exit" $? 0 || { diag "$(cat "$T/err")"; return 1; }
	prev=0
	for e in dma_map vgem_create vgem_export port_reset_begin \
		 port_reset_end engine_start engine_complete irq_raise \
		 fence_irq dma_unmap; do
		n=$(first $e)
		if [ "$n" -le "$prev" ]; then
			diag "$e is missing or out of order (line $n, after line $prev)"
			diag "$(cat "$T/trace")"
			return 1
		fi
		prev=$n
	done
	has "$T/trace" "engine_complete +sim=$ID port=0 lines=1024 bytes=65536 result=0" &&
	has "$T/trace" "irq_raise +sim=$ID hwirq=1 source=user port=0 vector=0" &&
	has "$T/trace" "^[0-9]+ events$"
}

# A port filter: another card's port does not show (and a module that is
# not loaded, with events to filter, is no obstacle)
t_fpgactl_trace_port()
{
	modprobe -r uio_fpga || return 1
	echo "$((ID + 1)) 1" > $SIM/new_device || return 1
	CARDS="$CARDS $((ID + 1))"
	for d in $SIM/devices/fpga_sim$((ID + 1))/fpga-port.*; do
		Q=${d##*.}
	done
	"$FPGACTL" trace "$P" -- sh -c "echo 1 > $RESET && echo 1 > /sys/bus/fpga_dfl/devices/fpga-port.$Q/reset" \
		> "$T/trace" 2> "$T/err"
	eq "fpgactl trace exit" $? 0 || { diag "$(cat "$T/err")"; return 1; }
	eq "reset ends of port $P" "$(grep -c "port_reset_end .*port=$P " "$T/trace")" 1 &&
	eq "reset ends of port $Q" "$(grep -c "port_reset_end .*port=$Q " "$T/trace")" 0
}

if ! command -v perf > /dev/null || [ -z "$FPGACTL" ] || ! setup; then
	ktap_skip_all "needs perf, fpgactl and the suite's modules"
fi
ktap_plan 9
t "perf list shows every fpga tracepoint" t_list
t "perf stat counts exactly 5 resets" t_reset_count
t "a loopback records its DMA and engine events with their sizes" t_loopback
t "a DMA fault records the error with the register value" t_dma_fault
t "USDT probes: listed, enabled, mmio write hits once with its values" t_usdt
t "uprobe on a library function records its arguments" t_uprobe_arg
t "kprobe on fpga_port_reset fires during a reset" t_kprobe
t "fpgactl trace shows a loopback in order" t_fpgactl_trace
t "fpgactl trace PORT leaves other ports out" t_fpgactl_trace_port
ktap_done
