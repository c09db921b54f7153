#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fpgactl on a port bound to uio_fpga: "fpgactl bind PORT uio|port" and
# the commands that work the same through the UIO device (info, reset,
# mmio, irq wait, dma loopback on the kernel's DMA buffers).  The usage
# tests need no FPGA; the rest run on a simulated card.  Prints KTAP.
#
# Environment: FPGACTL (default fpgactl), FPGACTL_NO_E2E (skip the card).

FPGACTL=${FPGACTL:-fpgactl}
NLB_DOORBELL=0x180
T=$(mktemp -d) || exit 1
. "$(dirname "$0")/fpgactl_lib.sh"
SIM_ID=$((4000 + $$ % 1000))
CARD=""			# why the end-to-end tests cannot run, "" if they can
PORT=""

cleanup()
{
	[ -n "$PORT" ] && echo "$SIM_ID" > /sys/bus/fpga_sim/del_device 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# why_not e2e: why the end-to-end tests cannot run, for needs
why_not()
{
	echo "$CARD"
}

driver_of() { basename "$(readlink /sys/bus/fpga_dfl/devices/fpga-port.$1/driver)"; }

# ---- no FPGA needed ----

t_usage()
{
	expect 2 "missing argument" $FPGACTL bind 0 || return 1
	expect 2 "'frob': bind to uio or port" $FPGACTL bind 0 frob || return 1
	expect 2 "unexpected argument" $FPGACTL bind 0 uio extra || return 1
	expect 2 "'abc' is not a port" $FPGACTL bind abc uio || return 1
	expect 0 "" $FPGACTL bind --help || return 1
	out_has "^Usage: fpgactl .*bind PORT uio|port" || return 1
	expect 0 "" $FPGACTL help || return 1
	out_has "fpgactl bind PORT uio|port"
}

t_no_port()
{
	expect 1 "fpga-port.2147483647: no such port" \
		env FPGA_SYSFS_ROOT=$T $FPGACTL bind 2147483647 uio
}

# ---- on a simulated card ----

setup_card()
{
	if [ -n "$FPGACTL_NO_E2E" ]; then
		CARD="FPGACTL_NO_E2E is set"
	elif [ "$(id -u)" != 0 ]; then
		CARD="needs root"
	elif ! modprobe fpga_sim 2>/dev/null || ! modprobe fpga_port 2>/dev/null; then
		CARD="cannot load fpga_sim and fpga_port"
	elif ! echo "$SIM_ID 1" > /sys/bus/fpga_sim/new_device; then
		CARD="cannot create a simulated card"
	else
		PORT=$(ls /sys/bus/fpga_sim/devices/fpga_sim$SIM_ID | sed -n 's/^fpga-port\.//p')
		[ -n "$PORT" ] || CARD="the card has no port"
	fi
}

t_bind_uio()
{
	# fpgactl loads uio_fpga itself when it is not loaded
	modprobe -r uio_fpga 2>/dev/null
	expect 0 "" $FPGACTL bind $PORT uio || return 1
	UIO=$(ls /sys/bus/fpga_dfl/devices/fpga-port.$PORT/uio)
	out_has "^fpga-port.$PORT: uio_fpga (/dev/$UIO)$" || return 1
	[ "$(driver_of $PORT)" = uio_fpga ] || { diag "driver $(driver_of $PORT)"; return 1; }
	[ ! -e /dev/fpga-port.$PORT ] || { diag "/dev/fpga-port.$PORT is still there"; return 1; }
	# again: nothing to do, same answer, in JSON
	expect 0 "" $FPGACTL -j bind fpga-port.$PORT uio || return 1
	out_has "^{\"port\":\"fpga-port.$PORT\",\"driver\":\"uio_fpga\",\"uio\":\"$UIO\"}$"
}

t_list_info()
{
	expect 0 "" $FPGACTL list || return 1
	out_has "^fpga-port.$PORT: .* driver uio_fpga dev /dev/$UIO" || return 1
	expect 0 "" $FPGACTL info $PORT || return 1
	out_has "region 0 (afu): size 0x40000 offset 0x0 flags read,write,mmap"
}

t_mmio()
{
	expect 0 "" $FPGACTL mmio read $PORT 0 || return 1
	out_has "^0x1[0-9a-f]\{15\}$" || return 1
	v=$(cat "$T/out")
	# the UIO node names the port too
	expect 0 "" $FPGACTL mmio read /dev/$UIO 8 || return 1
	out_has "^0xf89e433683f9040b$" || return 1
	expect 0 "" $FPGACTL mmio write $PORT 0x1000 0x1234 --width 32 || return 1
	expect 0 "" $FPGACTL mmio read $PORT 0x1000 --width 32 || return 1
	out_has "^0x00001234$" || return 1
	expect 0 "" $FPGACTL mmio dump $PORT 0+0x40 || return 1
	out_has "^0x00000000: ${v#0x} "
}

# The reset itself, while another holder keeps the device open; then the
# last close resets the port once more (for the next user)
t_reset()
{
	resets=/sys/bus/fpga_sim/devices/fpga_sim$SIM_ID/port0/resets
	exec 3< "/dev/$UIO"
	before=$(cat $resets)
	expect 0 "" $FPGACTL reset $PORT || { exec 3<&-; return 1; }
	after=$(cat $resets)
	exec 3<&-
	[ "$after" = $((before + 1)) ] || { diag "resets $before -> $after"; return 1; }
	last=$(cat $resets)
	[ "$last" = $((after + 1)) ] || { diag "last close: resets $after -> $last"; return 1; }
}

t_irq()
{
	done_file=$T/irq.done
	rm -f "$done_file"
	(
		i=0
		while [ ! -e "$done_file" ] && [ $i -lt 100 ]; do
			$FPGACTL mmio write $PORT $NLB_DOORBELL 1 > /dev/null 2>&1
			sleep 0.1
			i=$((i + 1))
		done
	) &
	ringer=$!
	expect 0 "" $FPGACTL -j irq wait $PORT --timeout 10000
	rc=$?
	touch "$done_file"
	wait $ringer
	[ $rc = 0 ] || return 1
	out_has '^{"vector":0,"count":[1-9][0-9]*}$' || return 1
	# A ring after the wait returned is held (the irq stays disabled
	# until the next wait) and would answer that wait: take it first
	i=0
	while [ $i -lt 3 ] &&
	      $FPGACTL irq wait $PORT --timeout 500 > /dev/null 2>&1; do
		i=$((i + 1))
	done
	expect 1 "no interrupt on vector 0 of /dev/$UIO within 200 ms" \
		$FPGACTL irq wait $PORT --timeout 200 || return 1
	expect 1 "UIO has user interrupt 0 only" \
		$FPGACTL irq wait $PORT --vector 1 --timeout 200
}

t_loopback()
{
	expect 0 "" $FPGACTL dma loopback $PORT --size 1M --timeout 20000 || return 1
	out_has "^loopback 1048576 bytes: verified, " || return 1
	size=$(cat /sys/class/uio/$UIO/maps/map3/size)
	expect 0 "" $FPGACTL -j dma loopback $PORT --size $((size)) --timeout 20000 || return 1
	out_has "^{\"bytes\":$((size)),\"verified\":true," || return 1
	# larger than the kernel's buffers: says what to do
	expect 1 "set uio_fpga.dma_size and rebind" \
		$FPGACTL dma loopback $PORT --size $((size * 2))
}

t_bind_port()
{
	expect 0 "" $FPGACTL bind $PORT port || return 1
	out_has "^fpga-port.$PORT: fpga_port (/dev/fpga-port.$PORT)$" || return 1
	[ "$(driver_of $PORT)" = fpga_port ] || return 1
	[ ! -e /sys/bus/fpga_dfl/devices/fpga-port.$PORT/uio ] || return 1
	# the CSR written through UIO is still there
	expect 0 "" $FPGACTL mmio read $PORT 0x1000 --width 32 || return 1
	out_has "^0x00001234$" || return 1
	expect 0 "" $FPGACTL dma loopback $PORT --size 4K || return 1
	# and back once more
	expect 0 "" $FPGACTL bind $PORT uio || return 1
	expect 0 "" $FPGACTL bind $PORT port
}

t_del_card()
{
	expect 0 "" $FPGACTL bind $PORT uio || return 1
	expect 0 "" $FPGACTL sim del $SIM_ID || return 1
	p=$PORT
	PORT=""
	expect 1 "no such port" $FPGACTL bind $p port
}

setup_card
ktap_plan 10
t "bind: usage errors and help" t_usage
t "bind: a port that does not exist" t_no_port
t "bind PORT uio (loads uio_fpga)" needs e2e t_bind_uio
t "list and info through uio_fpga" needs e2e t_list_info
t "mmio read, write, dump through the UIO map" needs e2e t_mmio
t "reset through the sysfs attribute" needs e2e t_reset
t "irq wait on the UIO interrupt" needs e2e t_irq
t "dma loopback on the kernel's DMA buffers" needs e2e t_loopback
t "bind PORT port, and back and forth" needs e2e t_bind_port
t "the card goes away while bound to uio_fpga" needs e2e t_del_card
ktap_done
