#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fpgactl: its command line (usage errors, exit codes, help, JSON) on a
# fake sysfs tree, which needs no FPGA (metrics also through promtool
# when it is there), then end to end on a simulated card: sim add, list,
# info, ps, metrics, reset, MMIO, DMA loopback, errors, user interrupts,
# sim del.  The end-to-end tests that need the port driver
# are skipped when no /dev/fpga-port.N appears.  Prints KTAP.
#
# Environment:
#   FPGACTL         the command to test (default: fpgactl from PATH); may
#                   carry a wrapper, e.g. "valgrind -q --error-exitcode=99 .."
#   FPGACTL_NO_E2E  set: skip everything that needs root and the modules
#                   (for runs on a build host)
#
# Exit status: 0 all passed (some may be skipped), 1 a test failed,
# 4 nothing ran.

FPGACTL=${FPGACTL:-fpgactl}
NLB0_AFU_ID=d8424dc4a4a3c413f89e433683f9040b
NLB_DOORBELL=0x180

T=$(mktemp -d) || exit 1
. "$(dirname "$0")/fpgactl_lib.sh"
SIM_ID=$((3000 + $$ % 1000))
SIM_LOADED=""		# we loaded fpga_sim
DRV_MODULES=""		# port driver modules we loaded
SIM_OK=""		# the card exists
DRV_OK=""		# its ports have device nodes
UIRQ_OK=""		# the port has user interrupt vectors
WHY_NO_SIM="not set up"
WHY_NO_DRV="not set up"
WHY_NO_UIRQ="not set up"
PORT=""			# first port of the card
PORTS=""
CDI_OTHER=""		# the second card t_cdi made
BOARD_CARD=""		# the n3000 card t_sim_board made

cleanup()
{
	if [ -n "$SIM_OK" ]; then
		echo "$SIM_ID" > /sys/bus/fpga_sim/del_device 2>/dev/null
	fi
	[ -n "$CDI_OTHER" ] &&
		echo "$CDI_OTHER" > /sys/bus/fpga_sim/del_device 2>/dev/null
	[ -n "$BOARD_CARD" ] &&
		echo "$BOARD_CARD" > /sys/bus/fpga_sim/del_device 2>/dev/null
	[ -n "$DRV_MODULES" ] && modprobe -r $DRV_MODULES 2>/dev/null
	[ -n "$SIM_LOADED" ] && modprobe -r fpga_sim 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# ---- helpers ----

# why_not REQUIRES: why a test cannot run, for needs.  REQUIRES is "sim"
# (fpga_sim and a card), "drv" (also the port driver) or "uirq" (also
# user interrupt vectors).
why_not()
{
	case "$1" in
	sim) [ -z "$SIM_OK" ] && echo "$WHY_NO_SIM" ;;
	drv) [ -z "$DRV_OK" ] && echo "$WHY_NO_DRV" ;;
	uirq) [ -z "$UIRQ_OK" ] && echo "$WHY_NO_UIRQ" ;;
	esac
}

# ---- the command line, no FPGA needed ----

t_help()
{
	expect 0 "" $FPGACTL --help || return 1
	for c in "list" "info PORT" "reset PORT" "mmio read" "mmio write" \
		 "mmio dump" "dma loopback" "errors PORT" "irq wait" \
		 "sim add" "sim del" "perf PORT|CARD" "trace \[PORT\]" \
		 "monitor" "ps \[PORT\]" "metrics \[--output FILE\]" \
		 "cdi \[--output FILE\]"; do
		out_has "fpgactl $c" || return 1
	done
	expect 0 "" $FPGACTL help || return 1
	out_has "Exit status"
}

t_help_levels()
{
	for obj in mmio dma irq sim; do
		expect 0 "" $FPGACTL $obj help || return 1
		out_has "fpgactl $obj " || return 1
		expect 0 "" $FPGACTL help $obj || return 1
		out_has "fpgactl $obj " || return 1
	done
	for c in list info reset "mmio read" "mmio write" "mmio dump" \
		 "dma loopback" errors "irq wait" "sim add" "sim del" perf trace \
		 monitor ps metrics cdi; do
		expect 0 "" $FPGACTL $c --help || return 1
		out_has "^Usage: fpgactl .*$c" || return 1
		[ -s "$T/err" ] && { diag "$c --help wrote to stderr"; return 1; }
	done
	return 0
}

t_usage_commands()
{
	usage "Usage: fpgactl" $FPGACTL || return 1
	usage "\"frob\" is not a command" $FPGACTL frob || return 1
	usage "mmio: \"frob\" is not a command" $FPGACTL mmio frob || return 1
	usage "mmio: missing verb" $FPGACTL mmio || return 1
	usage "unknown option '--frob'" $FPGACTL --frob list || return 1
	usage "\"i\" is ambiguous (info, irq)" $FPGACTL i 0 || return 1
	usage "unknown option '--frob'" $FPGACTL list --frob || return 1
	usage "unexpected argument 'extra'" $FPGACTL list extra || return 1
	# Output options are taken anywhere, but not after "--"
	usage "list: unexpected argument '-j'" $FPGACTL list -- -j || return 1
	usage "option --clear takes no value" $FPGACTL errors 0 --clear=1 || return 1
	# usage errors print nothing on stdout, in JSON mode either
	usage "" $FPGACTL -j mmio read 0 zz || return 1
	[ ! -s "$T/out" ] || { diag "stdout not empty"; return 1; }
}

t_usage_missing()
{
	for c in "info" "reset" "mmio read 0" "mmio write 0 0" "mmio dump" \
		 "dma loopback" "errors" "irq wait" "sim add" "sim del"; do
		usage "missing argument" $FPGACTL $c || return 1
	done
	usage "--size is required" $FPGACTL dma loopback 0 || return 1
	usage "option --width needs a value" $FPGACTL mmio read 0 0 --width
}

t_usage_numbers()
{
	usage "OFFSET: 'zz' is not a number" $FPGACTL mmio read 0 zz || return 1
	usage "OFFSET: '-8' is not a number" $FPGACTL mmio read 0 -- -8 || return 1
	usage "OFFSET: '8x' is not a number" $FPGACTL mmio read 0 8x || return 1
	usage "too large" $FPGACTL mmio read 0 0x10000000000000000 || return 1
	usage "not 8-byte aligned" $FPGACTL mmio read 0 0x4 || return 1
	usage "not 4-byte aligned" $FPGACTL mmio read 0 0x6 --width 32 || return 1
	usage "width is 32 or 64, not '16'" $FPGACTL mmio read 0 0 --width 16 || return 1
	usage "VALUE: '0x100000000' is too large" \
		$FPGACTL mmio write 0 0 0x100000000 --width 32 || return 1
	usage "VALUE: 'one' is not a number" $FPGACTL mmio write 0 0 one || return 1
	usage "not a positive multiple of 8" $FPGACTL mmio dump 0 0+12 || return 1
	usage "monitor: --count: 'x' is not a number" $FPGACTL monitor --count x || return 1
	usage "monitor: --timeout: '1s' is not a number" $FPGACTL monitor --timeout 1s || return 1
	usage "OFFSET\[+LEN\]" $FPGACTL mmio dump 0 0+x || return 1
	usage "multiple of 64" $FPGACTL dma loopback 0 --size 100 || return 1
	usage "multiple of 64" $FPGACTL dma loopback 0 --size 0 || return 1
	usage "'1X' is not a number" $FPGACTL dma loopback 0 --size 1X || return 1
	usage "at most 4G" $FPGACTL dma loopback 0 --size 8G || return 1
	usage "option --size given twice" \
		$FPGACTL dma loopback 0 --size 64 --size 128 || return 1
	usage "--timeout: 'soon' is not a number" \
		$FPGACTL dma loopback 0 --size 64 --timeout soon || return 1
	usage "--vector: '4096' is too large" $FPGACTL irq wait 0 --vector 4096 || return 1
	usage "--timeout: '-1' is not a number" $FPGACTL irq wait 0 --timeout=-1
}

t_usage_perf()
{
	usage "missing argument" $FPGACTL perf || return 1
	usage "no command after '--'" $FPGACTL perf 0 -- || return 1
	usage "--time and a command exclude each other" \
		$FPGACTL perf 0 --time 10 -- true || return 1
	usage "--time: 'soon' is not a number" $FPGACTL perf 0 --time soon || return 1
	usage "'fpga_pmu_x' is not a card" $FPGACTL perf fpga_pmu_x || return 1
	usage "'fpga-fme.x' is not a card" $FPGACTL perf fpga-fme.x || return 1
	usage "unexpected argument 'x'" $FPGACTL perf 0 x
}

t_usage_trace()
{
	usage "no command after '--'" $FPGACTL trace 0 -- || return 1
	usage "--time and a command exclude each other" \
		$FPGACTL trace --time 10 -- true || return 1
	usage "--time: 'soon' is not a number" $FPGACTL trace --time soon || return 1
	usage "'abc' is not a port" $FPGACTL trace abc || return 1
	usage "unexpected argument 'x'" $FPGACTL trace 0 x
}

# No tracefs, and a tracefs without the suite's events: clear errors
t_fake_trace()
{
	mkdir -p "$T/tracefs/events/sched" || return 1
	FPGA_TRACEFS=$T/nowhere expect 1 "tracefs is not mounted" \
		$FPGACTL trace --time 1 || return 1
	FPGA_TRACEFS=$T/tracefs expect 1 \
		"no fpga tracepoints (are the suite's modules loaded?)" \
		$FPGACTL trace --time 1
}

t_usage_ports()
{
	usage "'abc' is neither a port nor an FME" $FPGACTL info abc || return 1
	usage "'abc' is not a port" $FPGACTL reset abc || return 1
	usage "'fpga-fme.0' is not a port" $FPGACTL reset fpga-fme.0 || return 1
	usage "not a port number" $FPGACTL info 99999999999 || return 1
	usage "not a port in sysfs" $FPGACTL reset /sys/bus/fpga_dfl/devices/fpga-fme.0 || return 1
	expect 1 "/dev/null is not an FPGA port device" $FPGACTL info /dev/null || return 1
	expect 1 "No such file or directory (is the port driver loaded?)" \
		$FPGACTL mmio read /dev/fpga-port.2147483647 0 || return 1
	expect 1 "no port 2147483647; see 'fpgactl list'" \
		$FPGACTL reset 2147483647
}

t_usage_ps()
{
	usage "'abc' is not a port" $FPGACTL ps abc || return 1
	usage "'fpga-fme.0' is not a port" $FPGACTL ps fpga-fme.0 || return 1
	usage "unexpected argument 'x'" $FPGACTL ps 0 x || return 1
	usage "unknown option '--all'" $FPGACTL ps --all
}

t_usage_sim()
{
	usage "ID: 'x' is not a number" $FPGACTL sim add x || return 1
	usage "ID: '-1' is not a number" $FPGACTL sim add -- -1 || return 1
	usage "ID: '2147483648' is too large (at most 2147483647)" \
		$FPGACTL sim add 2147483648 || return 1
	usage "NUM_PORTS is 1 to 4, not 0" $FPGACTL sim add 1 0 || return 1
	usage "NUM_PORTS is 1 to 4, not 5" $FPGACTL sim add 1 5 || return 1
	usage "NUM_PORTS: 'two' is not a number" $FPGACTL sim add 1 two || return 1
	usage "unexpected argument '3'" $FPGACTL sim add 1 2 3 || return 1
	usage "board needs a value" $FPGACTL sim add 1 board || return 1
	usage "board given twice" $FPGACTL sim add 1 board sim board n3000 || return 1
	usage "board: no board 'N3000' (boards: sim, n3000)" \
		$FPGACTL sim add 1 board N3000 || return 1
	usage "board: no board 'n3000 2'" $FPGACTL sim add 1 board "n3000 2" || return 1
	usage "board: no board ''" $FPGACTL sim add 1 board "" || return 1
	usage "board: no board 'abcdefghijklmnop'" \
		$FPGACTL sim add 1 board abcdefghijklmnop || return 1
	usage "ID: 'x' is not a number" $FPGACTL sim del x || return 1
	usage "unexpected argument '2'" $FPGACTL sim del 1 2
}

