#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fpgactl gbs make/show, pr and info on an FME: their command lines
# (usage errors, exit codes, messages, JSON) and GBS files made and read
# back, with a fake sysfs tree for the FME (compat_id, ports_num): needs
# no FPGA.  With FPGA_PR_SHIM, pr runs to its end: the shim plays the
# FME's DFL_FPGA_FME_PORT_PR (what it is given, its errors) on a node of
# the fake tree.  Prints KTAP.
#
# Environment:
#   FPGACTL         the command to test (default: fpgactl from PATH); may
#                   carry a wrapper, e.g. "valgrind -q --error-exitcode=99 .."
#   FPGA_PR_SHIM    user/tests/pr_shim.so (LD_PRELOAD), or unset: those
#                   tests are skipped
#
# Exit status: 0 all passed, 1 a test failed.

FPGACTL=${FPGACTL:-fpgactl}
SIM_IFID=b2d602a3-7779-44af-a0e4-4ea57c9c6a0e
NLB0=d8424dc4-a4a3-c413-f89e-433683f9040b
HELB=56e203e9-864f-49a7-b94b-12284c31e02b

T=$(mktemp -d) || exit 1
. "$(dirname "$0")/fpgactl_lib.sh"
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM

why_not()
{
	[ -z "$FPGA_PR_SHIM" ] && echo "FPGA_PR_SHIM is not set"
	[ -n "$FPGA_PR_SHIM" ] && [ ! -f "$FPGA_PR_SHIM" ] &&
		echo "no $FPGA_PR_SHIM"
}

t_help()
{
	expect 0 "" $FPGACTL help || return 1
	out_has "fpgactl gbs make afu nlb0|nlb3|helb|GUID" || return 1
	out_has "fpgactl gbs show FILE" || return 1
	out_has "fpgactl pr FME FILE \[port N\] \[force\]" || return 1
	out_has "fpgactl info PORT|FME" || return 1
	for c in "gbs make" "gbs show" pr; do
		expect 0 "" $FPGACTL $c --help || return 1
		out_has "^Usage: fpgactl .*$c" || return 1
	done
	expect 0 "" $FPGACTL gbs help || return 1
	out_has "fpgactl gbs make" || return 1
	out_has "fpgactl gbs show"
}

# make, then show: text and JSON, the same ids
t_round_trip()
{
	expect 0 "" $FPGACTL gbs make afu nlb0 out "$T/nlb0.gbs" || return 1
	out_has "^$T/nlb0.gbs: [0-9]* bytes, gbs$" || return 1
	out_has "interface_id $SIM_IFID afu_id $NLB0 (nlb0) name nlb0$" || return 1
	out_has "bitstream 68 bytes: simulated card's, payload 0 bytes, crc 0x[0-9a-f]\{8\} good, the metadata's ids$" || return 1
	cp "$T/out" "$T/made"
	expect 0 "" $FPGACTL gbs show "$T/nlb0.gbs" || return 1
	cmp -s "$T/out" "$T/made" || { diag "show differs from make"; show; return 1; }
	expect 0 "" $FPGACTL -j gbs show "$T/nlb0.gbs" || return 1
	# (json-c writes / as \/)
	out_has '^{"file":"[^"]*nlb0.gbs","size":[0-9]*,"format":"gbs","interface_id":"'$SIM_IFID'","afu_id":"'$NLB0'","afu":"nlb0","name":"nlb0","metadata_size":[0-9]*,"version":1,"platform":"fpga_sim","magic_no":"0x1d1f8680",' || return 1
	out_has '"sim_bitstream":{"valid":true,"payload_size":0,"crc":"0x[0-9a-f]*","crc_ok":true,"matches_metadata":true}}$' || return 1
	# The file: GBS GUID, little-endian length, JSON, then FSIM_BS1
	[ "$(head -c 16 "$T/nlb0.gbs")" = "$(printf 'XeonFPGA\267GBSv001')" ] ||
		{ diag "no GBS GUID"; return 1; }
	grep -q '"magic-no":488605312' "$T/nlb0.gbs" || { diag "no magic-no"; return 1; }
	grep -q 'FSIM_BS1' "$T/nlb0.gbs"
}

