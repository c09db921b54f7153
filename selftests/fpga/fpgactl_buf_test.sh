#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fpgactl buf and dma loopback --alloc vgem: the command line (usage
# errors, help) with no hardware, then end to end with vgem_ext, Debian's
# vgem and a simulated card.  Prints KTAP.
#
# Environment:
#   FPGACTL         the command to test (default: fpgactl from PATH); may
#                   carry a wrapper, e.g. "valgrind -q --error-exitcode=99 .."
#   FPGACTL_NO_E2E  set: skip everything that needs root and the modules
#
# Exit status: 0 all passed (some may be skipped), 1 a test failed,
# 4 nothing ran.

FPGACTL=${FPGACTL:-fpgactl}
T=$(mktemp -d) || exit 1
. "$(dirname "$0")/fpgactl_lib.sh"
SIM_ID=$((5000 + $$ % 1000))
SIM_OK=""
E2E_OK=""
WHY_NO_E2E="not set up"
PORT=""

cleanup()
{
	[ -n "$SIM_OK" ] && echo "$SIM_ID" > /sys/bus/fpga_sim/del_device 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# why_not e2e: why the end-to-end tests cannot run, for needs
why_not()
{
	[ -z "$E2E_OK" ] && echo "$WHY_NO_E2E"
}

# ---- no hardware ----

t_help()
{
	expect 0 "" $FPGACTL --help || return 1
	out_has "fpgactl .*buf create" || return 1
	expect 0 "" $FPGACTL buf help || return 1
	for v in list create export import info; do
		out_has "fpgactl .*buf $v" || return 1
	done
	for v in list create export import info; do
		expect 0 "" $FPGACTL buf $v --help || return 1
		out_has "^Usage: fpgactl .*buf $v" || return 1
	done
	expect 0 "" $FPGACTL dma loopback --help || return 1
	out_has "alloc anon|vgem"
}

t_usage()
{
	usage "missing argument" $FPGACTL buf create || return 1
	usage "SIZE: 'lots' is not a number" $FPGACTL buf create lots || return 1
	usage "unknown option '--frob'" $FPGACTL buf create 4K --frob || return 1
	usage "unexpected argument" $FPGACTL buf list extra || return 1
	usage "no command after '--'" $FPGACTL buf export 4K || return 1
	usage "no command after '--'" $FPGACTL buf export 4K -- || return 1
	usage "give either FD or --vgem SIZE" $FPGACTL buf import || return 1
	usage "give either FD or --vgem SIZE" $FPGACTL buf import 3 --vgem 4K || return 1
	usage "FD: 'x' is not a number" $FPGACTL buf import x || return 1
	usage "--alloc heap: anon or vgem" \
		$FPGACTL dma loopback 0 --size 4K --alloc heap || return 1
	usage "--wc needs --alloc vgem" $FPGACTL dma loopback 0 --size 4K --wc
}

t_no_device()
{
	[ -e /sys/module/vgem_ext ] && return 0
	expect 1 "no DRM device of driver vgem_ext" $FPGACTL buf list
}

# ---- end to end ----

setup_e2e()
{
	if [ -n "${FPGACTL_NO_E2E:-}" ]; then
		WHY_NO_E2E="FPGACTL_NO_E2E is set"
		return
	fi
	if ! modprobe vgem_ext 2>/dev/null || ! modprobe vgem 2>/dev/null ||
	   ! modprobe fpga_sim 2>/dev/null || ! modprobe fpga_port 2>/dev/null; then
		WHY_NO_E2E="cannot load vgem_ext, vgem, fpga_sim and fpga_port"
		return
	fi
	if ! echo "$SIM_ID 1" > /sys/bus/fpga_sim/new_device; then
		WHY_NO_E2E="cannot create a simulated card"
		return
	fi
	SIM_OK=1
	for i in 1 2 3 4 5 6 7 8 9 10; do
		PORT=$(ls /sys/bus/fpga_sim/devices/fpga_sim$SIM_ID 2>/dev/null |
		       sed -n 's/^fpga-port\.//p' | head -n 1)
		[ -n "$PORT" ] && [ -e /dev/fpga-port.$PORT ] && break
		sleep 0.2
	done
	if [ -z "$PORT" ] || [ ! -e /dev/fpga-port.$PORT ]; then
		WHY_NO_E2E="no port device"
		return
	fi
	E2E_OK=1
}

t_list()
{
	expect 0 "" $FPGACTL buf list || return 1
	out_has "^vgem_ext /dev/dri/renderD[0-9]* 1\.0\.0 " || return 1
	expect 0 "" $FPGACTL -j buf info || return 1
	out_has '^{"driver":"vgem_ext","node":".*dev.*dri.*renderD[0-9]*","version":"1.0.0 [0-9]*"}$'
}

t_create()
{
	expect 0 "" $FPGACTL buf create 5000 || return 1
	out_has "^buffer [0-9]*: 8192 bytes, mmap offset 0x[0-9a-f]*, cached exported resident$" || return 1
	out_has "read back: yes" || return 1
	expect 0 "" $FPGACTL -j buf create 1M --wc --populate || return 1
	out_has '^{"handle":[0-9]*,"size":1048576,"offset":"0x[0-9a-f]*","flags":\["wc","populate","exported","resident"\],"verified":true}$' || return 1
	expect 1 "Cannot allocate memory" $FPGACTL buf create 1024G
}

t_export_import()
{
	expect 0 "" $FPGACTL buf export 64K --wc -- $FPGACTL buf import 3 || return 1
	out_has "^buffer [0-9]*: 65536 bytes, .*exported" || return 1
	out_has "the command exited with 0" || return 1
	# The importer is the exporter's own device: the same object
	grep -c "^buffer" "$T/out" | grep -q 2 || { show; return 1; }
	expect 1 "" $FPGACTL buf export 4K -- false || return 1
	out_has "the command exited with 1" || return 1
	expect 1 "fd 0 is not a dma-buf" $FPGACTL buf import 0 < /dev/null
}

t_import_vgem()
{
	expect 0 "" $FPGACTL buf import --vgem 256K || return 1
	out_has "^buffer [0-9]*: 262144 bytes, .* imported resident$" || return 1
	out_has "shared with vgem: yes"
}

vgem_loopback()
{
	expect 0 "" $FPGACTL dma loopback $PORT --size $1 --alloc vgem $3 --timeout 20000 || return 1
	out_has "^loopback $2 bytes: verified, " || return 1
}

t_loop_4k() { vgem_loopback 4K 4096; }
t_loop_1m_wc() { vgem_loopback 1M 1048576 --wc; }
t_loop_64m()
{
	expect 0 "" $FPGACTL -j dma loopback $PORT --size 64M --alloc vgem --timeout 60000 || return 1
	out_has '^{"bytes":67108864,"verified":true,' || return 1
	diag "64 MiB through vgem_ext: $(cat "$T/out")"
}

all_tests()
{
	t "help lists buf and --alloc" t_help
	t "buf and --alloc usage errors" t_usage
	t "buf list without vgem_ext fails cleanly" t_no_device
	[ -z "$COUNT_ONLY" ] && setup_e2e
	t "e2e: buf list and info" needs e2e t_list
	t "e2e: buf create, text and JSON, and too large" needs e2e t_create
	t "e2e: buf export to a command that imports it" needs e2e t_export_import
	t "e2e: buf import of a vgem buffer" needs e2e t_import_vgem
	t "e2e: dma loopback 4 KiB --alloc vgem" needs e2e t_loop_4k
	t "e2e: dma loopback 1 MiB --alloc vgem --wc" needs e2e t_loop_1m_wc
	t "e2e: dma loopback 64 MiB --alloc vgem (JSON)" needs e2e t_loop_64m
}

ktap_run all_tests
ktap_done
