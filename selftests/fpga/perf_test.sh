#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The card's PMU (fpga_pmu_N) through Debian's perf tool: perf list, perf
# stat with aliases and raw events on one card and on all cards, exact
# counts of known work, interval totals, rejected configs, CPU hotplug
# while counting and a card removed while counting.  Prints KTAP.
#
# Exit status: 0 all passed (some may be skipped), 1 a test failed,
# 4 nothing ran.

NLB_DOORBELL=0x180
SIM=/sys/bus/fpga_sim
CPU1=/sys/devices/system/cpu/cpu1/online

# ring SIM_ID PORT N: N doorbells, each one counted before the next
ring()
{
	cnt=$SIM/devices/fpga_sim$1/port0/user_irqs
	i=0
	while [ $i -lt "$3" ]; do
		before=$(cat "$cnt")
		fpgactl mmio write "$2" $NLB_DOORBELL 1 > /dev/null || return 1
		w=0
		while [ "$(cat "$cnt")" = "$before" ]; do
			w=$((w + 1))
			[ $w -gt 2000 ] && return 1
			sleep 0.01
		done
		i=$((i + 1))
	done
}

# loopback PORT SIZE: fpgactl dma loopback, tried again if the port's
# reset timed out (a loaded emulator): that attempt moved no data
loopback()
{
	for _ in 1 2 3; do
		fpgactl dma loopback "$1" --size "$2" > /dev/null && return 0
	done
	return 1
}

# Under "perf stat -- sh -c", these run as "$SELF --ring ..."
SELF="sh $(readlink -f "$0")"
case "$1" in
--ring)
	shift
	ring "$@"
	exit
	;;
--loopback)
	shift
	loopback "$@"
	exit
	;;
esac

T=$(mktemp -d) || exit 1
ID_A=$((4000 + $$ % 1000))
ID_B=$((ID_A + 1000))
CARDS=""

cleanup()
{
	[ -e $CPU1 ] && echo 1 > $CPU1 2>/dev/null
	exec 5>&-
	for id in $CARDS; do
		echo "$id" > $SIM/del_device 2>/dev/null
	done
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
	[ -s "$T/stat" ] && diag "$(cat "$T/stat")"
	return 1
}

# card_num SIM_ID: its card number N (fpga-fme.N, fpga_pmu_N)
card_num()
{
	for d in $SIM/devices/fpga_sim"$1"/fpga-fme.*; do
		echo "${d##*.}"
	done
}

# port_num SIM_ID: /dev/fpga-port.N of its port 0
port_num()
{
	for d in $SIM/devices/fpga_sim"$1"/fpga-port.*; do
		echo "${d##*.}"
		return
	done
}

pmu_dir() { echo /sys/bus/event_source/devices/fpga_pmu_"$1"; }

# pstat [PERF STAT OPTIONS] -- CMD: perf stat -a, ';'-separated, to $T/stat
pstat()
{
	perf stat -a -x';' -o "$T/stat" "$@" > "$T/out" 2> "$T/err"
	RC=$?
}

# val EVENT: the count of EVENT in $T/stat (field 1; -I puts time first)
val()
{
	awk -F';' -v e="$1" '$3 == e { print $1 }' "$T/stat"
}

ival_sum()
{
	awk -F';' -v e="$1" '$4 == e { s += $2 } END { printf "%d\n", s }' \
		"$T/stat"
}

setup()
{
	modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme || return 1
	for id in $ID_A $ID_B; do
		echo "$id 2" > $SIM/new_device || return 1
		CARDS="$CARDS $id"
	done
	A=$(card_num $ID_A)
	B=$(card_num $ID_B)
	PA=$(port_num $ID_A)
	PB=$(port_num $ID_B)
	[ -d "$(pmu_dir "$A")" ] && [ -d "$(pmu_dir "$B")" ]
}

# hold PORT / release: the port driver resets a port on its last close,
# which clears a doorbell the model has not taken yet and counts a reset,
# so the doorbell tests keep the port open (fpgactl dma opens it O_EXCL)
hold() { exec 5<> /dev/fpga-port."$1"; }
release() { exec 5>&-; }

# Each card's events in perf list.  perf from 6.6 on (trixie's) lists
# PMUs that differ only in a numeric suffix once, as fpga_pmu/EVENT/:
# then each card's own events are its sysfs aliases perf reads
t_list()
{
	perf list pmu > "$T/out" 2>&1
	for e in clock dma_rd_bytes dma_wr_bytes dma_rd_lines dma_wr_lines \
		 user_irqs error_irqs resets dma_faults afu_busy_clocks \
		 "port_user_irqs,portid=?" "port_afu_busy_clocks,portid=?"; do
		for n in $A $B; do
			grep -q "fpga_pmu_$n/$e/" "$T/out" && continue
			grep -q "fpga_pmu/$e/" "$T/out" &&
				[ -r "/sys/bus/event_source/devices/fpga_pmu_$n/events/${e%%,*}" ] &&
				continue
			diag "perf list has no fpga_pmu_$n/$e/"
			diag "$(cat "$T/out")"
			return 1
		done
	done
}