t_make_options()
{
	printf '0123456789abcdef' > "$T/payload"
	expect 0 "" $FPGACTL -j gbs make out "$T/h.gbs" payload "$T/payload" \
		name "my loopback" interface 0123456789abcdef0123456789ABCDEF \
		afu helb || return 1
	out_has '"interface_id":"01234567-89ab-cdef-0123-456789abcdef","afu_id":"'$HELB'","afu":"helb","name":"my loopback"' || return 1
	out_has '"bitstream_size":84,"sim_bitstream":{"valid":true,"payload_size":16,' || return 1
	expect 0 "" $FPGACTL gbs make afu f7df405cbd7acf7222f144b0b93acd18 out "$T/n3.gbs" || return 1
	out_has "afu_id f7df405c-bd7a-cf72-22f1-44b0b93acd18 (nlb3) name nlb3" || return 1
	expect 0 "" $FPGACTL gbs make afu 11111111-2222-3333-4444-555555555555 out "$T/x.gbs" || return 1
	out_has "afu_id 11111111-2222-3333-4444-555555555555 name afu$"
}

t_make_usage()
{
	usage "'afu nlb0|nlb3|helb|GUID' is required" $FPGACTL gbs make out "$T/x" || return 1
	usage "'out FILE' is required" $FPGACTL gbs make afu nlb0 || return 1
	usage "afu: 'nlb7' is neither a known AFU (nlb0, nlb3, helb) nor a GUID" \
		$FPGACTL gbs make afu nlb7 out "$T/x" || return 1
	usage "interface: 'b2d602a3-7779-44af-a0e4' is not a UUID" \
		$FPGACTL gbs make afu nlb0 interface b2d602a3-7779-44af-a0e4 out "$T/x" || return 1
	usage "afu: 'd8424dc4-a4a3-c413-f89e-433683f9040g' is neither" \
		$FPGACTL gbs make afu d8424dc4-a4a3-c413-f89e-433683f9040g out "$T/x" || return 1
	usage "out needs a value" $FPGACTL gbs make afu nlb0 out || return 1
	usage "afu given twice" $FPGACTL gbs make afu nlb0 afu nlb3 out "$T/x" || return 1
	usage "unexpected argument 'extra'" $FPGACTL gbs make afu nlb0 out "$T/x" extra || return 1
	usage "unknown option '--out'" $FPGACTL gbs make afu nlb0 --out "$T/x" || return 1
	usage "name: an AFU name is printable ASCII" \
		$FPGACTL gbs make afu nlb0 name "$(printf 'a\tb')" out "$T/x" || return 1
	usage "name: an AFU name has 1 to 255 characters, not 256" \
		$FPGACTL gbs make afu nlb0 name "$(printf '%0256d' 0)" out "$T/x" || return 1
	usage "payload: empty file name" $FPGACTL gbs make afu nlb0 payload "" out "$T/x" || return 1
	[ ! -e "$T/x" ] || { diag "a usage error wrote $T/x"; return 1; }
	usage "missing argument" $FPGACTL gbs show || return 1
	usage "missing argument" $FPGACTL pr 0 || return 1
	usage "unexpected argument 'c'" $FPGACTL pr a b c
}

t_make_fails()
{
	expect 1 "$T/none: No such file or directory" \
		$FPGACTL gbs make afu nlb0 payload "$T/none" out "$T/x" || return 1
	printf 'abc' > "$T/odd"
	expect 1 "$T/odd: a payload of 3 bytes is not a multiple of 4" \
		$FPGACTL gbs make afu nlb0 payload "$T/odd" out "$T/x" || return 1
	truncate -s 2M "$T/big" || return 1
	expect 1 "$T/big is too large (2097152 bytes, at most 1048508)" \
		$FPGACTL gbs make afu nlb0 payload "$T/big" out "$T/x" || return 1
	expect 1 "$T/none/x.gbs: No such file or directory" \
		$FPGACTL gbs make afu nlb0 out "$T/none/x.gbs" || return 1
	expect 1 "is not a regular file" \
		$FPGACTL gbs make afu nlb0 payload "$T" out "$T/x" || return 1
	[ ! -e "$T/x" ] || { diag "a failure wrote $T/x"; return 1; }
	[ ! -s "$T/out" ] || { diag "stdout not empty"; return 1; }
}