# A sysfs tree as the fpga_dfl bus and fpga_sim show it: card fpga_sim77
# (FME 3, port 5 with an NLB0 and errors set, port 6 without errors/)
fake_sysfs()
{
	S=$T/sys
	dev=$S/devices/fpga_sim77
	mkdir -p "$S/bus/fpga_dfl/devices" "$S/bus/fpga_sim/devices" \
		"$dev/fpga-fme.3" "$dev/fpga-port.5/errors" "$dev/fpga-port.6" \
		"$S/devices/fpga_sim12/fpga-fme.4" \
		"$S/devices/fpga_sim12/fpga-port.7" \
		"$S/devices/fpga_sim12/fpga-port.8"
	for d in fpga-fme.3 fpga-port.5 fpga-port.6; do
		ln -s "../../../devices/fpga_sim77/$d" "$S/bus/fpga_dfl/devices/$d"
		echo 3 > "$dev/$d/card_id"
	done
	ln -s ../../../devices/fpga_sim12 "$S/bus/fpga_sim/devices/fpga_sim12"
	echo 1 > "$dev/fpga-fme.3/ports_num"
	echo $NLB0_AFU_ID > "$dev/fpga-port.5/afu_id"
	echo 0x1 > "$dev/fpga-port.5/errors/errors"
	echo 0x1 > "$dev/fpga-port.5/errors/first_error"
	echo 0x000000000000000000000000000000ab > "$dev/fpga-port.5/errors/first_malformed_req"
	: > "$S/bus/fpga_sim/new_device"
	: > "$S/bus/fpga_sim/del_device"
	mkdir -p "$T/empty"
}

t_fake_list()
{
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL list || return 1
	out_has "^fpga-fme.3: card 3 (fpga_sim77) (no driver) ports 1" || return 1
	out_has "^fpga-port.5: card 3 (fpga_sim77) (no driver) afu_id $NLB0_AFU_ID (nlb0)" || return 1
	out_has "^fpga-port.6: card 3 (fpga_sim77) (no driver)$" || return 1
	[ "$(wc -l < "$T/out")" -eq 3 ] || { diag "not 3 lines"; show; return 1; }
	# FMEs first, then ports by number
	[ "$(sed -n 1p "$T/out" | cut -d: -f1)" = fpga-fme.3 ] || return 1

	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL -j list || return 1
	out_has '^\[{"name":"fpga-fme.3","type":"fme","id":3,"card_id":3,"card":"fpga_sim77","driver":null' || return 1
	out_has '{"name":"fpga-port.5","type":"port","id":5,"card_id":3,"card":"fpga_sim77","driver":null,"afu_id":"'$NLB0_AFU_ID'","afu":"nlb0"}' || return 1
	[ "$(wc -l < "$T/out")" -eq 1 ] || { diag "-j is not one line"; return 1; }
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL -p list || return 1
	out_has '^  {$' || return 1
	out_has '"name": "fpga-port.6",' || return 1
	# The output options after the object, as users type them
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL list --json || return 1
	out_has '^\[{"name":"fpga-fme.3",' || return 1
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL list -p || return 1
	out_has '^  {$'
}

t_fake_list_empty()
{
	expect 0 "no fpga_dfl bus in sysfs" env FPGA_SYSFS_ROOT=$T/empty $FPGACTL list || return 1
	[ ! -s "$T/out" ] || { diag "stdout not empty"; return 1; }
	expect 0 "" env FPGA_SYSFS_ROOT=$T/empty $FPGACTL -j list || return 1
	[ "$(cat "$T/out")" = "[]" ] || { diag "not []"; show; return 1; }
}

t_fake_errors()
{
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL errors 5 || return 1
	out_has "^errors 0x1 dma_fault$" || return 1
	out_has "^first_error 0x1$" || return 1
	out_has "^first_malformed_req 0x000000000000000000000000000000ab$" || return 1
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL -j errors fpga-port.5 || return 1
	out_has '^{"errors":"0x1","decoded":\["dma_fault"\],"first_error":"0x1","first_malformed_req":"0x000000000000000000000000000000ab"}$' || return 1
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL errors fpga-port.5 -j || return 1
	out_has '^{"errors":"0x1","decoded":\["dma_fault"\]' || return 1
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL errors $T/sys/bus/fpga_dfl/devices/fpga-port.5 || return 1
	expect 1 "fpga-port.6: no errors/errors in sysfs (is the port driver loaded?)" env FPGA_SYSFS_ROOT=$T/sys \
		$FPGACTL errors 6 || return 1
	expect 1 "fpga-port.9: no such port (see 'fpgactl list')" env FPGA_SYSFS_ROOT=$T/sys \
		$FPGACTL errors 9
}

t_fake_perf()
{
	expect 1 "fpga_pmu_7: no such PMU (is fpga_fme loaded, does card 7 have a counter bank?)" \
		env FPGA_SYSFS_ROOT=$T/sys $FPGACTL perf fpga_pmu_7 --time 1 || return 1
	expect 1 "fpga_pmu_4: no such PMU" \
		env FPGA_SYSFS_ROOT=$T/sys $FPGACTL -j perf /dev/fpga-fme.4 --time 1 || return 1
	[ ! -s "$T/out" ] || { diag "stdout not empty"; return 1; }
}

t_fake_sim()
{
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL sim add 12 2 || return 1
	[ "$(cat "$T/sys/bus/fpga_sim/new_device")" = "12 2" ] ||
		{ diag "new_device got '$(cat "$T/sys/bus/fpga_sim/new_device")'"; return 1; }
	out_has "^fpga_sim12: fpga-fme.4 fpga-port.7 fpga-port.8$" || return 1
	: > "$T/sys/bus/fpga_sim/new_device"
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL -j sim add 12 || return 1
	[ "$(cat "$T/sys/bus/fpga_sim/new_device")" = "12 1" ] || return 1
	out_has '^{"card":"fpga_sim12","id":12,"fme":4,"ports":\[7,8\]}$' || return 1
	# A board is one more word; the card's "board" file is read back
	: > "$T/sys/bus/fpga_sim/new_device"
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL sim add 12 board n3000 2 || return 1
	[ "$(cat "$T/sys/bus/fpga_sim/new_device")" = "12 2 board=n3000" ] ||
		{ diag "new_device got '$(cat "$T/sys/bus/fpga_sim/new_device")'"; return 1; }
	out_has "^fpga_sim12: fpga-fme.4 fpga-port.7 fpga-port.8$" || return 1
	echo n3000 > "$T/sys/devices/fpga_sim12/board"
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL sim add 12 2 board n3000 || return 1
	out_has "^fpga_sim12 (n3000): fpga-fme.4 fpga-port.7 fpga-port.8$" || return 1
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL -j sim add 12 2 board n3000 || return 1
	out_has '^{"card":"fpga_sim12","id":12,"board":"n3000","fme":4,"ports":\[7,8\]}$' || return 1
	echo sim > "$T/sys/devices/fpga_sim12/board"
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL sim add 12 2 || return 1
	out_has "^fpga_sim12: fpga-fme.4 fpga-port.7 fpga-port.8$" || return 1
	rm "$T/sys/devices/fpga_sim12/board"
	expect 0 "" env FPGA_SYSFS_ROOT=$T/sys $FPGACTL sim del 0x0c || return 1
	[ "$(cat "$T/sys/bus/fpga_sim/del_device")" = "12" ] || return 1
	expect 1 "new_device: No such file or directory (is fpga_sim loaded? try 'modprobe fpga_sim')" env FPGA_SYSFS_ROOT=$T/empty \
		$FPGACTL sim add 1
}

# fake_proc_fd PID COMM FD NODE FDINFO_LINES: process PID has NODE open
# as FD, and its fdinfo shows the kernel's lines and FDINFO_LINES
fake_proc_fd()
{
	mkdir -p "$P/$1/fd" "$P/$1/fdinfo" || return 1
	echo "$2" > "$P/$1/comm"
	ln -s "$4" "$P/$1/fd/$3"
	printf 'pos:\t0\nflags:\t02\nmnt_id:\t24\nino:\t118\n%b' "$5" \
		> "$P/$1/fdinfo/$3"
}

# fake_proc_port PID COMM FD NODE PORT CLIENT PINNED MAPPED [AFU_NS]: a
# port's file
fake_proc_port()
{
	fake_proc_fd "$1" "$2" "$3" "$4" "fpga-driver:\tfpga_port\nfpga-port:\t$5\nfpga-client-id:\t$6\nfpga-memory-pinned:\t$7 KiB\nfpga-memory-mapped:\t$8 KiB\nfpga-interrupts:\t2\nfpga-resets:\t1\n${9:+fpga-engine-afu:\t$9 ns\n}"
}

# A /proc tree with port files open in four processes, out of order, and
# one without most keys; /dev/null and a stranger's node are no port's
fake_proc()
{
	P=$T/proc
	fake_proc_port 300 worker 4 /dev/fpga-port.10 fpga-port.10 5 0 0 0
	fake_proc_port 300 worker 3 /dev/fpga-port.2 fpga-port.2 4 1536 1048575 999960
	fake_proc_fd 300 worker 5 /dev/null "fpga-driver:\tfpga_port\nfpga-port:\tfpga-port.2\n"
	fake_proc_port 120 "Web Content" 7 /dev/dfl-port.2 fpga-port.2 3 64 128 850
	fake_proc_port 99 nlb 3 /dev/fpga-port.0 fpga-port.0 1 1048576 3145728 1500000
	fake_proc_fd 50 partial 9 /dev/fpga-port.0 "fpga-driver:\tfpga_port\nfpga-client-id:\t8\nfpga-future:\tx\n"
	fake_proc_fd 60 stranger 0 /dev/fpga-port.4 "tty-index:\t4\n"
	mkdir -p "$T/proc-empty/1/fd"
	# 120's fdinfo malformed, 99's unreadable (a directory)
	cp -R "$P" "$T/proc-bad"
	printf 'fpga-driver:\tfpga_port\nfpga-interrupts:\tmany\n' > "$T/proc-bad/120/fdinfo/7"
	rm "$T/proc-bad/99/fdinfo/3"
	mkdir "$T/proc-bad/99/fdinfo/3"
	fake_proc_hostile
}

# lock_lines N: N lock: lines as the kernel writes them, one per lock on
# the file (a user takes as many as they like on their own descriptor)
lock_lines()
{
	awk -v n="$1" 'BEGIN { for (k = 0; k < n; k++)
		printf "lock:\t%d: POSIX  ADVISORY  WRITE 4242 00:05:118 %d %d\n", k + 1, 2 * k, 2 * k }'
}

# $P and PID 400 (port 2, client 6), which would blind a naive reader:
# in $T/proc-locks its port's fdinfo has 1500 lock: lines before the
# port's keys (some 75 KiB); in $T/proc-escapes its name is terminal
# escapes (clear the screen, set the title) and a newline
fake_proc_hostile()
{
	keys='fpga-driver:\tfpga_port\nfpga-port:\tfpga-port.2\nfpga-client-id:\t6\nfpga-memory-pinned:\t4 KiB\nfpga-memory-mapped:\t8 KiB\nfpga-interrupts:\t0\nfpga-resets:\t0\n'
	for h in locks escapes; do
		cp -R "$P" "$T/proc-$h"
		mkdir -p "$T/proc-$h/400/fd" "$T/proc-$h/400/fdinfo"
		ln -s /dev/fpga-port.2 "$T/proc-$h/400/fd/3"
	done
	echo locker > "$T/proc-locks/400/comm"
	{
		printf 'pos:\t0\nflags:\t02\nmnt_id:\t24\nino:\t118\n'
		lock_lines 1500
		printf "$keys"
	} > "$T/proc-locks/400/fdinfo/3"
	printf '\033[2J\033]0;owned\007x\ny\n' > "$T/proc-escapes/400/comm"
	printf "pos:\t0\n$keys" > "$T/proc-escapes/400/fdinfo/3"
}

t_fake_ps()
{
	expect 0 "" env FPGA_PROC_ROOT=$P $FPGACTL ps || return 1
	cat > "$T/want" <<-EOF
	    PID COMM              FD PORT         CLIENT  PINNED  MAPPED   IRQS RESETS     AFU
	     99 nlb                3 fpga-port.0       1      1G      3G      2      1   1.5ms
	    120 Web Content        7 fpga-port.2       3     64K    128K      2      1   850ns
	    300 worker             3 fpga-port.2       4    1.5M    1.0G      2      1     1ms
	    300 worker             4 fpga-port.10      5       0       0      2      1       0
	     50 partial            9 -                 8       -       -      -      -       -
	EOF
	diff -u "$T/want" "$T/out" > "$T/diff" ||
		{ diag "$(cat "$T/diff")"; return 1; }

	for spec in 2 fpga-port.2 dfl-port.2; do
		expect 0 "" env FPGA_PROC_ROOT=$P $FPGACTL -j ps $spec || return 1
		[ "$(cat "$T/out")" = '[{"pid":120,"comm":"Web Content","fd":7,"port":"fpga-port.2","client_id":3,"memory_pinned_kib":64,"memory_mapped_kib":128,"interrupts":2,"resets":1,"afu_busy_ns":850},{"pid":300,"comm":"worker","fd":3,"port":"fpga-port.2","client_id":4,"memory_pinned_kib":1536,"memory_mapped_kib":1048575,"interrupts":2,"resets":1,"afu_busy_ns":999960}]' ] ||
			{ diag "ps $spec"; show; return 1; }
	done
	# keys the driver does not show are left out
	expect 0 "" env FPGA_PROC_ROOT=$P $FPGACTL ps --json || return 1
	out_has ',{"pid":50,"comm":"partial","fd":9,"client_id":8}\]$'
}

