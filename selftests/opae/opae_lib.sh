# SPDX-License-Identifier: GPL-2.0-only
# Shell functions the OPAE tests share; sourced after ktap_lib.sh, with
# $T a temporary directory.

# port_shows_afu PORT BDF GUID: after a programming, the port's /dev node
# is back and OPAE's fpgainfo port shows GUID on the card at BDF
port_shows_afu()
{
	# the port's files come back after programming: udev may lag
	for _ in $(seq 50); do
		[ -c "/dev/$1" ] && break
		sleep 0.1
	done
	[ -c "/dev/$1" ] || { diag "no /dev/$1"; return 1; }
	fpgainfo port "$2" > "$T/info" 2>&1 ||
		{ diag "fpgainfo port $2: $(cat "$T/info")"; return 1; }
	grep -qi "^Accelerator GUID *: *$3\$" "$T/info" ||
		{ diag "fpgainfo port $2 does not show $3:"; diag "$(cat "$T/info")"; return 1; }
}