# Damaged files: each a clear message and exit status 1
t_show_bad()
{
	g=$T/nlb0.gbs
	size=$(stat -c %s "$g")
	expect 1 "$T/none: No such file or directory" $FPGACTL gbs show "$T/none" || return 1
	head -c 100 "$g" > "$T/trunc.gbs"
	expect 1 "GBS truncated: metadata of [0-9]* bytes, the file has 80 after its header" \
		$FPGACTL gbs show "$T/trunc.gbs" || return 1
	head -c 10 "$g" > "$T/short.gbs"
	expect 1 "is neither a GBS (it does not start with the GBS GUID 58656f6e-4650-4741-b747-425376303031) nor a simulated card's bitstream" \
		$FPGACTL gbs show "$T/short.gbs" || return 1
	{ printf 'XeonFPGA\267GBSv002'; tail -c +17 "$g"; } > "$T/guid.gbs"
	expect 1 "does not start with the GBS GUID" $FPGACTL gbs show "$T/guid.gbs" || return 1
	{ head -c 16 "$g"; printf '\377\377\377\377'; tail -c +21 "$g"; } > "$T/huge.gbs"
	expect 1 "metadata of 4294967295 bytes" $FPGACTL gbs show "$T/huge.gbs" || return 1
	{ head -c 16 "$g"; printf '\000\040\000\000'; tail -c +21 "$g"; head -c 8192 /dev/zero; } > "$T/8k.gbs"
	expect 1 "GBS metadata of 8192 bytes (OPAE takes 1 to 8191)" \
		$FPGACTL gbs show "$T/8k.gbs" || return 1
	# A bit of the bitstream flipped: its CRC is bad
	{ head -c $((size - 10)) "$g"; printf 'X'; tail -c 9 "$g"; } > "$T/crc.gbs"
	expect 1 "$T/crc.gbs: the bitstream's CRC is bad" $FPGACTL gbs show "$T/crc.gbs" || return 1
	out_has "crc 0x[0-9a-f]* BAD" || return 1
	expect 1 "" $FPGACTL -j gbs show "$T/crc.gbs" || return 1
	out_has '"crc_ok":false' || return 1
	# The bitstream cut short
	head -c $((size - 4)) "$g" > "$T/cut.gbs"
	expect 1 "its header says 68 bytes, there are 64" $FPGACTL gbs show "$T/cut.gbs" || return 1
	# Another AFU in the bitstream than in the metadata
	$FPGACTL gbs make afu nlb3 out "$T/n3.gbs" > /dev/null || return 1
	{ head -c $((size - 68)) "$g"; tail -c 68 "$T/n3.gbs"; } > "$T/mix.gbs"
	expect 1 "the bitstream carries other ids than the GBS metadata" \
		$FPGACTL gbs show "$T/mix.gbs" || return 1
	# The metadata broken
	sed 's/"magic-no":488605312/"magic-no":488605313/' "$g" > "$T/magic.gbs"
	expect 1 "GBS metadata: magic-no is 488605313, not 488605312" \
		$FPGACTL gbs show "$T/magic.gbs" || return 1
	# (the same length, or the metadata's length would be wrong)
	sed 's/"name":"nlb0","total-contexts":1/"name":"nl","total-contexts":"1"/' \
		"$g" > "$T/ctx.gbs"
	expect 1 "\"total-contexts\" in accelerator-clusters\[0\] is not an integer" \
		$FPGACTL gbs show "$T/ctx.gbs" || return 1
	sed 's/"name":"nlb0"/"name":"nlb0/' "$g" > "$T/json.gbs"
	expect 1 "GBS metadata is not JSON" $FPGACTL gbs show "$T/json.gbs"
}

# The bitstream alone: shown as raw
t_show_raw()
{
	g=$T/nlb0.gbs
	tail -c 68 "$g" > "$T/raw.bin"
	expect 0 "" $FPGACTL gbs show "$T/raw.bin" || return 1
	out_has "^$T/raw.bin: 68 bytes, raw (no GBS header)$" || return 1
	out_has "interface_id $SIM_IFID afu_id $NLB0 (nlb0)$" || return 1
	expect 0 "" $FPGACTL -j gbs show "$T/raw.bin" || return 1
	out_has '"format":"raw","bitstream_offset":0,"bitstream_size":68,"sim_bitstream":{"valid":true,'
}

