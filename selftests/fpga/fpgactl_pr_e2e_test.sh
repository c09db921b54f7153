#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fpgactl gbs and pr end to end on a simulated card, in the VM (the
# command lines alone, with no card: fpgactl_pr_test.sh): a GBS made by
# fpgactl loaded through the FME, the port back with its AFU, a GBS for
# another interface refused by fpgactl (and with force, by the card, whose
# pr_err fpgactl decodes), info on the FME, and the same through netlink's
# PORT_PROGRAM.  Prints KTAP.
#
# Environment:
#   FPGACTL   the command to test (default: fpgactl from PATH)
#
# Exit status: 0 all passed (some may be skipped), 1 a test failed,
# 4 nothing ran.

FPGACTL=${FPGACTL:-fpgactl}
T=$(mktemp -d) || exit 1
. "$(dirname "$0")/fpgactl_lib.sh"
SIM_ID=$((6000 + $$ % 1000))
SIM_OK=""
E2E_OK=""
WHY_NO_E2E="not set up"
FME=""
PORT=""
NLB0=d8424dc4-a4a3-c413-f89e-433683f9040b
OTHER=5b974f33-1a2b-49ff-ab36-c38ef191463b

cleanup()
{
	[ -n "$SIM_OK" ] && echo "$SIM_ID" > /sys/bus/fpga_sim/del_device 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

why_not()
{
	[ -z "$E2E_OK" ] && echo "$WHY_NO_E2E"
}

setup_e2e()
{
	if ! modprobe fpga_sim 2>/dev/null || ! modprobe fpga_port 2>/dev/null ||
	   ! modprobe fpga_fme 2>/dev/null; then
		WHY_NO_E2E="cannot load fpga_sim, fpga_port and fpga_fme"
		return
	fi
	if ! echo "$SIM_ID 2" > /sys/bus/fpga_sim/new_device; then
		WHY_NO_E2E="cannot create a simulated card"
		return
	fi
	SIM_OK=1
	d=/sys/bus/fpga_sim/devices/fpga_sim$SIM_ID
	FME=$(ls "$d" | sed -n 's/^fpga-fme\.//p' | head -n 1)
	PORT=$(ls "$d" | sed -n 's/^fpga-port\.//p' | sort -n | head -n 1)
	if [ -z "$FME" ] || [ -z "$PORT" ]; then
		WHY_NO_E2E="no FME or port device"
		return
	fi
	$FPGACTL gbs make afu nlb0 out "$T/nlb0.gbs" > /dev/null &&
		$FPGACTL gbs make afu nlb0 interface $OTHER out "$T/other.gbs" > /dev/null || {
		WHY_NO_E2E="fpgactl gbs make failed"
		return
	}
	E2E_OK=1
}

t_info_fme()
{
	expect 0 "" $FPGACTL info fpga-fme.$FME || return 1
	out_has "b2d602a3-7779-44af-a0e4-4ea57c9c6a0e\|b2d602a3777944afa0e44ea57c9c6a0e"
}

t_pr()
{
	expect 0 "" $FPGACTL pr fpga-fme.$FME "$T/nlb0.gbs" || return 1
	out_has "fpga-port\.$PORT" || return 1
	out_has "d8424dc4" || return 1
	# The port is back under its name, and works
	[ "$(cat /sys/bus/fpga_dfl/devices/fpga-port.$PORT/afu_id)" = \
	  "$(echo $NLB0 | tr -d -)" ] || { echo "# afu_id"; return 1; }
	expect 0 "" $FPGACTL dma loopback $PORT --size 64K --timeout 20000 || return 1
	out_has "verified"
}

t_pr_port1()
{
	expect 0 "" $FPGACTL -j pr fpga-fme.$FME "$T/nlb0.gbs" port 1 || return 1
	out_has '"afu_id"'
}

t_other_interface()
{
	# fpgactl refuses, as fpgaconf does, before the card is asked
	expect 1 "is built for PR interface" \
		$FPGACTL pr fpga-fme.$FME "$T/other.gbs" || return 1
	[ "$(cat /sys/bus/fpga_dfl/devices/fpga-fme.$FME/errors/pr_err)" = 0x0 ] ||
		{ echo "# the card was asked"; return 1; }
	# forced, the card refuses it: incompatible bitstream
	expect 1 "PR incompatible bitstream" \
		$FPGACTL pr fpga-fme.$FME "$T/other.gbs" force || return 1
	[ "$(cat /sys/bus/fpga_dfl/devices/fpga-fme.$FME/errors/pr_err)" = 0x4 ] ||
		{ echo "# pr_err"; return 1; }
	# and the port keeps its AFU
	expect 0 "" $FPGACTL dma loopback $PORT --size 4K --timeout 20000
}

t_usage()
{
	usage "missing argument" $FPGACTL pr || return 1
	expect 1 "" $FPGACTL pr fpga-fme.$FME "$T/no-such-file" || return 1
	expect 1 "" $FPGACTL pr fpga-fme.$FME "$T/nlb0.gbs" port 9
}

all_tests()
{
	[ -z "$COUNT_ONLY" ] && setup_e2e
	t "e2e: info on an FME shows its interface id" needs e2e t_info_fme
	t "e2e: pr a GBS into port 0: back, nlb0, copies" needs e2e t_pr
	t "e2e: pr into port 1, JSON" needs e2e t_pr_port1
	t "e2e: another interface: refused by fpgactl, then by the card" needs e2e t_other_interface
	t "e2e: pr usage and bad files" needs e2e t_usage
}

ktap_run all_tests
ktap_done