t_alias_exact()
{
	ev=fpga_pmu_$A/dma_rd_bytes/,fpga_pmu_$A/dma_wr_lines/
	pstat -e "$ev" -- $SELF --loopback "$PA" 1M
	eq "perf stat exit" "$RC" 0 || return 1
	eq dma_rd_bytes "$(val "fpga_pmu_$A/dma_rd_bytes/")" 1048576 &&
	eq dma_wr_lines "$(val "fpga_pmu_$A/dma_wr_lines/")" 16384 &&
	grep -q ";bytes;fpga_pmu_$A/dma_rd_bytes/" "$T/stat"
}

t_raw_exact()
{
	ev="fpga_pmu_$A/event=0x2,evtype=0x1,portid=0x0/"
	pstat -e "$ev" -- $SELF --loopback "$PA" 256K
	eq "perf stat exit" "$RC" 0 &&
	eq "raw dma_rd_lines port 0" "$(val "$ev")" 4096
}

# fpga_pmu/.../ counts on every card; --no-merge shows each
t_all_cards()
{
	cmd="$SELF --loopback $PA 1M && $SELF --loopback $PB 512K"
	pstat -e fpga_pmu/dma_rd_bytes/ -- sh -c "$cmd"
	eq "perf stat exit" "$RC" 0 || return 1
	got=$(awk -F';' '$3 ~ /dma_rd_bytes/ { s += $1 } END { print s }' "$T/stat")
	eq "merged dma_rd_bytes" "$got" 1572864 || return 1
	pstat --no-merge -e "fpga_pmu/event=0x0,evtype=0x1,portid=0xff/" -- sh -c "$cmd"
	eq "perf stat exit" "$RC" 0 || return 1
	eq "card A" "$(card_count "$A")" 1048576 &&
	eq "card B" "$(card_count "$B")" 524288
}

# card_count N: the count of card N's event in $T/stat, two fields before
# the event's name (perf from 6.6 on puts the CPU first with --no-merge)
card_count()
{
	awk -F';' -v e="fpga_pmu_$1/" '{
		for (i = 3; i <= NF; i++)
			if (index($i, e) == 1) { print $(i - 2); next }
	}' "$T/stat"
}

t_irqs_resets_exact()
{
	ev="fpga_pmu_$A/user_irqs/,fpga_pmu_$A/port_user_irqs,portid=0x0/"
	ev="$ev,fpga_pmu_$A/port_user_irqs,portid=0x1/,fpga_pmu_$A/resets/"
	resets=$SIM/devices/fpga_sim$ID_A/port0/resets
	hold "$PA"
	# A reset that times out on a loaded emulator may or may not have
	# been seen by the card: the card's own counter says what it saw
	pstat -e "$ev" -- sh -c "cat $resets > $T/r0 && $SELF --ring $ID_A $PA 5 && { fpgactl reset $PA; fpgactl reset $PA; cat $resets > $T/r1; }"
	release
	eq "perf stat exit" "$RC" 0 || return 1
	saw=$(($(cat "$T/r1") - $(cat "$T/r0")))
	eq user_irqs "$(val "fpga_pmu_$A/user_irqs/")" 5 &&
	eq "user_irqs port 0" "$(val "fpga_pmu_$A/port_user_irqs,portid=0x0/")" 5 &&
	eq "user_irqs port 1" "$(val "fpga_pmu_$A/port_user_irqs,portid=0x1/")" 0 &&
	[ "$saw" -ge 1 ] && eq resets "$(val "fpga_pmu_$A/resets/")" "$saw"
}

# Interval reads add up to the total (prev_count is not re-counted)
t_interval_total()
{
	before=$(cat $SIM/devices/fpga_sim$ID_A/port0/dma_rd_bytes)
	cmd="for i in 1 2 3 4 5 6; do $SELF --loopback $PA 4M || exit 1; done"
	pstat -I 100 -e "fpga_pmu_$A/dma_rd_bytes/" -- sh -c "$cmd"
	eq "perf stat exit" "$RC" 0 || return 1
	after=$(cat $SIM/devices/fpga_sim$ID_A/port0/dma_rd_bytes)
	lines=$(grep -c "fpga_pmu_$A/dma_rd_bytes/" "$T/stat")
	[ "$lines" -ge 2 ] || { diag "only $lines intervals"; return 1; }
	eq "sum of intervals" "$(ival_sum "fpga_pmu_$A/dma_rd_bytes/")" 25165824 &&
	eq "model's counter" $((after - before)) 25165824
}