# An FME in sysfs: card 3 (fpga_sim77) with 2 ports, compat_id the
# simulated card's; FME 4 without compat_id
fake_sysfs()
{
	S=$T/sys
	dev=$S/devices/fpga_sim77
	mkdir -p "$S/bus/fpga_dfl/devices" "$S/bus/fpga_sim/devices/fpga_sim77/fpga-fme.3" \
		"$dev/fpga-fme.3/dfl-fme-region.1/fpga_region/region5" "$dev/fpga-fme.4" \
		"$dev/fpga-fme.3/errors"
	for d in fpga-fme.3 fpga-fme.4; do
		ln -s "../../../devices/fpga_sim77/$d" "$S/bus/fpga_dfl/devices/$d"
	done
	echo 3 > "$dev/fpga-fme.3/card_id"
	echo 2 > "$dev/fpga-fme.3/ports_num"
	echo 0x1000000 > "$dev/fpga-fme.3/bitstream_id"
	echo b2d602a3777944afa0e44ea57c9c6a0e > \
		"$dev/fpga-fme.3/dfl-fme-region.1/fpga_region/region5/compat_id"
	echo 4 > "$dev/fpga-fme.4/card_id"
	echo 1 > "$dev/fpga-fme.4/ports_num"
	echo 0x6 > "$dev/fpga-fme.3/errors/pr_err"
	# Port 1 of card 3, as it comes back after programming, with NLB0
	mkdir -p "$dev/fpga-port.9"
	ln -s "../../../devices/fpga_sim77/fpga-port.9" "$S/bus/fpga_dfl/devices/fpga-port.9"
	echo 3 > "$dev/fpga-port.9/card_id"
	echo 1 > "$dev/fpga-port.9/id"
	echo d8424dc4a4a3c413f89e433683f9040b > "$dev/fpga-port.9/afu_id"
	# FME 3's node: /dev/null's, which sysfs says is fpga-fme.3
	mkdir -p "$S/dev/char"
	set -- $(stat -L -c '%t %T' /dev/null)
	ln -s "../../devices/fpga_sim77/fpga-fme.3" \
		"$S/dev/char/$(printf '%d:%d' "0x$1" "0x$2")"
	ln -s /dev/null "$T/fme3"
}

t_info_fme()
{
	export FPGA_SYSFS_ROOT=$T/sys
	expect 0 "" $FPGACTL info fpga-fme.3 || return 1
	out_has "^fpga-fme.3: card 3 (fpga_sim77) (no driver)$" || return 1
	out_has "^    ports 2 bitstream_id 0x1000000 interface_id $SIM_IFID$" || return 1
	expect 0 "" $FPGACTL -j info fpga_sim77 || return 1
	out_has '^{"name":"fpga-fme.3","type":"fme","id":3,"card_id":3,"card":"fpga_sim77","driver":null,"ports_num":2,"bitstream_id":"0x1000000","interface_id":"'$SIM_IFID'"}$' || return 1
	expect 0 "" $FPGACTL info dfl-fme.4 || return 1
	out_has "^    ports 1$" || return 1
	expect 0 "" $FPGACTL info "$T/sys/bus/fpga_dfl/devices/fpga-fme.4" || return 1
	expect 1 "fpga-fme.9: no such device" $FPGACTL info fpga-fme.9 || return 1
	usage "'fme3' is neither a port nor an FME" $FPGACTL info fme3
}

t_pr_usage()
{
	export FPGA_SYSFS_ROOT=$T/sys
	g=$T/nlb0.gbs
	usage "'fme3' is not an FME" $FPGACTL pr fme3 "$g" || return 1
	usage "port: 'x' is not a number" $FPGACTL pr 3 "$g" port x || return 1
	usage "port: '256' is too large" $FPGACTL pr 3 "$g" port 256 || return 1
	usage "unexpected argument 'force=1'" $FPGACTL pr 3 "$g" force=1 || return 1
	usage "port given twice" $FPGACTL pr 3 "$g" port 0 port 1 || return 1
	usage "unknown option '-f'" $FPGACTL pr 3 "$g" -f
}

