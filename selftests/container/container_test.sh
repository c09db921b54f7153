#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Ports in containers through CDI (Documentation/containers.md).  Debian's
# podman with crun, rootful in the VM, no network, a root directory made
# of the VM's own read-only /usr, /bin and /lib (nothing downloaded),
# takes a port of a simulated card by its CDI name from fpgactl cdi's
# spec.  Inside, as a user in group fpga and nothing more: fpgactl and
# OPAE's hello_fpga work on that port, and no other port, FME or card can
# be opened or is enumerated; two containers on the two ports of the card
# run at once; the host's fpgactl ps names a container's process; a card
# removed under a running container stops it with a clean error.  Prints
# KTAP.
#
# Exit status: 0 all passed (some may be skipped), 1 a test failed,
# 4 nothing ran.

here=$(cd "$(dirname "$0")" && pwd)
SIM=/sys/bus/fpga_sim
SIM_ID=$((7000 + $$ % 1000))
SPEC=/var/run/cdi/fpga-suite.json
OPAE_CFG=/usr/share/fpga-suite/opae.cfg
USER_ID=1000
T=$(mktemp -d) || exit 1
ROOTFS=$T/rootfs
SIM_ADDED=""
BG=""			# containers started in the background

cleanup()
{
	for c in $BG; do
		podman rm -f -t 0 "$c" > /dev/null 2>&1
	done
	[ -n "$SIM_ADDED" ] && echo "$SIM_ID" > $SIM/del_device 2>/dev/null
	container_rootfs_remove "$ROOTFS"
	rm -f "$SPEC"
	modprobe -r fpga_fme fpga_port fpga_sim fpga_dfl 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

. "$here/../fpga/ktap_lib.sh"
. "$here/container_lib.sh"

setup()
{
	for tool in podman crun conmon fpgactl; do
		command -v $tool > /dev/null ||
			ktap_skip_all "no $tool in this image (make deps: podman)"
	done
	FPGA_GID=$(awk -F: '$1 == "fpga" { print $3 }' /etc/group)
	[ -n "$FPGA_GID" ] || { ktap_plan 0 "no group fpga"; exit 1; }
	container_cgroup || { ktap_plan 0 "cannot mount cgroup2"; exit 1; }
	modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme ||
		{ ktap_plan 0 "modules failed to load"; exit 1; }
	fpgactl -j sim add "$SIM_ID" 2 > "$T/sim" ||
		{ ktap_plan 0 "no simulated card"; exit 1; }
	SIM_ADDED=1
	PORTS=$(sed -n 's/.*"ports":\[\([0-9,]*\)\].*/\1/p' "$T/sim" | tr , ' ')
	set -- $PORTS
	[ $# -eq 2 ] || { ktap_plan 0 "the card has ports '$PORTS'"; exit 1; }
	# the card's PCI function comes from a work item: CDI names by it
	for _ in $(seq 50); do
		[ -e "$SIM/devices/fpga_sim$SIM_ID/pci_function" ] &&
			[ -c "/dev/fpga-port.$1" ] && [ -c "/dev/fpga-port.$2" ] &&
			break
		sleep 0.1
	done
	BDF=$(basename "$(readlink -f "$SIM/devices/fpga_sim$SIM_ID/pci_function")")
	[ "$BDF" != pci_function ] || { ktap_plan 0 "the card has no PCI function"; exit 1; }
	CARD=$(echo "$BDF" | tr : -)
	for p in $PORTS; do
		eval "PORT$(cat /sys/bus/fpga_dfl/devices/fpga-port.$p/id)=$p"
		# as udev/60-fpga-suite.rules has them (no udev in the VM)
		for n in /dev/fpga-port.$p /dev/dfl-port.$p; do
			[ -c $n ] && chgrp fpga $n && chmod 0660 $n
		done
	done
	mkdir -p "${SPEC%/*}" && fpgactl cdi --output "$SPEC" ||
		{ ktap_plan 0 "fpgactl cdi failed"; exit 1; }
	container_rootfs "$ROOTFS" $USER_ID "$FPGA_GID" ||
		{ ktap_plan 0 "cannot make the container's root"; exit 1; }
}

# ctr NAME [PODMAN_RUN_OPTIONS...] -- COMMAND...: COMMAND in a container
# named NAME on the root directory, as the user and group fpga; its
# output in $T/NAME, its status returned
ctr()
{
	name=$1
	shift
	opts=""
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts="$opts $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	podman run --rm --name "$name" --network none \
		--user "$USER_ID:$USER_ID" --group-add "$FPGA_GID" \
		-e LIBOPAE_CFGFILE=$OPAE_CFG $opts --rootfs "$ROOTFS" "$@" > "$T/$name" 2>&1
}

# ran NAME: what the container NAME printed, as diagnostics
ran()
{
	diag "$(cat "$T/$1")"
}

# port_device P: the CDI name of the card's port P
port_device()
{
	echo "fpga-suite.org/port=$CARD-port$1"
}

# podman itself: a container starts and stops in the VM
t_podman_runs()
{
	ctr plain -- sh -c 'id -u; id -G' || { ran plain; return 1; }
	[ "$(head -n 1 "$T/plain")" = $USER_ID ] || { ran plain; return 1; }
	grep -qw "$FPGA_GID" "$T/plain" || { diag "not in group fpga"; ran plain; return 1; }
}

# without a device, a container has no FPGA node and OPAE finds nothing
t_no_device()
{
	ctr nodev -- sh -c 'ls /dev | grep "^fpga-\|^dfl-\|^uio"
		fpgactl list | grep " dev /dev/"
		fpgainfo port 2> /dev/null | grep "Accelerator GUID"'
	if [ -s "$T/nodev" ]; then
		diag "a container without a device sees:"; ran nodev; return 1
	fi
}

# a name the spec does not define is refused by podman, before the
# container starts
t_unknown_name()
{
	if ctr unknown --device "fpga-suite.org/port=$CARD-port9" -- true; then
		diag "podman took an unknown CDI device"; ran unknown; return 1
	fi
	grep -qi "cdi\|unresolv\|device" "$T/unknown" || { ran unknown; return 1; }
}

# the port: its nodes and FPGA_PORT, no other port's or the FME's nodes
t_one_port_nodes()
{
	ctr nodes --device "$(port_device 0)" -- sh -c \
		'echo "FPGA_PORT=$FPGA_PORT"; ls /dev' || { ran nodes; return 1; }
	grep -qx "FPGA_PORT=fpga-port.$PORT0" "$T/nodes" || { ran nodes; return 1; }
	grep -qx "fpga-port.$PORT0" "$T/nodes" || { diag "no fpga-port.$PORT0"; ran nodes; return 1; }
	if grep -q "fpga-port.$PORT1\|dfl-port.$PORT1\|fme" "$T/nodes"; then
		diag "the container sees another node:"; ran nodes; return 1
	fi
}

# fpgactl inside: the port works (info, a DMA loopback, a reset), the
# other port cannot be opened, list gives a node for this port only
t_fpgactl_in_container()
{
	ctr fpgactl --device "$(port_device 0)" -- sh -c '
		fpgactl info "$FPGA_PORT" || exit 10
		fpgactl dma loopback "$FPGA_PORT" --size 64K || exit 11
		fpgactl reset "$FPGA_PORT" || exit 12
		fpgactl info '"fpga-port.$PORT1"' && exit 13
		echo "== list"
		fpgactl list' || { diag "status $?"; ran fpgactl; return 1; }
	sed '1,/^== list$/d' "$T/fpgactl" > "$T/list"
	[ "$(grep -c " dev /dev/" "$T/list")" = 1 ] &&
		grep -q "^fpga-port.$PORT0: .* dev /dev/fpga-port.$PORT0 " "$T/list" ||
		{ diag "fpgactl list in the container:"; ran fpgactl; return 1; }
}

# the node a container gets is its user's (the CDI library gives it the
# process's uid and gid, the runtime mode 0666: Documentation/
# containers.md): a user without group fpga may use it there, while the
# host's node stays root's and group fpga's, mode 0660
t_node_is_containers()
{
	host=$(ls -ln "/dev/fpga-port.$PORT0" | awk '{ print $1, $3, $4 }')
	[ "$host" = "crw-rw---- 0 $FPGA_GID" ] ||
		{ diag "the host's node: $host"; return 1; }
	podman run --rm --network none --user 4321:4321 \
		--device "$(port_device 0)" --rootfs "$ROOTFS" sh -c \
		'ls -ln /dev/$FPGA_PORT; fpgactl info "$FPGA_PORT" > /dev/null' \
		> "$T/owner" 2>&1 || { ran owner; return 1; }
	[ "$(awk '{ print $1, $3, $4 }' "$T/owner")" = "crw-rw-rw- 4321 4321" ] ||
		{ diag "the container's node:"; ran owner; return 1; }
}

# OPAE: fpgainfo enumerates one port and no FME; hello_fpga passes
t_opae_in_container()
{
	command -v hello_fpga > /dev/null || { WHY="no OPAE in this image"; return $KSFT_SKIP; }
	ctr opae --device "$(port_device 1)" -- sh -c \
		"fpgainfo port; echo ==; fpgainfo fme; echo ==; hello_fpga $BDF" ||
		{ diag "status $?"; ran opae; return 1; }
	[ "$(grep -c "Accelerator GUID" "$T/opae")" = 1 ] ||
		{ diag "fpgainfo port does not show one port:"; ran opae; return 1; }
	if grep -q "Bitstream Id" "$T/opae"; then
		diag "fpgainfo fme shows an FME:"; ran opae; return 1
	fi
	grep -q "Done Running Test" "$T/opae" && ! grep -qi "not match\|timed out" "$T/opae" ||
		{ diag "hello_fpga did not pass"; ran opae; return 1; }
}

# two containers, one per port of the card, each copying at once
t_two_containers()
{
	for p in 0 1; do
		ctr "two$p" --device "$(port_device $p)" -- sh -c '
			i=0
			while [ $i -lt 20 ]; do
				fpgactl dma loopback "$FPGA_PORT" --size 256K || exit 1
				i=$((i + 1))
			done' &
		eval "pid$p=\$!"
	done
	wait "$pid0"
	rc0=$?
	wait "$pid1"
	rc1=$?
	[ $rc0 = 0 ] || { diag "port 0's container: status $rc0"; ran two0; return 1; }
	[ $rc1 = 0 ] || { diag "port 1's container: status $rc1"; ran two1; return 1; }
}

# the host's fpgactl ps names the process a container holds the port in
t_ps_names_container()
{
	rm -f "$ROOTFS/out/ready"
	BG="$BG holder"
	podman run -d --name holder --network none \
		--user "$USER_ID:$USER_ID" --group-add "$FPGA_GID" \
		--device "$(port_device 0)" --rootfs "$ROOTFS" sh -c \
		'exec 3<> /dev/$FPGA_PORT; echo > /out/ready; exec sleep 120' \
		> "$T/holder" 2>&1 || { ran holder; return 1; }
	for _ in $(seq 100); do
		[ -e "$ROOTFS/out/ready" ] && break
		sleep 0.1
	done
	pid=$(podman inspect --format '{{.State.Pid}}' holder)
	fpgactl ps "$PORT0" > "$T/ps" 2>&1 || { ran ps; return 1; }
	grep -q "^ *$pid " "$T/ps" || { diag "pid $pid not in:"; ran ps; return 1; }
	podman rm -f -t 0 holder > /dev/null 2>&1
}

# the card removed under a container copying on it: the container's
# fpgactl stops with an error (no node, no device) and the container
# ends by itself; the host keeps working (the harness fails the test on
# any kernel warning)
t_card_removed()
{
	rm -f "$ROOTFS/out/count"
	BG="$BG copier"
	podman run -d --name copier --network none \
		--user "$USER_ID:$USER_ID" --group-add "$FPGA_GID" \
		--device "$(port_device 1)" --rootfs "$ROOTFS" sh -c '
		i=0
		while fpgactl dma loopback "$FPGA_PORT" --size 1M 2> /out/err; do
			i=$((i + 1))
			echo $i > /out/count
		done
		exit 3' > "$T/copier" 2>&1 || { ran copier; return 1; }
	for _ in $(seq 300); do
		[ -s "$ROOTFS/out/count" ] && break
		sleep 0.1
	done
	[ -s "$ROOTFS/out/count" ] || { diag "the container never copied"; return 1; }
	echo "$SIM_ID" > $SIM/del_device || { diag "cannot remove the card"; return 1; }
	SIM_ADDED=""
	rc=$(timeout 30 podman wait copier) ||
		{ diag "the container did not stop after the card went"; return 1; }
	[ "$rc" = 3 ] || { diag "container status $rc"; return 1; }
	diag "after $(cat "$ROOTFS/out/count") copies: $(cat "$ROOTFS/out/err")"
	grep -qi "no such device\|no such file\|not found" "$ROOTFS/out/err" ||
		{ diag "not the error of a card that went"; return 1; }
	podman rm -f -t 0 copier > /dev/null 2>&1
}

tests()
{
	t "podman runs a container as a user in group fpga" t_podman_runs
	t "without a device a container sees no FPGA" t_no_device
	t "an unknown CDI name is refused" t_unknown_name
	t "a port's container has its nodes and FPGA_PORT only" t_one_port_nodes
	t "fpgactl works on the container's port and no other" t_fpgactl_in_container
	t "the container's node is its user's, the host's stays group fpga's" t_node_is_containers
	t "OPAE finds one port and no FME; hello_fpga passes" t_opae_in_container
	t "two containers on the card's two ports at once" t_two_containers
	t "the host's fpgactl ps names a container's process" t_ps_names_container
	t "a card removed under a container stops it cleanly" t_card_removed
}

setup
ktap_run tests
ktap_done