# not_supported EVENT: perf stat runs, and shows no number for it
not_supported()
{
	pstat -e "$1" -- true
	if [ "$RC" = 0 ] && grep -q "^<not supported>;" "$T/stat"; then
		return 0
	fi
	if [ "$RC" != 0 ] && ! grep -q "^[0-9]" "$T/stat" 2>/dev/null; then
		return 0
	fi
	diag "'$1': exit $RC"
	diag "$(cat "$T/stat" "$T/err" 2>/dev/null)"
	return 1
}

t_rejects()
{
	not_supported "fpga_pmu_$A/event=0x9,evtype=0x1,portid=0xff/" &&
	not_supported "fpga_pmu_$A/event=0x0,evtype=0x2,portid=0xff/" &&
	not_supported "fpga_pmu_$A/event=0x0,evtype=0x1,portid=0x2/" &&
	not_supported "fpga_pmu_$A/port_user_irqs,portid=0x2/" &&
	not_supported "fpga_pmu_$A/event=0x0,evtype=0x0,portid=0x0/" &&
	not_supported "fpga_pmu_$A/config=0x1000000/" &&
	not_supported "fpga_pmu_$A/config1=0x1/" &&
	not_supported "fpga_pmu_$A/dma_rd_bytes/u" || return 1
	# Sampling: perf record fails
	if perf record -a -o "$T/perf.data" -e "fpga_pmu_$A/dma_rd_bytes/" \
		-- true > "$T/out" 2>&1; then
		diag "perf record succeeded"
		return 1
	fi
}

t_cpu_hotplug()
{
	if [ ! -e $CPU1 ]; then
		WHY="no cpu1"
		return $KSFT_SKIP
	fi
	n=""
	for c in $A $B; do
		[ "$(cat "$(pmu_dir "$c")/cpumask")" = 1 ] && n=$c
	done
	if [ -z "$n" ]; then
		WHY="no card PMU on cpu1"
		return $KSFT_SKIP
	fi
	if [ "$n" = "$A" ]; then id=$ID_A; p=$PA; else id=$ID_B; p=$PB; fi
	cmd="$SELF --ring $id $p 3 && echo 0 > $CPU1 && $SELF --ring $id $p 4 && cat $(pmu_dir "$n")/cpumask > $T/mask && echo 1 > $CPU1 && $SELF --ring $id $p 5"
	hold "$p"
	pstat -e "fpga_pmu_$n/user_irqs/" -- sh -c "$cmd"
	release
	eq "perf stat exit" "$RC" 0 || return 1
	eq "cpumask while cpu1 is offline" "$(cat "$T/mask")" 0 &&
	eq user_irqs "$(val "fpga_pmu_$n/user_irqs/")" 12
}

# The card goes while perf counts: perf ends cleanly with the count at
# removal, and the PMU goes with perf's events
t_unplug()
{
	cmd="$SELF --ring $ID_B $PB 3 && echo $ID_B > $SIM/del_device"
	hold "$PB"
	pstat -e "fpga_pmu_$B/user_irqs/" -- sh -c "$cmd"
	release
	CARDS=$ID_A
	eq "perf stat exit" "$RC" 0 || return 1
	eq user_irqs "$(val "fpga_pmu_$B/user_irqs/")" 3 || return 1
	i=0
	while [ -d "$(pmu_dir "$B")" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ ! -d "$(pmu_dir "$B")" ] || { diag "fpga_pmu_$B still there"; return 1; }
}

command -v perf > /dev/null || ktap_skip_all "perf not found"
ktap_plan 10
if ! setup; then
	diag "setup failed: no simulated cards with PMUs"
	exit 1
fi
t "perf list shows every event of each card" t_list
t "alias events count 1 MiB of loopback exactly" t_alias_exact
t "raw event with portid counts exactly" t_raw_exact
t "fpga_pmu/.../ counts on all cards" t_all_cards
t "user interrupts and resets exactly, per port" t_irqs_resets_exact
t "perf stat -I: intervals add up to the total" t_interval_total
t "bad configs, modifiers and sampling are refused" t_rejects
t "counting goes on while the PMU's CPU goes offline" t_cpu_hotplug
t "card removed while perf counts" t_unplug
# The last card still counts after the other went
t "the other card still counts" t_alias_exact

ktap_done