# What pr checks before it opens the FME
t_pr_checks()
{
	export FPGA_SYSFS_ROOT=$T/sys
	g=$T/nlb0.gbs
	expect 1 "fpga-fme.3 has 2 ports (0 to 1), not port 2" $FPGACTL pr 3 "$g" port 2 || return 1
	expect 1 "fpga-fme.9: no such device" $FPGACTL pr fpga-fme.9 "$g" || return 1
	expect 1 "$T/none: No such file or directory" $FPGACTL pr 3 "$T/none" || return 1
	expect 1 "GBS truncated" $FPGACTL pr 3 "$T/trunc.gbs" || return 1
	printf 'abcdef' > "$T/odd.bin"
	expect 1 "$T/odd.bin: a bitstream of 6 bytes (the FME takes a multiple of 4 bytes" \
		$FPGACTL pr 3 "$T/odd.bin" || return 1
	# Built for another interface: refused, unless forced
	$FPGACTL gbs make afu nlb0 interface 0123456789abcdef0123456789abcdef \
		out "$T/other.gbs" > /dev/null || return 1
	expect 1 "$T/other.gbs is built for PR interface 01234567-89ab-cdef-0123-456789abcdef, fpga-fme.3's is $SIM_IFID; 'force' loads it anyway" \
		$FPGACTL pr 3 "$T/other.gbs" || return 1
	# forced: on to the FME's node, which this host has not
	expect 1 "warning: .*is built for PR interface" \
		$FPGACTL pr 3 "$T/other.gbs" force || return 1
	grep -q "/dev/fpga-fme.3: No such file or directory (is fpga_fme loaded?)" "$T/err" ||
		{ diag "no open failure"; show; return 1; }
	# A raw simulated bitstream is checked the same way
	tail -c 68 "$T/other.gbs" > "$T/other.bin"
	expect 1 "other.bin is built for PR interface 01234567-89ab" \
		$FPGACTL pr 3 "$T/other.bin" || return 1
	# No compat_id: refused, unless forced
	expect 1 "fpga-fme.4 has no PR interface id (no compat_id" \
		$FPGACTL pr 4 "$g" || return 1
	expect 1 "/dev/fpga-fme.4: No such file or directory" $FPGACTL pr 4 "$g" force || return 1
	# The right interface: on to the node; a raw non-simulated bitstream too
	expect 1 "/dev/fpga-fme.3: No such file or directory (is fpga_fme loaded?)" \
		$FPGACTL pr dfl-fme.3 "$g" port 1 || return 1
	printf 'abcdefgh' > "$T/any.bin"
	expect 1 "/dev/fpga-fme.3: No such file or directory" $FPGACTL pr 3 "$T/any.bin" || return 1
	[ ! -s "$T/out" ] || { diag "stdout not empty"; return 1; }
}

# pr_shim CMD...: CMD with the ioctl played, on the fake tree
pr_shim()
{
	FPGA_SYSFS_ROOT=$T/sys FPGA_TEST_PR_DUMP=$T/dump \
		LD_PRELOAD=$FPGA_PR_SHIM ASAN_OPTIONS=verify_asan_link_order=0 \
		"$@"
}