t_fake_ps_empty()
{
	expect 0 "" env FPGA_PROC_ROOT=$T/proc-empty $FPGACTL ps || return 1
	[ "$(cat "$T/out")" = "$(head -n 1 "$T/want")" ] ||
		{ diag "not the header alone"; show; return 1; }
	expect 0 "" env FPGA_PROC_ROOT=$T/proc-empty $FPGACTL -j ps || return 1
	[ "$(cat "$T/out")" = "[]" ] || { diag "not []"; show; return 1; }
	# a port nobody has open
	expect 0 "" env FPGA_PROC_ROOT=$P $FPGACTL -j ps 7 || return 1
	[ "$(cat "$T/out")" = "[]" ] || { diag "not []"; show; return 1; }
}

# A file that cannot be read, or is malformed, is left out and said; the
# rest is shown, and the exit status is 1.  No /proc fails.
t_fake_ps_bad()
{
	expect 1 "proc-bad/120/fdinfo/7: fpga-interrupts: 'many' is not a decimal number: left out" \
		env FPGA_PROC_ROOT=$T/proc-bad $FPGACTL ps || return 1
	grep -q "proc-bad/99/fdinfo/3: Is a directory: left out" "$T/err" ||
		{ diag "the unreadable fdinfo is not named"; show; return 1; }
	[ "$(wc -l < "$T/err")" = 2 ] || { diag "not two warnings"; show; return 1; }
	grep -v "^ *\(99\|120\) " "$T/want" > "$T/want-bad"
	diff -u "$T/want-bad" "$T/out" > "$T/diff" ||
		{ diag "$(cat "$T/diff")"; return 1; }
	expect 1 "nowhere: No such file or directory" \
		env FPGA_PROC_ROOT=$T/nowhere $FPGACTL ps
}

# ps_want_400 COMM: t_fake_ps's table with PID 400's row, named COMM
ps_want_400()
{
	# from the environment: awk -v would read the backslashes as escapes
	COMM=$1 awk '{ print }
		/^ *300 worker *3 / { printf "    400 %-15s    3 fpga-port.2       6      4K      8K      0      0       -\n", ENVIRON["COMM"] }' \
		"$T/want"
}

# 1500 lock: lines in a port's fdinfo (75 KiB): read whole, the process
# listed
t_fake_ps_locks()
{
	[ "$(wc -c < "$T/proc-locks/400/fdinfo/3")" -gt 65536 ] ||
		{ diag "400/fdinfo/3 is not above 64 KiB"; return 1; }
	expect 0 "" env FPGA_PROC_ROOT=$T/proc-locks $FPGACTL ps || return 1
	[ ! -s "$T/err" ] || { diag "stderr not empty"; show; return 1; }
	ps_want_400 locker > "$T/want-400"
	diff -u "$T/want-400" "$T/out" > "$T/diff" ||
		{ diag "$(cat "$T/diff")"; return 1; }
}

# A name of terminal escapes and a newline: escaped in the table, by
# json-c in JSON; no escape character printed
t_fake_ps_escapes()
{
	expect 0 "" env FPGA_PROC_ROOT=$T/proc-escapes $FPGACTL ps || return 1
	ps_want_400 '\x1b[2J\x1b]0;owned\x07x\ny' > "$T/want-400"
	diff -u "$T/want-400" "$T/out" > "$T/diff" ||
		{ diag "$(cat "$T/diff")"; return 1; }
	expect 0 "" env FPGA_PROC_ROOT=$T/proc-escapes $FPGACTL -j ps 2 || return 1
	out_has '{"pid":400,"comm":"\\u001b\[2J\\u001b\]0;owned\\u0007x\\ny","fd":3,"port":"fpga-port.2","client_id":6,' || return 1
	if grep -q "$(printf '\033')" "$T/out"; then
		diag "an escape character in the JSON"
		return 1
	fi
}

# A sysfs and /proc for metrics: card 0 a PCI card (fpga_dfl_pci's
# layout: its devices in dfl-card.0 under 0000:3b:00.0) with a counter
# bank, a PR interface id, FME errors and hwmon sensors under the
# function, linked from its region's dfl-fme.0; card 1 a simulated card
# (its function f5a0:00:00.0 through pci_function) with none of those,
# and a port whose afu_id cannot be read; card 2 a simulated card
# without a PCI function, its sensor under fpga-fme.2/hwmon/.  Card 1
# has a BMC (board n3000) with labelled sensors behind its SPI master.
# fpga-port.0 is open twice in PID 100 (one file, dup'ed) and once in
# 200; fpga-port.2 once in 300.
fake_metrics()
{
	MS=$T/msys
	pci=$MS/devices/pci0000:00/0000:3b:00.0
	card=$pci/dfl-card.0
	sim=$MS/devices/fpga_sim/fpga_sim7
	mkdir -p "$MS/bus/fpga_dfl/devices" "$MS/class/fpga_region" \
		"$card/fpga-fme.0/errors" "$card/fpga-fme.0/counters" \
		"$card/fpga-port.0/errors" "$card/fpga-port.1/errors" \
		"$pci/hwmon/hwmon3" "$pci/hwmon/hwmon4" \
		"$pci/fpga_region/region0/dfl-fme.0/hwmon" \
		"$pci/fpga_region/region0/dfl-fme.0/dfl-fme-region.0/fpga_region/region2" \
		"$sim/fpga-fme.1" "$sim/fpga-port.2/errors" \
		"$MS/devices/pcif5a0:00/f5a0:00:00.0"
	for d in fpga-fme.0 fpga-port.0 fpga-port.1; do
		ln -s "../../../devices/pci0000:00/0000:3b:00.0/dfl-card.0/$d" \
			"$MS/bus/fpga_dfl/devices/$d"
		echo 0 > "$card/$d/card_id"
	done
	for d in fpga-fme.1 fpga-port.2; do
		ln -s "../../../devices/fpga_sim/fpga_sim7/$d" "$MS/bus/fpga_dfl/devices/$d"
		echo 1 > "$sim/$d/card_id"
	done
	ln -s ../../pcif5a0:00/f5a0:00:00.0 "$sim/pci_function"
	bmc=$MS/devices/pcif5a0:00/f5a0:00:00.0/fpga_region/region1/dfl-fme.1/dfl_dev.0/spi_master/spi0/spi0.0/simbmc-hwmon.0.auto/hwmon/hwmon6
	mkdir -p "$bmc"
	ln -s ../../devices/pcif5a0:00/f5a0:00:00.0/fpga_region/region1 \
		"$MS/class/fpga_region/region1"
	ln -s ../../../f5a0:00:00.0 \
		"$MS/devices/pcif5a0:00/f5a0:00:00.0/fpga_region/region1/device"
	echo simbmc > "$bmc/name"
	echo 51000 > "$bmc/temp1_input"
	echo "FPGA Die Temperature" > "$bmc/temp1_label"
	echo 45500 > "$bmc/temp2_input"
	echo "Board Temperature" > "$bmc/temp2_label"
	echo 12000 > "$bmc/in0_input"
	echo "12V Backplane Voltage" > "$bmc/in0_label"
	echo 68750000 > "$bmc/power1_input"
	echo "Board Power" > "$bmc/power1_label"
	mkdir -p "$MS/devices/fpga_sim/fpga_sim8/fpga-fme.2/hwmon/hwmon0"
	ln -s ../../../devices/fpga_sim/fpga_sim8/fpga-fme.2 "$MS/bus/fpga_dfl/devices/fpga-fme.2"
	echo 2 > "$MS/devices/fpga_sim/fpga_sim8/fpga-fme.2/card_id"
	echo dfl_fme_thermal > "$MS/devices/fpga_sim/fpga_sim8/fpga-fme.2/hwmon/hwmon0/name"
	echo 38000 > "$MS/devices/fpga_sim/fpga_sim8/fpga-fme.2/hwmon/hwmon0/temp1_input"
	ln -s ../../devices/pci0000:00/0000:3b:00.0/fpga_region/region0 \
		"$MS/class/fpga_region/region0"
	ln -s ../../../0000:3b:00.0 "$pci/fpga_region/region0/device"
	echo 0123456789abcdef0123456789abcdef > \
		"$pci/fpga_region/region0/dfl-fme.0/dfl-fme-region.0/fpga_region/region2/compat_id"

	echo 0 > "$card/fpga-port.0/id"
	echo 1 > "$card/fpga-port.1/id"
	echo 0 > "$sim/fpga-port.2/id"
	echo $NLB0_AFU_ID > "$card/fpga-port.0/afu_id"
	echo 00000000000000000000000000000001 > "$card/fpga-port.1/afu_id"
	echo 0x0 > "$card/fpga-port.0/errors/errors"
	echo 0x41 > "$card/fpga-port.1/errors/errors"
	echo 0x0 > "$sim/fpga-port.2/errors/errors"
	for f in fme_errors nonfatal_errors catfatal_errors next_error \
		 inject_errors pr_err; do
		echo 0x0 > "$card/fpga-fme.0/errors/$f"
	done
	echo 0x2 > "$card/fpga-fme.0/errors/pcie0_errors"
	echo 0x2 > "$card/fpga-fme.0/errors/first_error"
	echo "not a number" > "$card/fpga-fme.0/errors/notes"
	mkdir "$card/fpga-fme.0/errors/power"

	# card totals 1000..1007, port P's 100*(P+1) + 0..7
	i=0
	for e in dma_rd_bytes dma_wr_bytes dma_rd_lines dma_wr_lines \
		 user_irqs error_irqs resets dma_faults; do
		echo $((1000 + i)) > "$card/fpga-fme.0/counters/$e"
		echo $((100 + i)) > "$card/fpga-fme.0/counters/port0_$e"
		echo $((200 + i)) > "$card/fpga-fme.0/counters/port1_$e"
		i=$((i + 1))
	done
	echo 18446744073709551615 > "$card/fpga-fme.0/counters/port1_dma_faults"
	echo 123 > "$card/fpga-fme.0/counters/clock"
	chmod 0400 "$card/fpga-fme.0/counters/"*

	echo dfl_fme_thermal > "$pci/hwmon/hwmon3/name"
	echo 45500 > "$pci/hwmon/hwmon3/temp1_input"
	echo 80000 > "$pci/hwmon/hwmon3/temp1_max"
	echo -1250 > "$pci/hwmon/hwmon3/temp2_input"
	echo 'die "hot" \ spot' > "$pci/hwmon/hwmon3/temp2_label"
	echo dfl_fme_power > "$pci/hwmon/hwmon4/name"
	echo 23000000 > "$pci/hwmon/hwmon4/power1_input"
	echo 127000000 > "$pci/hwmon/hwmon4/power1_max"
	for h in hwmon3 hwmon4; do
		ln -s ../../../../hwmon/$h "$pci/fpga_region/region0/dfl-fme.0/hwmon/$h"
	done

	P=$T/mproc
	fake_proc_port 100 app 3 /dev/fpga-port.0 fpga-port.0 7 64 128
	fake_proc_port 100 app 4 /dev/fpga-port.0 fpga-port.0 7 64 128
	fake_proc_port 200 app2 5 /dev/dfl-port.0 fpga-port.0 8 4 4
	fake_proc_port 300 sleeper 0 /dev/fpga-port.2 fpga-port.2 9 0 0
	P=$T/proc
}

# metrics ARGS...: fpgactl metrics on the fake tree
metrics()
{
	expect 0 "" env FPGA_SYSFS_ROOT=$T/msys FPGA_PROC_ROOT=$T/mproc \
		$FPGACTL metrics "$@"
}