# Loaded: the bitstream alone went to the FME, the port is found again
t_pr_loaded()
{
	g=$T/nlb0.gbs
	rm -f "$T/dump" "$T/dump.bin"
	expect 0 "" pr_shim $FPGACTL pr "$T/fme3" "$g" port 1 || return 1
	out_has "^fpga-fme.3: card 3 port 1 loaded from $g (gbs, 68 bytes)$" || return 1
	out_has "^    fpga-port.9 afu_id d8424dc4a4a3c413f89e433683f9040b (nlb0)$" || return 1
	[ "$(cat "$T/dump")" = "argsz 24 flags 0 port 1 size 68 aligned 1" ] ||
		{ diag "the FME got: $(cat "$T/dump")"; return 1; }
	tail -c 68 "$g" | cmp -s - "$T/dump.bin" ||
		{ diag "the FME did not get the GBS's bitstream"; return 1; }
	expect 0 "" pr_shim $FPGACTL -j pr "$T/fme3" "$g" port 1 || return 1
	out_has '^{"fme":"fpga-fme.3","card_id":3,"port":1,"file":"[^"]*nlb0.gbs","format":"gbs","bitstream_size":68,"interface_id":"'$SIM_IFID'","dev":"fpga-port.9","afu_id":"d8424dc4a4a3c413f89e433683f9040b","afu":"nlb0"}$' || return 1
	# A raw bitstream goes whole
	printf 'abcdefgh' > "$T/any.bin"
	expect 0 "" pr_shim $FPGACTL pr "$T/fme3" "$T/any.bin" port 1 || return 1
	out_has "(raw, 8 bytes)$" || return 1
	cmp -s "$T/any.bin" "$T/dump.bin" || { diag "the FME did not get the file"; return 1; }
}

# Refused: errno's message; after EIO, pr_err decoded
t_pr_refused()
{
	g=$T/nlb0.gbs
	FPGA_TEST_PR_ERRNO=5 expect 1 \
		"fpga-fme.3: port 1: DFL_FPGA_FME_PORT_PR: Input/output error (the card refused the bitstream)" \
		pr_shim $FPGACTL pr "$T/fme3" "$g" port 1 || return 1
	grep -q "fpga-fme.3: errors/pr_err 0x6:" "$T/err" &&
	grep -q "^    PR CRC error (crc)$" "$T/err" &&
	grep -q "^    PR incompatible bitstream (incompatible_bitstream)$" "$T/err" ||
		{ diag "pr_err not decoded"; show; return 1; }
	[ ! -s "$T/out" ] || { diag "stdout not empty"; return 1; }
	FPGA_TEST_PR_ERRNO=16 expect 1 "Device or resource busy (another programming of this FME is in progress)" \
		pr_shim $FPGACTL pr "$T/fme3" "$g" || return 1
	FPGA_TEST_PR_ERRNO=110 expect 1 "timed out (the card did not finish)" \
		pr_shim $FPGACTL pr "$T/fme3" "$g" || return 1
	FPGA_TEST_PR_ERRNO=1 expect 1 "Operation not permitted (partial reconfiguration needs" \
		pr_shim $FPGACTL pr "$T/fme3" "$g" || return 1
	grep -q "pr_err" "$T/err" && { diag "pr_err shown for EPERM"; return 1; }
	return 0
}

# Loaded, but the port comes back with another AFU than the file's
t_pr_other_afu()
{
	$FPGACTL gbs make afu nlb3 out "$T/n3.gbs" > /dev/null || return 1
	expect 1 "loaded, but port 1 of card 3 (fpga-port.9) has AFU d8424dc4a4a3c413f89e433683f9040b, not f7df405cbd7acf7222f144b0b93acd18" \
		pr_shim $FPGACTL pr "$T/fme3" "$T/n3.gbs" port 1
}

all_tests()
{
	t "help shows gbs, pr and info on an FME" t_help
	t "gbs make and gbs show agree, text and JSON" t_round_trip
	t "gbs make with interface, name, payload, a GUID" t_make_options
	t "gbs make: bad arguments are usage errors" t_make_usage
	t "gbs make: unreadable, odd and huge payloads, unwritable out" t_make_fails
	t "gbs show: truncated, wrong GUID, huge sizes, bad CRC, bad metadata" t_show_bad
	t "gbs show: a raw simulated bitstream" t_show_raw
	[ -z "$COUNT_ONLY" ] && fake_sysfs
	t "info on an FME: interface_id from compat_id" t_info_fme
	t "pr: bad arguments are usage errors" t_pr_usage
	t "pr: port, file, size and interface checks" t_pr_checks
	t "pr: the bitstream alone goes to the FME, the port is found again" needs shim t_pr_loaded
	t "pr: errors of the ioctl, pr_err decoded" needs shim t_pr_refused
	t "pr: a port back with another AFU is a failure" needs shim t_pr_other_afu
}

ktap_run all_tests
ktap_done