t_fake_metrics()
{
	metrics || return 1
	[ ! -s "$T/err" ] || { diag "stderr not empty"; show; return 1; }
	# HELP texts are free to change; names, types, labels and values are ABI
	grep -v '^# HELP' "$T/out" > "$T/got"
	cat > "$T/want" <<-'EOF'
	# TYPE fpga_card_info gauge
	fpga_card_info{card="0000:3b:00.0",fme="fpga-fme.0",interface_id="0123456789abcdef0123456789abcdef"} 1
	fpga_card_info{card="f5a0:00:00.0",fme="fpga-fme.1"} 1
	fpga_card_info{card="fpga_sim8",fme="fpga-fme.2"} 1
	# TYPE fpga_card_errors gauge
	fpga_card_errors{card="0000:3b:00.0",fme="fpga-fme.0",source="catfatal_errors"} 0
	fpga_card_errors{card="0000:3b:00.0",fme="fpga-fme.0",source="fme_errors"} 0
	fpga_card_errors{card="0000:3b:00.0",fme="fpga-fme.0",source="inject_errors"} 0
	fpga_card_errors{card="0000:3b:00.0",fme="fpga-fme.0",source="next_error"} 0
	fpga_card_errors{card="0000:3b:00.0",fme="fpga-fme.0",source="nonfatal_errors"} 0
	fpga_card_errors{card="0000:3b:00.0",fme="fpga-fme.0",source="pcie0_errors"} 2
	fpga_card_errors{card="0000:3b:00.0",fme="fpga-fme.0",source="pr_err"} 0
	# TYPE fpga_card_dma_read_bytes_total counter
	fpga_card_dma_read_bytes_total{card="0000:3b:00.0",fme="fpga-fme.0"} 1000
	# TYPE fpga_card_dma_write_bytes_total counter
	fpga_card_dma_write_bytes_total{card="0000:3b:00.0",fme="fpga-fme.0"} 1001
	# TYPE fpga_card_dma_read_lines_total counter
	fpga_card_dma_read_lines_total{card="0000:3b:00.0",fme="fpga-fme.0"} 1002
	# TYPE fpga_card_dma_write_lines_total counter
	fpga_card_dma_write_lines_total{card="0000:3b:00.0",fme="fpga-fme.0"} 1003
	# TYPE fpga_card_user_interrupts_total counter
	fpga_card_user_interrupts_total{card="0000:3b:00.0",fme="fpga-fme.0"} 1004
	# TYPE fpga_card_error_interrupts_total counter
	fpga_card_error_interrupts_total{card="0000:3b:00.0",fme="fpga-fme.0"} 1005
	# TYPE fpga_card_resets_total counter
	fpga_card_resets_total{card="0000:3b:00.0",fme="fpga-fme.0"} 1006
	# TYPE fpga_card_dma_faults_total counter
	fpga_card_dma_faults_total{card="0000:3b:00.0",fme="fpga-fme.0"} 1007
	# TYPE fpga_card_temperature_celsius gauge
	fpga_card_temperature_celsius{card="0000:3b:00.0",sensor="die \"hot\" \\ spot"} -1.25
	fpga_card_temperature_celsius{card="0000:3b:00.0",sensor="temp1"} 45.5
	fpga_card_temperature_celsius{card="f5a0:00:00.0",sensor="Board Temperature"} 45.5
	fpga_card_temperature_celsius{card="f5a0:00:00.0",sensor="FPGA Die Temperature"} 51
	fpga_card_temperature_celsius{card="fpga_sim8",sensor="temp1"} 38
	# TYPE fpga_card_power_watts gauge
	fpga_card_power_watts{card="0000:3b:00.0",sensor="power1"} 23
	fpga_card_power_watts{card="f5a0:00:00.0",sensor="Board Power"} 68.75
	# TYPE fpga_port_info gauge
	fpga_port_info{card="0000:3b:00.0",port="fpga-port.0",afu_id="d8424dc4a4a3c413f89e433683f9040b"} 1
	fpga_port_info{card="0000:3b:00.0",port="fpga-port.1",afu_id="00000000000000000000000000000001"} 1
	fpga_port_info{card="f5a0:00:00.0",port="fpga-port.2"} 1
	# TYPE fpga_port_errors gauge
	fpga_port_errors{card="0000:3b:00.0",port="fpga-port.0"} 0
	fpga_port_errors{card="0000:3b:00.0",port="fpga-port.1"} 65
	fpga_port_errors{card="f5a0:00:00.0",port="fpga-port.2"} 0
	# TYPE fpga_port_dma_read_bytes_total counter
	fpga_port_dma_read_bytes_total{card="0000:3b:00.0",port="fpga-port.0"} 100
	fpga_port_dma_read_bytes_total{card="0000:3b:00.0",port="fpga-port.1"} 200
	# TYPE fpga_port_dma_write_bytes_total counter
	fpga_port_dma_write_bytes_total{card="0000:3b:00.0",port="fpga-port.0"} 101
	fpga_port_dma_write_bytes_total{card="0000:3b:00.0",port="fpga-port.1"} 201
	# TYPE fpga_port_dma_read_lines_total counter
	fpga_port_dma_read_lines_total{card="0000:3b:00.0",port="fpga-port.0"} 102
	fpga_port_dma_read_lines_total{card="0000:3b:00.0",port="fpga-port.1"} 202
	# TYPE fpga_port_dma_write_lines_total counter
	fpga_port_dma_write_lines_total{card="0000:3b:00.0",port="fpga-port.0"} 103
	fpga_port_dma_write_lines_total{card="0000:3b:00.0",port="fpga-port.1"} 203
	# TYPE fpga_port_user_interrupts_total counter
	fpga_port_user_interrupts_total{card="0000:3b:00.0",port="fpga-port.0"} 104
	fpga_port_user_interrupts_total{card="0000:3b:00.0",port="fpga-port.1"} 204
	# TYPE fpga_port_error_interrupts_total counter
	fpga_port_error_interrupts_total{card="0000:3b:00.0",port="fpga-port.0"} 105
	fpga_port_error_interrupts_total{card="0000:3b:00.0",port="fpga-port.1"} 205
	# TYPE fpga_port_resets_total counter
	fpga_port_resets_total{card="0000:3b:00.0",port="fpga-port.0"} 106
	fpga_port_resets_total{card="0000:3b:00.0",port="fpga-port.1"} 206
	# TYPE fpga_port_dma_faults_total counter
	fpga_port_dma_faults_total{card="0000:3b:00.0",port="fpga-port.0"} 107
	fpga_port_dma_faults_total{card="0000:3b:00.0",port="fpga-port.1"} 18446744073709551615
	# TYPE fpga_port_open_files gauge
	fpga_port_open_files{card="0000:3b:00.0",port="fpga-port.0"} 2
	fpga_port_open_files{card="0000:3b:00.0",port="fpga-port.1"} 0
	fpga_port_open_files{card="f5a0:00:00.0",port="fpga-port.2"} 1
	# TYPE fpga_port_memory_pinned_bytes gauge
	fpga_port_memory_pinned_bytes{card="0000:3b:00.0",port="fpga-port.0"} 69632
	fpga_port_memory_pinned_bytes{card="0000:3b:00.0",port="fpga-port.1"} 0
	fpga_port_memory_pinned_bytes{card="f5a0:00:00.0",port="fpga-port.2"} 0
	# TYPE fpga_port_memory_mapped_bytes gauge
	fpga_port_memory_mapped_bytes{card="0000:3b:00.0",port="fpga-port.0"} 135168
	fpga_port_memory_mapped_bytes{card="0000:3b:00.0",port="fpga-port.1"} 0
	fpga_port_memory_mapped_bytes{card="f5a0:00:00.0",port="fpga-port.2"} 0
	EOF
	diff -u "$T/want" "$T/got" > "$T/diff" ||
		{ diag "$(cat "$T/diff")"; return 1; }
	# each family: one HELP, then its TYPE, then its samples
	awk '/^# HELP /{ if (seen[$3]++) exit 1; help = $3; next }
	     /^# TYPE /{ if ($3 != help) exit 1; fam = $3; next }
	     { n = $1; sub(/\{.*/, "", n); if (n != fam) exit 1 }' "$T/out" ||
		{ diag "HELP, TYPE and samples out of order"; show; return 1; }
}

# promtool (Debian's prometheus) finds nothing to complain about
t_fake_metrics_promtool()
{
	if ! command -v promtool > /dev/null; then
		WHY="no promtool (apt-get install prometheus)"
		return $KSFT_SKIP
	fi
	metrics || return 1
	promtool check metrics < "$T/out" > "$T/lint" 2>&1 ||
		{ diag "promtool: $(cat "$T/lint")"; return 1; }
	# and on no card at all
	expect 0 "" env FPGA_SYSFS_ROOT=$T/empty $FPGACTL metrics || return 1
	promtool check metrics < "$T/out" > "$T/lint" 2>&1 ||
		{ diag "promtool (no card): $(cat "$T/lint")"; return 1; }
}

# No card: no sample, nothing said, success
t_fake_metrics_empty()
{
	expect 0 "" env FPGA_SYSFS_ROOT=$T/empty FPGA_PROC_ROOT=$T/mproc \
		$FPGACTL metrics || return 1
	[ ! -s "$T/out" ] || { diag "stdout not empty"; show; return 1; }
	[ ! -s "$T/err" ] || { diag "stderr not empty"; show; return 1; }
}

# --output replaces the file by rename: a new inode, whole, mode 0644,
# nothing left beside it
t_fake_metrics_output()
{
	metrics || return 1
	cp "$T/out" "$T/stdout.prom"
	rm -rf "$T/textfile"
	mkdir "$T/textfile" || return 1
	echo "old content" > "$T/textfile/fpga.prom"
	old=$(stat -c %i "$T/textfile/fpga.prom")
	metrics --output "$T/textfile/fpga.prom" || return 1
	[ ! -s "$T/out" ] || { diag "--output also wrote stdout"; return 1; }
	cmp -s "$T/stdout.prom" "$T/textfile/fpga.prom" ||
		{ diag "the file differs from stdout"; return 1; }
	[ "$(stat -c %i "$T/textfile/fpga.prom")" != "$old" ] ||
		{ diag "written in place, not renamed over"; return 1; }
	[ "$(stat -c %a "$T/textfile/fpga.prom")" = 644 ] ||
		{ diag "mode $(stat -c %a "$T/textfile/fpga.prom"), not 644"; return 1; }
	[ "$(ls -A "$T/textfile")" = fpga.prom ] ||
		{ diag "left in the directory: $(ls -A "$T/textfile")"; return 1; }
	# -o, and a file in the current directory
	(cd "$T/textfile" && metrics -o new.prom) || return 1
	cmp -s "$T/stdout.prom" "$T/textfile/new.prom" ||
		{ diag "-o new.prom differs from stdout"; return 1; }
}

t_usage_metrics()
{
	usage "unknown option '--frob'" $FPGACTL metrics --frob || return 1
	usage "option --output needs a value" $FPGACTL metrics --output || return 1
	usage "option --output given twice" \
		$FPGACTL metrics -o "$T/a.prom" --output "$T/b.prom" || return 1
	usage "--output: empty file name" $FPGACTL metrics --output "" || return 1
	usage "--output: '$T/' is a directory" $FPGACTL metrics --output "$T/" || return 1
	usage "unexpected argument 'x'" $FPGACTL metrics x || return 1
	usage "metrics: the output is Prometheus' text format: no -j or -p" \
		$FPGACTL -j metrics || return 1
	[ ! -s "$T/out" ] || { diag "stdout not empty"; return 1; }
	expect 1 "cannot write $T/nowhere/fpga.prom: $T/nowhere: No such file or directory" \
		env FPGA_SYSFS_ROOT=$T/msys FPGA_PROC_ROOT=$T/mproc \
		$FPGACTL metrics --output "$T/nowhere/fpga.prom" || return 1
	mkdir -p "$T/isdir.prom"
	expect 1 "cannot replace $T/isdir.prom: Is a directory" \
		env FPGA_SYSFS_ROOT=$T/msys FPGA_PROC_ROOT=$T/mproc \
		$FPGACTL metrics --output "$T/isdir.prom" || return 1
	set -- "$T"/.isdir.prom.*
	[ ! -e "$1" ] && [ -z "$(ls -A "$T/isdir.prom")" ] ||
		{ diag "temporary file left"; return 1; }
}

# What cannot be read is left out, said, and makes the exit status 1;
# the rest is still written
t_fake_metrics_bad()
{
	errs=$T/msys/bus/fpga_dfl/devices/fpga-port.1/errors/errors
	echo zz > "$errs"
	cp -R "$T/mproc" "$T/mproc-bad"
	printf 'fpga-driver:\tfpga_port\nfpga-port:\tfpga-port.0\nfpga-resets:\tmany\n' \
		> "$T/mproc-bad/200/fdinfo/5"
	rm -f "$T/bad.prom"
	expect 1 "errors/errors: unexpected content 'zz'" \
		env FPGA_SYSFS_ROOT=$T/msys FPGA_PROC_ROOT=$T/mproc-bad \
		$FPGACTL metrics --output "$T/bad.prom"
	rc=$?
	echo 0x41 > "$errs"
	[ $rc = 0 ] || return 1
	grep -q "mproc-bad/200/fdinfo/5: fpga-resets: 'many' is not a decimal number: not counted" "$T/err" ||
		{ diag "the fdinfo is not named"; show; return 1; }
	cp "$T/bad.prom" "$T/out"
	out_has '^fpga_port_errors{card="0000:3b:00.0",port="fpga-port.0"} 0$' || return 1
	out_has '^fpga_port_info{card="0000:3b:00.0",port="fpga-port.1",' || return 1
	if grep -q 'fpga_port_errors{card="0000:3b:00.0",port="fpga-port.1"}' "$T/out"; then
		diag "what could not be read is shown"
		show
		return 1
	fi
	# the other files are counted: PID 100's of fpga-port.0, 300's
	out_has '^fpga_port_open_files{card="0000:3b:00.0",port="fpga-port.0"} 1$' || return 1
	out_has '^fpga_port_memory_pinned_bytes{card="0000:3b:00.0",port="fpga-port.0"} 65536$' || return 1
	out_has '^fpga_port_open_files{card="f5a0:00:00.0",port="fpga-port.2"} 1$'
}

# A port's fdinfo of 1500 lock: lines (75 KiB) is read whole: the same
# exposition as without them, nothing said
t_fake_metrics_locks()
{
	metrics || return 1
	cp "$T/out" "$T/plain.prom"
	rm -rf "$T/mproc-locks"
	cp -R "$T/mproc" "$T/mproc-locks"
	f=$T/mproc-locks/200/fdinfo/5
	{
		sed -n '/^fpga-/!p' "$T/mproc/200/fdinfo/5"
		lock_lines 1500
		sed -n '/^fpga-/p' "$T/mproc/200/fdinfo/5"
	} > "$f"
	[ "$(wc -c < "$f")" -gt 65536 ] || { diag "$f is not above 64 KiB"; return 1; }
	expect 0 "" env FPGA_SYSFS_ROOT=$T/msys FPGA_PROC_ROOT=$T/mproc-locks \
		$FPGACTL metrics || return 1
	[ ! -s "$T/err" ] || { diag "stderr not empty"; show; return 1; }
	diff -u "$T/plain.prom" "$T/out" > "$T/diff" ||
		{ diag "$(cat "$T/diff")"; return 1; }
}

# Not root: the counter bank (0400) is left out with one warning, the
# rest is there, the exit status is 0.  As root, tried as nobody.
t_fake_metrics_not_root()
{
	as=""
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv > /dev/null ||
			{ WHY="root, and no setpriv to drop it"; return $KSFT_SKIP; }
		as="setpriv --reuid=65534 --regid=65534 --clear-groups"
		chmod 0755 "$T"
		$as $FPGACTL -V > /dev/null 2>&1 ||
			{ WHY="nobody cannot run $FPGACTL"; return $KSFT_SKIP; }
	fi
	# root's in sysfs; here ours, which 0400 would not keep from us
	bank=$T/msys/bus/fpga_dfl/devices/fpga-fme.0/counters
	chmod 0 "$bank"/*
	expect 0 "fpga-fme.0/counters: Permission denied (the counter bank is root's): the fpga_\*_total counters are left out" \
		env FPGA_SYSFS_ROOT=$T/msys FPGA_PROC_ROOT=$T/mproc \
		$as $FPGACTL metrics
	rc=$?
	chmod 0400 "$bank"/*
	[ $rc = 0 ] || return 1
	[ "$(wc -l < "$T/err")" = 1 ] || { diag "not one warning"; show; return 1; }
	if grep -q "_total" "$T/out"; then
		diag "counters shown"
		show
		return 1
	fi
	out_has '^fpga_port_info{card="0000:3b:00.0",port="fpga-port.0",' || return 1
	out_has '^fpga_card_temperature_celsius{card="0000:3b:00.0",sensor="temp1"} 45.5$' || return 1
	# a directory one may not write to
	mkdir -p "$T/readonly"
	chmod 0555 "$T/readonly"
	expect 1 "cannot write $T/readonly/fpga.prom: $T/readonly: Permission denied" \
		env FPGA_SYSFS_ROOT=$T/msys FPGA_PROC_ROOT=$T/mproc \
		$as $FPGACTL metrics --output "$T/readonly/fpga.prom" || return 1
	[ -z "$(ls -A "$T/readonly")" ] || { diag "something left"; return 1; }
}

# ---- cdi: a CDI spec of the fake tree ----

# The CDI JSON schema Debian ships with the CDI library
# (golang-github-container-orchestrated-devices-container-device-interface-dev),
# under the module path of its version; CDI_SCHEMA_DIR overrides
cdi_schema_dir()
{
	if [ -n "$CDI_SCHEMA_DIR" ]; then
		echo "$CDI_SCHEMA_DIR"
		return
	fi
	f=$(find /usr/share/gocode -path '*container-device-interface/schema/schema.json' \
		2>/dev/null | sort | head -n 1)
	[ -n "$f" ] && dirname "$f"
}

# cdi_validate SCHEMA_DIR FILE: FILE is a CDI spec by the schema (whose
# devices refer to defs.json beside it: merged in here, so any
# jsonschema version resolves them), and its kind and device names are
# what CDI's parser takes.  Prints why not.
cdi_validate()
{
	python3 - "$1" "$2" <<-'EOF'
	import json, re, sys, jsonschema
	d, f = sys.argv[1], sys.argv[2]
	s = json.loads(open(d + "/schema.json").read().replace('"defs.json#', '"#'))
	s["definitions"] = json.load(open(d + "/defs.json"))["definitions"]
	spec = json.load(open(f))
	try:
	    jsonschema.validate(spec, s)
	except jsonschema.ValidationError as e:
	    sys.exit("schema: %s" % e.message)
	if not re.fullmatch(r"[a-z0-9]([a-z0-9.-]*[a-z0-9])?/[A-Za-z0-9]([A-Za-z0-9_.-]*[A-Za-z0-9])?", spec["kind"]):
	    sys.exit("bad kind %r" % spec["kind"])
	names = [x["name"] for x in spec["devices"]]
	for n in names:
	    # CDI's rule, without the ':' that podman's --device would split at
	    if not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9_.-]*[A-Za-z0-9])?", n):
	        sys.exit("bad device name %r" % n)
	if len(set(names)) != len(names):
	    sys.exit("device names repeat")
	EOF
}

# The metrics tree with fpga-port.2 bound to uio_fpga (uio4), and a /dev
# with some of the nodes: none of card 2's, no dfl-port.1, no fpga-port.2
fake_cdi()
{
	rm -rf "$T/csys" "$T/cdev"
	cp -R "$T/msys" "$T/csys" || return 1
	port2=$T/csys/devices/fpga_sim/fpga_sim7/fpga-port.2
	mkdir -p "$port2/uio/uio4" "$T/csys/bus/fpga_dfl/drivers/uio_fpga" "$T/cdev"
	ln -s ../../../../bus/fpga_dfl/drivers/uio_fpga "$port2/driver"
	for n in fpga-fme.0 dfl-fme.0 fpga-port.0 dfl-port.0 fpga-port.1 \
		 fpga-fme.1 dfl-fme.1 dfl-port.2 uio4 uio9; do
		: > "$T/cdev/$n"
	done
}

# cdi ARGS...: fpgactl cdi on the fake tree
cdi()
{
	expect 0 "" env FPGA_SYSFS_ROOT=$T/csys FPGA_DEV_ROOT=$T/cdev \
		$FPGACTL cdi "$@"
}

# json_norm FILE: FILE's JSON with sorted keys, one way of writing it
json_norm()
{
	python3 -c 'import json, sys; print(json.dumps(json.load(open(sys.argv[1])), indent=1, sort_keys=True))' "$1"
}

t_fake_cdi()
{
	cdi || return 1
	[ ! -s "$T/err" ] || { diag "stderr not empty"; show; return 1; }
	cat > "$T/want.json" <<-'EOF'
	{"cdiVersion": "0.5.0", "kind": "fpga-suite.org/port", "devices": [
	 {"name": "0000-3b-00.0", "containerEdits": {"deviceNodes": [
	   {"path": "/dev/fpga-fme.0", "permissions": "rw"},
	   {"path": "/dev/dfl-fme.0", "permissions": "rw"},
	   {"path": "/dev/fpga-port.0", "permissions": "rw"},
	   {"path": "/dev/dfl-port.0", "permissions": "rw"},
	   {"path": "/dev/fpga-port.1", "permissions": "rw"}]}},
	 {"name": "0000-3b-00.0-port0", "containerEdits": {
	   "env": ["FPGA_PORT=fpga-port.0"], "deviceNodes": [
	   {"path": "/dev/fpga-port.0", "permissions": "rw"},
	   {"path": "/dev/dfl-port.0", "permissions": "rw"}]}},
	 {"name": "0000-3b-00.0-port1", "containerEdits": {
	   "env": ["FPGA_PORT=fpga-port.1"], "deviceNodes": [
	   {"path": "/dev/fpga-port.1", "permissions": "rw"}]}},
	 {"name": "f5a0-00-00.0", "containerEdits": {"deviceNodes": [
	   {"path": "/dev/fpga-fme.1", "permissions": "rw"},
	   {"path": "/dev/dfl-fme.1", "permissions": "rw"},
	   {"path": "/dev/dfl-port.2", "permissions": "rw"},
	   {"path": "/dev/uio4", "permissions": "rw"}]}},
	 {"name": "f5a0-00-00.0-port0", "containerEdits": {
	   "env": ["FPGA_PORT=fpga-port.2"], "deviceNodes": [
	   {"path": "/dev/dfl-port.2", "permissions": "rw"},
	   {"path": "/dev/uio4", "permissions": "rw"}]}}]}
	EOF
	json_norm "$T/want.json" > "$T/want" || return 1
	json_norm "$T/out" > "$T/got" || { diag "not JSON"; show; return 1; }
	diff -u "$T/want" "$T/got" > "$T/diff" ||
		{ diag "$(cat "$T/diff")"; return 1; }
	# json-c escapes '/' unless told not to; runtimes read either, people not
	if grep -q '\\/' "$T/out"; then
		diag "escaped slashes"
		return 1
	fi
}

t_fake_cdi_schema()
{
	dir=$(cdi_schema_dir)
	if [ -z "$dir" ] || [ ! -f "$dir/schema.json" ]; then
		WHY="no CDI schema (apt-get install golang-github-container-orchestrated-devices-container-device-interface-dev)"
		return $KSFT_SKIP
	fi
	if ! python3 -c 'import jsonschema' 2> /dev/null; then
		WHY="no python3-jsonschema"
		return $KSFT_SKIP
	fi
	cdi || return 1
	cp "$T/out" "$T/spec.json"
	cdi_validate "$dir" "$T/spec.json" > "$T/lint" 2>&1 ||
		{ diag "$(cat "$T/lint")"; return 1; }
	# the check itself can fail: a device without containerEdits, a ':'
	sed 's/"containerEdits"/"edits"/' "$T/spec.json" > "$T/bad.json"
	if cdi_validate "$dir" "$T/bad.json" > /dev/null 2>&1; then
		diag "a spec without containerEdits passed"
		return 1
	fi
	sed 's/"0000-3b-00.0"/"0000:3b:00.0"/' "$T/spec.json" > "$T/bad.json"
	if cdi_validate "$dir" "$T/bad.json" > /dev/null 2>&1; then
		diag "a device name with ':' passed"
		return 1
	fi
}

# No port with a node: no spec; --output removes the file
t_fake_cdi_empty()
{
	expect 0 "no port has a device node: no spec written" \
		env FPGA_SYSFS_ROOT=$T/empty FPGA_DEV_ROOT=$T/cdev $FPGACTL cdi || return 1
	[ ! -s "$T/out" ] || { diag "stdout not empty"; show; return 1; }
	# ports, but without nodes (no driver): the same
	mkdir -p "$T/nodev"
	expect 0 "no spec written" env FPGA_SYSFS_ROOT=$T/csys \
		FPGA_DEV_ROOT=$T/nodev $FPGACTL cdi || return 1
	[ ! -s "$T/out" ] || { diag "stdout not empty"; show; return 1; }
	echo '{}' > "$T/old.json"
	expect 0 "$T/old.json removed" env FPGA_SYSFS_ROOT=$T/empty \
		$FPGACTL cdi --output "$T/old.json" || return 1
	[ ! -e "$T/old.json" ] || { diag "the file is still there"; return 1; }
	# and again, with no file: nothing to say
	expect 0 "" env FPGA_SYSFS_ROOT=$T/empty \
		$FPGACTL cdi --output "$T/old.json" || return 1
	[ ! -s "$T/err" ] || { diag "stderr not empty"; show; return 1; }
}

# --output replaces the file by rename: a new inode, whole, mode 0644,
# nothing left beside it
t_fake_cdi_output()
{
	cdi || return 1
	cp "$T/out" "$T/stdout.json"
	rm -rf "$T/cdi"
	mkdir "$T/cdi" || return 1
	echo "old content" > "$T/cdi/fpga-suite.json"
	old=$(stat -c %i "$T/cdi/fpga-suite.json")
	cdi --output "$T/cdi/fpga-suite.json" || return 1
	[ ! -s "$T/out" ] || { diag "--output also wrote stdout"; return 1; }
	cmp -s "$T/stdout.json" "$T/cdi/fpga-suite.json" ||
		{ diag "the file differs from stdout"; return 1; }
	[ "$(stat -c %i "$T/cdi/fpga-suite.json")" != "$old" ] ||
		{ diag "written in place, not renamed over"; return 1; }
	[ "$(stat -c %a "$T/cdi/fpga-suite.json")" = 644 ] ||
		{ diag "mode $(stat -c %a "$T/cdi/fpga-suite.json"), not 644"; return 1; }
	[ "$(ls -A "$T/cdi")" = fpga-suite.json ] ||
		{ diag "left in the directory: $(ls -A "$T/cdi")"; return 1; }
	(cd "$T/cdi" && cdi -o new.json) || return 1
	cmp -s "$T/stdout.json" "$T/cdi/new.json" ||
		{ diag "-o new.json differs from stdout"; return 1; }
}

t_usage_cdi()
{
	usage "unknown option '--frob'" $FPGACTL cdi --frob || return 1
	usage "option --output needs a value" $FPGACTL cdi --output || return 1
	usage "option --output given twice" \
		$FPGACTL cdi -o "$T/a.json" --output "$T/b.json" || return 1
	usage "--output: empty file name" $FPGACTL cdi --output "" || return 1
	usage "--output: '$T/' is a directory" $FPGACTL cdi --output "$T/" || return 1
	usage "unexpected argument 'x'" $FPGACTL cdi x || return 1
	usage "cdi: the output is a CDI spec, JSON already: no -j or -p" \
		$FPGACTL -j cdi || return 1
	[ ! -s "$T/out" ] || { diag "stdout not empty"; return 1; }
	expect 1 "cdi: cannot write $T/nowhere/fpga-suite.json: $T/nowhere: No such file or directory" \
		env FPGA_SYSFS_ROOT=$T/csys FPGA_DEV_ROOT=$T/cdev \
		$FPGACTL cdi --output "$T/nowhere/fpga-suite.json" || return 1
	mkdir -p "$T/isdir.json"
	expect 1 "cdi: cannot replace $T/isdir.json: Is a directory" \
		env FPGA_SYSFS_ROOT=$T/csys FPGA_DEV_ROOT=$T/cdev \
		$FPGACTL cdi --output "$T/isdir.json" || return 1
	set -- "$T"/.isdir.json.*
	[ ! -e "$1" ] && [ -z "$(ls -A "$T/isdir.json")" ] ||
		{ diag "temporary file left"; return 1; }
}

# A port whose number on the card cannot be read has no stable name: left
# out, said, exit status 1; the rest is written
t_fake_cdi_bad()
{
	id=$T/csys/bus/fpga_dfl/devices/fpga-port.1/id
	mv "$id" "$id.away"
	expect 1 "fpga-port.1/id: .*left out" env FPGA_SYSFS_ROOT=$T/csys \
		FPGA_DEV_ROOT=$T/cdev $FPGACTL cdi
	rc=$?
	mv "$id.away" "$id"
	[ $rc = 0 ] || return 1
	out_has '"0000-3b-00.0-port0"' || return 1
	if grep -q 'port1"\|fpga-port.1' "$T/out"; then
		diag "fpga-port.1 is in the spec"
		show
		return 1
	fi
}

# ---- end to end on a simulated card ----

# Load fpga_sim, create a card, and bind its ports to a driver (by their
# modalias, whatever module provides it).
setup_e2e()
{
	if [ -n "$FPGACTL_NO_E2E" ]; then
		no_e2e "FPGACTL_NO_E2E is set"
		return
	fi
	if [ "$(id -u)" != 0 ]; then
		no_e2e "needs root"
		return
	fi
	if [ ! -d /sys/module/fpga_sim ]; then
		if ! modprobe fpga_sim 2> "$T/err"; then
			no_e2e "cannot load fpga_sim: $(head -n 1 "$T/err")"
			return
		fi
		SIM_LOADED=1
	fi
	no_e2e "fpgactl sim add $SIM_ID 2 failed"
	run $FPGACTL -j sim add $SIM_ID 2
	SIM_ADD_RC=$RC
	cp "$T/out" "$T/sim_add.json"
	cp "$T/err" "$T/sim_add.err"
	[ "$RC" = 0 ] || return
	SIM_OK=1
	PORTS=$(sed -n 's/.*"ports":\[\([0-9,]*\)\].*/\1/p' "$T/sim_add.json" | tr , ' ')
	PORT=${PORTS%% *}

	WHY_NO_DRV="no /dev/fpga-port.N for card fpga_sim$SIM_ID (port driver not available)"
	WHY_NO_UIRQ=$WHY_NO_DRV
	[ -n "$PORT" ] || return
	# modprobe by alias; what it loaded is what /sys/module gained
	ls /sys/module > "$T/mods.before"
	for p in $PORTS; do
		dir=/sys/bus/fpga_dfl/devices/fpga-port.$p
		[ -e "$dir/driver" ] && continue
		alias=$(cat "$dir/modalias" 2>/dev/null) || continue
		modprobe "$alias" 2> "$T/err" ||
			diag "no driver for $alias: $(head -n 1 "$T/err")"
	done
	ls /sys/module > "$T/mods.after"
	DRV_MODULES=$(grep -vxF -f "$T/mods.before" "$T/mods.after" | tr "\n" " ")
	# device nodes appear asynchronously (devtmpfs); give them 5 s
	i=0
	while [ $i -lt 50 ]; do
		missing=""
		for p in $PORTS; do
			[ -c /dev/fpga-port.$p ] || missing=1
		done
		[ -z "$missing" ] && { DRV_OK=1; break; }
		sleep 0.1
		i=$((i + 1))
	done
	[ -n "$DRV_OK" ] && probe_afu
}

no_e2e()
{
	WHY_NO_SIM=$1
	WHY_NO_DRV=$1
	WHY_NO_UIRQ=$1
}

# User interrupts are a capability of the port: one that reports no
# vectors skips the interrupt tests, saying so.
probe_afu()
{
	run $FPGACTL -j info $PORT
	n=$(sed -n 's/.*"user_irqs":\([0-9]*\).*/\1/p' "$T/out")
	if [ -n "$n" ] && [ "$n" -gt 0 ]; then
		UIRQ_OK=1
	else
		WHY_NO_UIRQ="fpga-port.$PORT reports no user interrupt vectors"
	fi
}

t_sim_add()
{
	if [ "$SIM_ADD_RC" != 0 ]; then
		diag "sim add exited $SIM_ADD_RC: $(cat "$T/sim_add.err")"
		return 1
	fi
	grep -q "^{\"card\":\"fpga_sim$SIM_ID\",\"id\":$SIM_ID,\"board\":\"sim\",\"fme\":[0-9]*,\"ports\":\[[0-9]*,[0-9]*\]}$" \
		"$T/sim_add.json" || { diag "sim add printed $(cat "$T/sim_add.json")"; return 1; }
	for p in $PORTS; do
		[ -d /sys/bus/fpga_sim/devices/fpga_sim$SIM_ID/fpga-port.$p ] ||
			{ diag "fpga-port.$p is not on fpga_sim$SIM_ID"; return 1; }
	done
	expect 1 "card fpga_sim$SIM_ID exists already" $FPGACTL sim add $SIM_ID
}

# A card modelled on the N3000; a board fpga_sim does not know is the
# module's refusal, and no card
t_sim_board()
{
	BOARD_CARD=$((SIM_ID + 2))
	expect 0 "" $FPGACTL -j sim add $BOARD_CARD board n3000 || return 1
	out_has "^{\"card\":\"fpga_sim$BOARD_CARD\",\"id\":$BOARD_CARD,\"board\":\"n3000\",\"fme\":[0-9]*,\"ports\":\[[0-9]*\]}$" || return 1
	[ "$(cat /sys/bus/fpga_sim/devices/fpga_sim$BOARD_CARD/board)" = n3000 ] ||
		{ diag "the card's board is not n3000"; return 1; }
	# Its BMC's sensors in metrics (a kernel with SPI and hwmon has the BMC)
	if [ -d /sys/class/spi_master ] && [ -d /sys/class/hwmon ]; then
		need_fme || return 1
		bdf=$(basename "$(readlink -f /sys/bus/fpga_sim/devices/fpga_sim$BOARD_CARD/pci_function)")
		expect 0 "" $FPGACTL metrics || return 1
		out_has "^fpga_card_temperature_celsius{card=\"$bdf\",sensor=\"FPGA Die Temperature\"} [0-9]" || return 1
		out_has "^fpga_card_power_watts{card=\"$bdf\",sensor=\"Board Power\"} [0-9]" || return 1
	fi
	expect 0 "" $FPGACTL sim del $BOARD_CARD || return 1
	expect 1 "fpga_sim has no board 'n4000' (boards: sim, n3000" \
		$FPGACTL sim add $BOARD_CARD board n4000 || return 1
	[ ! -e /sys/bus/fpga_sim/devices/fpga_sim$BOARD_CARD ] ||
		{ diag "a card was made for board n4000"; return 1; }
	BOARD_CARD=""
}

t_list()
{
	expect 0 "" $FPGACTL list || return 1
	for p in $PORTS; do
		out_has "^fpga-port.$p: card [0-9]* (fpga_sim$SIM_ID)" || return 1
	done
	out_has "^fpga-fme.[0-9]*: card [0-9]* (fpga_sim$SIM_ID)" || return 1
	expect 0 "" $FPGACTL -j list || return 1
	out_has "{\"name\":\"fpga-port.$PORT\",\"type\":\"port\",\"id\":$PORT,\"card_id\":[0-9]*,\"card\":\"fpga_sim$SIM_ID\""
}

t_info()
{
	expect 0 "" $FPGACTL info $PORT || return 1
	out_has "^fpga-port.$PORT: dev /dev/fpga-port.$PORT" || return 1
	out_has " dma_isolation port, shared by all openers (O_EXCL: one user)" || return 1
	out_has "region 0 (afu): size 0x[0-9a-f]* offset 0x[0-9a-f]* flags read,write,mmap" || return 1
	expect 0 "" $FPGACTL -j info $PORT || return 1
	out_has "\"name\":\"fpga-port.$PORT\"" || return 1
	out_has '"api_version":0' || return 1
	out_has '"dma_shared_by":"all openers"' || return 1
	out_has '"regions":\[{"index":0,"name":"afu","size":"0x[0-9a-f]*","offset":"0x[0-9a-f]*","flags":\["read","write","mmap"\]}'
}

# The upstream names of the port (dfl-port.N, its node, its sysfs path)
# are the same port
t_upstream_names()
{
	dir=$(ls -d /sys/class/fpga_region/region*/dfl-port.$PORT 2>/dev/null)
	[ -n "$dir" ] || { diag "no region holds dfl-port.$PORT"; return 1; }
	for spec in dfl-port.$PORT /dev/dfl-port.$PORT "$dir"; do
		expect 0 "" $FPGACTL info "$spec" || return 1
		out_has "^fpga-port.$PORT: dev " || return 1
		expect 0 "" $FPGACTL mmio read "$spec" 0 || return 1
		out_has "^0x" || return 1
	done
	usage "'dfl-fme.0' is not a port" $FPGACTL reset dfl-fme.0
}

# ps shows a process that has the port open, with every key the port
# driver gives its fdinfo, on that port and no other
t_ps()
{
	# sleep holds the port open as its stdin
	# shellcheck disable=SC2217
	sleep 30 < /dev/fpga-port.$PORT &
	HOLDER=$!
	held t_ps_holder
}

# held FN: FN while $HOLDER runs, then $HOLDER ended; FN's status
held()
{
	"$1"
	rc=$?
	kill $HOLDER 2>/dev/null
	wait $HOLDER 2>/dev/null
	return $rc
}

t_ps_holder()
{
	# the shell opens the port, then becomes sleep
	i=0
	while [ "$(cat /proc/$HOLDER/comm 2>/dev/null)" != sleep ] &&
	      [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	grep -q "^fpga-driver:" /proc/$HOLDER/fdinfo/0 2>/dev/null || {
		diag "no fpga- keys in /proc/$HOLDER/fdinfo/0"
		return 1
	}
	expect 0 "" $FPGACTL ps $PORT || return 1
	out_has "^ *$HOLDER sleep  *0 fpga-port.$PORT  *[0-9]" || return 1
	expect 0 "" $FPGACTL -j ps /dev/fpga-port.$PORT || return 1
	out_has "{\"pid\":$HOLDER,\"comm\":\"sleep\",\"fd\":0,\"port\":\"fpga-port.$PORT\",\"client_id\":[0-9]*,\"memory_pinned_kib\":[0-9]*,\"memory_mapped_kib\":[0-9]*,\"interrupts\":[0-9]*,\"resets\":[0-9]*,\"afu_busy_ns\":[0-9]*}" || return 1
	for p in $PORTS; do
		[ "$p" = "$PORT" ] && continue
		expect 0 "" $FPGACTL -j ps $p || return 1
		if grep -q "\"pid\":$HOLDER," "$T/out"; then
			diag "ps $p shows fpga-port.$PORT's holder"
			return 1
		fi
	done
}

# A process that would blind root's ps and metrics: 150 locks on its
# own port descriptor (the kernel adds a lock: line for each to its
# fdinfo, before the port's keys) and a name of terminal escapes and a
# newline (written to /proc/self/comm: PR_SET_NAME's set_task_comm(),
# without ctypes, whose libffi the VM lacks).  ps lists it, escaped;
# metrics counts it.
t_ps_locker()
{
	rm -f "$T/locker"
	python3 - /dev/fpga-port.$PORT "$T/locker" <<-'EOF' &
	import fcntl, os, sys, time
	fd = os.open(sys.argv[1], os.O_RDWR)
	for k in range(150):
	    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 2 * k)
	with open("/proc/self/comm", "wb") as f:
	    f.write(b"\x1b[2Jx\x1b]0;y\x07\nz")
	with open(sys.argv[2] + ".tmp", "w") as f:
	    f.write("%d %d\n" % (os.getpid(), fd))
	os.rename(sys.argv[2] + ".tmp", sys.argv[2])
	time.sleep(60)
	EOF
	HOLDER=$!
	held t_ps_locker_held
}

t_ps_locker_held()
{
	i=0
	while [ ! -s "$T/locker" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	read -r pid fd < "$T/locker" || { diag "the locker did not start"; return 1; }
	size=$(wc -c < /proc/$pid/fdinfo/$fd)
	locks=$(grep -c "^lock:" /proc/$pid/fdinfo/$fd)
	[ "$locks" = 150 ] && [ "$size" -gt 4096 ] ||
		{ diag "fdinfo: $locks locks, $size bytes"; return 1; }
	expect 0 "" $FPGACTL ps $PORT || return 1
	[ ! -s "$T/err" ] || { diag "stderr not empty"; show; return 1; }
	out_has "^ *$pid "'\\x1b\[2Jx\\x1b]0;y\\x07\\nz  *'"$fd fpga-port\.$PORT " || return 1
	if grep -q "$(printf '\033')" "$T/out"; then
		diag "an escape character in ps's table"
		return 1
	fi
	expect 0 "" $FPGACTL -j ps $PORT || return 1
	out_has "{\"pid\":$pid,"'"comm":"\\u001b\[2Jx\\u001b\]0;y\\u0007\\nz",'"\"fd\":$fd," || return 1
	expect 0 "" $FPGACTL metrics || return 1
	[ "$(metric_of fpga_port_open_files)" = 1 ] ||
		{ diag "open files: '$(metric_of fpga_port_open_files)', not 1"; show; return 1; }
}

# metric_of NAME: the value of NAME's sample for fpga-port.$PORT in $T/out
metric_of()
{
	awk -v m="$1{" -v p="port=\"fpga-port.$PORT\"" \
		'index($0, m) == 1 && index($0, p) { print $NF }' "$T/out"
}

# metrics: the port with its AFU, its card's counter bank counting a DMA
# loopback, its open files while a process holds it
t_metrics()
{
	need_fme || return 1
	afu=$(cat /sys/bus/fpga_dfl/devices/fpga-port.$PORT/afu_id) || return 1
	expect 0 "" $FPGACTL metrics || return 1
	out_has "^fpga_port_info{card=\"[0-9a-f:.]*\",port=\"fpga-port.$PORT\",afu_id=\"$afu\"} 1$" || return 1
	out_has "^fpga_card_info{card=\"[0-9a-f]\{4\}:[0-9a-f]\{2\}:[0-9a-f]\{2\}\.[0-7]\",fme=\"fpga-fme\.[0-9]*\"" || return 1
	[ "$(metric_of fpga_port_open_files)" = 0 ] ||
		{ diag "open files: $(metric_of fpga_port_open_files), not 0"; return 1; }
	t_metrics_counters && t_metrics_open_files
}

t_metrics_counters()
{
	fme=$(ls -d /sys/bus/fpga_sim/devices/fpga_sim$SIM_ID/fpga-fme.* 2>/dev/null)
	[ -d "$fme/counters" ] ||
		{ diag "no ${fme##*/}/counters/ (the kernel side of the counter bank)"; return 1; }
	before=$(metric_of fpga_port_dma_read_bytes_total)
	[ -n "$before" ] || { diag "no fpga_port_dma_read_bytes_total"; show; return 1; }
	loopback 1M 1048576 || return 1
	expect 0 "" $FPGACTL metrics || return 1
	after=$(metric_of fpga_port_dma_read_bytes_total)
	[ -n "$after" ] && [ $((after - before)) -ge 1048576 ] ||
		{ diag "dma_read_bytes went from $before to $after"; return 1; }
}

t_metrics_open_files()
{
	# shellcheck disable=SC2217
	sleep 30 < /dev/fpga-port.$PORT &
	HOLDER=$!
	i=0
	while [ "$(cat /proc/$HOLDER/comm 2>/dev/null)" != sleep ] &&
	      [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	expect 0 "" $FPGACTL metrics
	rc=$?
	kill $HOLDER 2>/dev/null
	wait $HOLDER 2>/dev/null
	[ $rc = 0 ] || return 1
	[ "$(metric_of fpga_port_open_files)" = 1 ] ||
		{ diag "open files: '$(metric_of fpga_port_open_files)', not 1"; show; return 1; }
}

t_reset()
{
	expect 0 "" $FPGACTL reset $PORT || return 1
	[ ! -s "$T/out" ] || { diag "reset printed something"; return 1; }
	expect 0 "" $FPGACTL reset /dev/fpga-port.$PORT
}

t_mmio_dfh()
{
	expect 0 "" $FPGACTL mmio read $PORT 0 || return 1
	# AFU DFH: type (bits 63:60) is 1
	out_has "^0x1[0-9a-f]\{15\}$" || return 1
	v=$(cat "$T/out")
	# the same register through every way of naming the port
	for spec in fpga-port.$PORT /dev/fpga-port.$PORT \
		    /sys/bus/fpga_dfl/devices/fpga-port.$PORT; do
		expect 0 "" $FPGACTL mmio read $spec 0 || return 1
		[ "$(cat "$T/out")" = "$v" ] || { diag "$spec read $(cat "$T/out")"; return 1; }
	done
	expect 0 "" $FPGACTL -j mmio read $PORT 0 || return 1
	out_has "^{\"offset\":\"0x0\",\"width\":64,\"value\":\"$v\"}$" || return 1
	# the high half of the DFH, 32 bits wide
	expect 0 "" $FPGACTL mmio read $PORT 4 --width 32 || return 1
	out_has "^0x1[0-9a-f]\{7\}$" || return 1
	expect 0 "" $FPGACTL mmio dump $PORT 0+0x40 || return 1
	out_has "^0x00000000: ${v#0x} " || return 1
	[ "$(wc -l < "$T/out")" -eq 2 ]
}

t_mmio_bounds()
{
	expect 1 "offset 0x10000000 is outside region 0 (size 0x[0-9a-f]*)" \
		$FPGACTL mmio read $PORT 0x10000000 || return 1
	expect 1 "outside region 0" $FPGACTL mmio write $PORT 0x10000000 0 || return 1
	expect 1 "outside region 0" $FPGACTL mmio dump $PORT 0x10000000
}

# NLB0 scratch-free check: a written CSR reads back
t_mmio_write()
{
	expect 0 "" $FPGACTL mmio write $PORT 0x130 0x1234 --width 32 || return 1
	expect 0 "" $FPGACTL mmio read $PORT 0x130 --width 32 || return 1
	out_has "^0x00001234$"
}

loopback()
{
	expect 0 "" $FPGACTL dma loopback $PORT --size $1 --timeout 10000 || return 1
	out_has "^loopback $2 bytes: verified, " || return 1
}

t_dma_64() { loopback 64 64; }
t_dma_4k() { loopback 4K 4096; }
t_dma_1m() { loopback 1M 1048576; }
t_dma_64m()
{
	expect 0 "" $FPGACTL -j dma loopback $PORT --size 64M --timeout 60000 || return 1
	out_has '^{"bytes":67108864,"verified":true,"seconds":[0-9.e+-]*,"gbps":[0-9.e+-]*,"clocks":[0-9]*}$' || return 1
	diag "64 MiB: $(cat "$T/out")"
}

t_errors()
{
	expect 0 "" $FPGACTL errors $PORT || return 1
	out_has "^errors 0x0$" || return 1
	expect 0 "" $FPGACTL -j errors $PORT --clear || return 1
	out_has '^{"errors":"0x0","decoded":\[\],"first_error":"0x[0-9a-f]*","first_malformed_req":"0x[0-9a-f]*","cleared":"0x0"}$'
}

# list from the netlink dump and from sysfs: the same, text and JSON
t_list_netlink()
{
	for j in "" -j; do
		expect 0 "" $FPGACTL $j list || return 1
		cp "$T/out" "$T/list.nl"
		expect 0 "" env FPGA_NO_NETLINK=1 $FPGACTL $j list || return 1
		if ! cmp -s "$T/out" "$T/list.nl"; then
			diag "netlink: $(cat "$T/list.nl")"
			diag "sysfs:   $(cat "$T/out")"
			return 1
		fi
	done
}

# monitor ARGS...: run it while the port is reset until it ends
monitor_resets()
{
	done_file=$T/mon.done
	rm -f "$done_file"
	# Reset until the monitor is done: it may not listen yet at first
	(
		i=0
		while [ ! -e "$done_file" ] && [ $i -lt 100 ]; do
			$FPGACTL reset $PORT > /dev/null 2>&1
			sleep 0.1
			i=$((i + 1))
		done
	) &
	ringer=$!
	expect 0 "" $FPGACTL monitor "$@"
	rc=$?
	touch "$done_file"
	wait $ringer
	return $rc
}

t_monitor()
{
	monitor_resets --count 3 --timeout 20 || return 1
	[ "$(wc -l < "$T/out")" -eq 3 ] || { diag "not 3 lines"; show; return 1; }
	out_has "^\[[0-9T:.-]*\] reset-begin fpga-port.$PORT card [0-9]*$" || return 1
	out_has "^\[[0-9T:.-]*\] reset-end fpga-port.$PORT card [0-9]* result 0$" || return 1
	monitor_resets --json --count 2 --timeout 20 || return 1
	out_has "^{\"time\":\"[0-9T:.-]*\",\"event\":\"reset-[a-z]*\",\"dev\":\"fpga-port.$PORT\",\"card_id\":[0-9]*" || return 1
	# Nothing happens: --timeout ends it, quietly
	expect 0 "" $FPGACTL monitor --timeout 1 || return 1
	[ ! -s "$T/out" ] || { diag "monitor printed something"; show; return 1; }
	monitor_signal TERM 0x4000 && monitor_signal INT 0x2
}

# monitor_signal SIG MASK: SIG (its bit in SigCgt is MASK) ends it with 0
monitor_signal()
{
	$FPGACTL monitor --timeout 60 > "$T/out" 2> "$T/err" &
	pid=$!
	i=0
	# Wait until it handles the signal: no race with its sigaction()
	# (a loaded emulator once took more than 10 s to get there)
	while [ $i -lt 600 ]; do
		cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$pid/status 2>/dev/null)
		[ -n "$cgt" ] && [ $((0x$cgt & $2)) != 0 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	[ $i -lt 600 ] || {
		diag "monitor did not handle SIG$1 within 60 s"
		kill -KILL $pid
		wait $pid
		return 1
	}
	kill -$1 $pid
	wait $pid
	rc=$?
	[ $rc = 0 ] || { diag "monitor exited $rc on SIG$1"; show; return 1; }
}

t_irq_doorbell()
{
	done_file=$T/irq.done
	rm -f "$done_file"
	# Ring until the waiter is done: the first ring may come before it
	# has bound its eventfd.
	(
		i=0
		while [ ! -e "$done_file" ] && [ $i -lt 100 ]; do
			$FPGACTL mmio write $PORT $NLB_DOORBELL 1 > /dev/null 2>&1
			sleep 0.1
			i=$((i + 1))
		done
	) &
	ringer=$!
	expect 0 "" $FPGACTL -j irq wait $PORT --vector 0 --timeout 10000
	rc=$?
	touch "$done_file"
	wait $ringer
	[ $rc = 0 ] || return 1
	out_has '^{"vector":0,"count":[1-9][0-9]*}$'
}

t_irq_timeout()
{
	expect 1 "no interrupt on vector 0 of /dev/fpga-port.$PORT within 200 ms" \
		$FPGACTL irq wait $PORT --timeout 200 || return 1
	expect 1 "no user interrupt vector 4095" \
		$FPGACTL irq wait $PORT --vector 4095 --timeout 200
}

# The FME driver brings the PMU
need_fme()
{
	[ -d /sys/module/fpga_fme ] && return 0
	modprobe fpga_fme 2> "$T/err" || { show; return 1; }
	DRV_MODULES="fpga_fme $DRV_MODULES"
}

t_perf_port()
{
	need_fme || return 1
	expect 0 "" $FPGACTL -j perf $PORT -- \
		$FPGACTL dma loopback $PORT --size 1M || return 1
	out_has '"dma_rd_bytes":1048576,' || return 1
	out_has '"dma_wr_lines":16384,' || return 1
	out_has '"dma_faults":0' || return 1
	# The simulated card counts the AFU's busy clocks: a run has some
	out_has '"afu_busy_clocks":[1-9]' || return 1
	# COMMAND's failure is perf's
	expect 1 "false: exited with 1" $FPGACTL perf $PORT -- false || return 1
	expect 1 "No such file" $FPGACTL perf $PORT -- /nonexistent
}

t_perf_card()
{
	need_fme || return 1
	for d in /sys/bus/fpga_sim/devices/fpga_sim$SIM_ID/fpga-fme.*; do
		fme=${d##*/}
	done
	# Long enough for the model's clock to tick on a slow kernel; the
	# time shown is at least the time asked
	expect 0 "" $FPGACTL perf "$fme" --time 500 || return 1
	out_has "^fpga_pmu_${fme#fpga-fme.} (card ${fme#fpga-fme.}), [0-9]*\.[0-9][0-9][0-9] s:$" || return 1
	secs=$(sed -n 's/^fpga_pmu_.*, \([0-9.]*\) s:$/\1/p' "$T/out")
	awk -v s="$secs" 'BEGIN { exit !(s >= 0.5) }' ||
		{ diag "counted for $secs s, asked 0.5"; return 1; }
	out_has "^ *[1-9][0-9]*  *clock$" || return 1
	out_has "^ *[0-9][0-9]* bytes  *dma_rd_bytes$"
}

# cdi_port_check PORTS [ID]: $T/out (a CDI spec) has a device for each
# port of PORTS, of card fpga_simID (default $SIM_ID), named CARD-portP
# (CARD its card's PCI address, ':' as '-'; P its id), with its nodes and
# FPGA_PORT; the names go to $T/cdi.names
cdi_port_check()
{
	sim=${2:-$SIM_ID}
	: > "$T/cdi.names"
	for p in $1; do
		dir=/sys/bus/fpga_dfl/devices/fpga-port.$p
		id=$(cat "$dir/id") || return 1
		card=$(basename "$(readlink -f "/sys/bus/fpga_sim/devices/fpga_sim$sim/pci_function")" | tr : -)
		[ "$card" = pci_function ] && card=fpga_sim$sim
		nodes=/dev/fpga-port.$p
		[ -c /dev/dfl-port.$p ] && nodes="$nodes /dev/dfl-port.$p"
		python3 - "$T/out" "$card-port$id" "fpga-port.$p" $nodes <<-'EOF' ||
		import json, sys
		f, name, port, nodes = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
		devs = [d for d in json.load(open(f))["devices"]
		        if "FPGA_PORT=" + port in d["containerEdits"].get("env", [])]
		if len(devs) != 1:
		    sys.exit("%d devices have FPGA_PORT=%s" % (len(devs), port))
		d = devs[0]
		if d["name"] != name:
		    sys.exit("%s is %r, not %r" % (port, d["name"], name))
		got = [n["path"] for n in d["containerEdits"]["deviceNodes"]]
		if got != nodes or d["containerEdits"]["env"] != ["FPGA_PORT=" + port]:
		    sys.exit("%s: %r, env %r" % (name, got, d["containerEdits"]["env"]))
		EOF
		{ show; return 1; }
		echo "$card-port$id" >> "$T/cdi.names"
	done
}

# sim_add_wait ID: a card of 2 ports whose nodes are there; its ports
# into SIM_PORTS
sim_add_wait()
{
	run $FPGACTL -j sim add "$1" 2
	[ "$RC" = 0 ] || { show; return 1; }
	SIM_PORTS=$(sed -n 's/.*"ports":\[\([0-9,]*\)\].*/\1/p' "$T/out" | tr , ' ')
	i=0
	for p in $SIM_PORTS; do
		while [ ! -c /dev/fpga-port.$p ] && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		[ -c /dev/fpga-port.$p ] || { diag "no /dev/fpga-port.$p"; return 1; }
	done
	# its PCI function comes from a work item (x86 only: none elsewhere)
	while [ ! -e /sys/bus/fpga_sim/devices/fpga_sim$1/pci_function ] &&
	      [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# cdi: a device for each port of the card; the names are the card's
# address and the port's number on it, not fpga-port.N: the card made
# again after another card took its place (and its port numbers) gets
# names after its new address with the same -portP, the other card the
# old address, and removing the other card changes none of ours
t_cdi()
{
	expect 0 "" $FPGACTL cdi || return 1
	cdi_port_check "$PORTS" || return 1
	cp "$T/cdi.names" "$T/cdi.names.0"
	old_ports=$PORTS
	CDI_OTHER=$((SIM_ID + 1))
	expect 0 "" $FPGACTL sim del $SIM_ID || return 1
	SIM_OK=""
	sim_add_wait $CDI_OTHER || return 1
	OTHER_PORTS=$SIM_PORTS
	SIM_OK=1		# for cleanup, whatever comes
	sim_add_wait $SIM_ID || return 1
	PORTS=$SIM_PORTS
	PORT=${PORTS%% *}
	# the other card holds our old numbers: this is a renumbering
	[ "$PORTS" != "$old_ports" ] ||
		{ diag "fpga-port.N not renumbered ($PORTS)"; return 1; }
	expect 0 "" $FPGACTL cdi || return 1
	cdi_port_check "$OTHER_PORTS" $CDI_OTHER || return 1
	cdi_port_check "$PORTS" || return 1
	cp "$T/cdi.names" "$T/cdi.names.1"
	# the same -port0, -port1 as before, whatever N the ports have now
	sed 's/.*-port/-port/' "$T/cdi.names.0" > "$T/a"
	sed 's/.*-port/-port/' "$T/cdi.names.1" > "$T/b"
	cmp -s "$T/a" "$T/b" || { diag "$(cat "$T/cdi.names.0") became $(cat "$T/cdi.names.1")"; return 1; }
	expect 0 "" $FPGACTL sim del $CDI_OTHER || return 1
	CDI_OTHER=""
	expect 0 "" $FPGACTL cdi || return 1
	cdi_port_check "$PORTS" || return 1
	cmp -s "$T/cdi.names.1" "$T/cdi.names" ||
		{ diag "removing another card renamed $(cat "$T/cdi.names.1") to $(cat "$T/cdi.names")"; return 1; }
	for p in $OTHER_PORTS; do
		if grep -q "FPGA_PORT=fpga-port.$p\"" "$T/out"; then
			diag "the removed card's fpga-port.$p is still in the spec"
			return 1
		fi
	done
}

t_sim_del()
{
	expect 0 "" $FPGACTL sim del $SIM_ID || return 1
	SIM_OK=""
	[ ! -e /sys/bus/fpga_sim/devices/fpga_sim$SIM_ID ] || return 1
	expect 0 "" $FPGACTL list || return 1
	if grep -q "fpga_sim$SIM_ID" "$T/out"; then
		diag "list still shows the card"
		return 1
	fi
	expect 1 "no card fpga_sim$SIM_ID" $FPGACTL sim del $SIM_ID
}

all_tests()
{
	t "help lists every command" t_help
	t "help at every level" t_help_levels
	t "unknown commands and options are usage errors" t_usage_commands
	t "missing arguments are usage errors" t_usage_missing
	t "bad numbers, widths and alignment are usage errors" t_usage_numbers
	t "bad and missing ports" t_usage_ports
	t "perf rejects bad arguments" t_usage_perf
	t "trace rejects bad arguments" t_usage_trace
	t "trace without tracefs or without the fpga events fails" t_fake_trace
	t "sim add and del reject bad arguments" t_usage_sim
	t "ps rejects bad arguments" t_usage_ps
	[ -z "$COUNT_ONLY" ] && fake_sysfs
	t "list from sysfs alone, text and JSON" t_fake_list
	t "list without an fpga_dfl bus" t_fake_list_empty
	t "errors from sysfs" t_fake_errors
	t "sim add and del write new_device and del_device" t_fake_sim
	t "perf without the PMU fails" t_fake_perf
	[ -z "$COUNT_ONLY" ] && fake_proc
	t "ps from a fake /proc: sorted table, PORT, JSON" t_fake_ps
	t "ps without port files: the header alone, []" t_fake_ps_empty
	t "ps leaves out a malformed or unreadable fdinfo, says so, exits 1; fails without /proc" t_fake_ps_bad
	t "ps reads a 75 KiB fdinfo of lock: lines" t_fake_ps_locks
	t "ps prints a name of terminal escapes escaped" t_fake_ps_escapes
	t "metrics rejects bad arguments and unwritable files" t_usage_metrics
	[ -z "$COUNT_ONLY" ] && fake_metrics
	t "metrics from a fake tree: every family, exact samples" t_fake_metrics
	t "metrics passes promtool check metrics" t_fake_metrics_promtool
	t "metrics without cards: no samples, exit 0" t_fake_metrics_empty
	t "metrics --output replaces the file atomically" t_fake_metrics_output
	t "metrics not as root: counters left out with one warning" t_fake_metrics_not_root
	t "metrics leaves out what it cannot read, says so, exits 1" t_fake_metrics_bad
	t "metrics reads a 75 KiB fdinfo of lock: lines" t_fake_metrics_locks
	[ -z "$COUNT_ONLY" ] && fake_cdi
	t "cdi rejects bad arguments and unwritable files" t_usage_cdi
	t "cdi from a fake tree: exactly the cards' and ports' devices" t_fake_cdi
	t "cdi passes the CDI JSON schema" t_fake_cdi_schema
	t "cdi without a port with a node: no spec, the file removed" t_fake_cdi_empty
	t "cdi --output replaces the file atomically" t_fake_cdi_output
	t "cdi leaves out a port without its number, says so, exits 1" t_fake_cdi_bad

	[ -z "$COUNT_ONLY" ] && setup_e2e
	t "e2e: sim add creates a card with 2 ports" needs sim t_sim_add
	t "e2e: list shows the card's FME and ports" needs sim t_list
	t "e2e: sim add board n3000; an unknown board refused" needs sim t_sim_board
	t "e2e: info" needs drv t_info
	t "e2e: the upstream names dfl-port.N, its node and path" needs drv t_upstream_names
	t "e2e: ps shows a process that has the port open" needs drv t_ps
	t "e2e: ps and metrics see a process with 150 locks on its port and a name of escapes" needs drv t_ps_locker
	t "e2e: metrics: the port, its counters after a DMA, its open files" needs drv t_metrics
	t "e2e: reset" needs drv t_reset
	t "e2e: mmio read of the AFU DFH" needs drv t_mmio_dfh
	t "e2e: mmio outside region 0 fails" needs drv t_mmio_bounds
	t "e2e: mmio write reads back" needs drv t_mmio_write
	t "e2e: dma loopback 64 B" needs drv t_dma_64
	t "e2e: dma loopback 4 KiB" needs drv t_dma_4k
	t "e2e: dma loopback 1 MiB" needs drv t_dma_1m
	t "e2e: dma loopback 64 MiB (JSON)" needs drv t_dma_64m
	t "e2e: errors and --clear" needs drv t_errors
	t "e2e: perf PORT -- dma loopback counts exactly (JSON)" needs drv t_perf_port
	t "e2e: perf CARD --time counts the card's clock" needs drv t_perf_card
	t "e2e: list through netlink equals list through sysfs" needs drv t_list_netlink
	t "e2e: monitor prints reset events (text, JSON, timeout, signals)" needs drv t_monitor
	t "e2e: irq wait sees a doorbell interrupt" needs uirq t_irq_doorbell
	t "e2e: irq wait times out" needs uirq t_irq_timeout
	t "e2e: cdi: a device per port; names survive renumbering" needs drv t_cdi
	t "e2e: sim del removes the card" needs sim t_sim_del
}

ktap_run all_tests
ktap_done
