#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# What "make demo" shows inside the VM: the modules loading from their DKMS
# install, a simulated card being created and enumerated, and fpgactl
# driving it: info, MMIO, a DMA loopback through the card's IOMMU counted
# by perf on the card's PMU, an interrupt, who holds a port (fpgactl ps),
# error injection, partial reconfiguration of a port from a GBS file,
# OPAE's fpgainfo and hello_fpga unchanged (when make opae built them), a
# podman container given one port through CDI, and hot-unplug.
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; sh -c "$*"; }

echo "== FPGA accelerator suite demo on $(uname -r) =="
step "modinfo -n fpga_dfl fpga_sim fpga_port fpga_fme"
step "modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme && lsmod | grep fpga"
step "fpgactl sim add 1 2"
step "ls /sys/bus/fpga_sim/devices/fpga_sim1/"
step "fpgactl list"
step "fpgactl info 0"
step "fpgactl mmio read 0 0x0 --width 64    # the AFU's DFH (type 1 = AFU)"
step "perf stat -a -e fpga_pmu/dma_rd_bytes/,fpga_pmu/dma_wr_bytes/ -- fpgactl dma loopback 0 --size 16M"
step "(sleep 0.5; fpgactl mmio write 0 0x180 1) & fpgactl irq wait 0 --timeout 5000"
step "fpgactl irq wait 0 --timeout 5000 & sleep 1; fpgactl ps; fpgactl mmio write 0 0x180 1; wait    # who has a port open, from its fdinfo"
step "echo 0x4 > /sys/bus/fpga_sim/devices/fpga_sim1/port0/inject_error; fpgactl errors 0"
step "fpgactl errors 0 --clear && fpgactl -j errors 0"
# Partial reconfiguration: a GBS for the simulated card, loaded into port 1
step "fpgactl gbs make afu nlb0 out /tmp/nlb0.gbs && fpgactl info fpga-fme.0"
step "fpgactl pr fpga-fme.0 /tmp/nlb0.gbs port 1 && fpgactl dma loopback 1 --size 1M"
step "fpgactl gbs make afu nlb0 interface 5b974f33-1a2b-49ff-ab36-c38ef191463b out /tmp/other.gbs; fpgactl pr fpga-fme.0 /tmp/other.gbs port 1 force    # built for another card: refused, the AFU stays"
if command -v hello_fpga > /dev/null; then
	# OPAE finds the card by its PCI function: its ids are in fpga-tools' opae.cfg
	export LIBOPAE_CFGFILE=/usr/share/fpga-suite/opae.cfg
	step "fpgainfo port 2>&1 | grep -E 'PCIe s:b:d.f|Accelerator GUID'"
	step "hello_fpga    # OPAE's sample, unchanged: NLB0 through /dev/dfl-port.N"
	if [ -d /sys/class/spi_master ]; then
		step "fpgactl sim add 3 board n3000 && fpgainfo temp 2>&1 | grep -E 'PCIe s:b:d.f|Temperature'    # a card modelled on the N3000: its BMC's sensors"
		step "fpgactl sim del 3"
	fi
else
	echo "(OPAE's fpgainfo and hello_fpga are not in this image: make opae)"
fi
if command -v podman > /dev/null; then
	# A container given port 0 by its CDI name (Documentation/containers.md)
	. /ksft/container/container_lib.sh
	container_cgroup && container_rootfs /tmp/ctr 1000 200
	card=$(basename "$(readlink -f /sys/bus/fpga_sim/devices/fpga_sim1/pci_function)" | tr : -)
	mkdir -p /var/run/cdi
	step "fpgactl cdi --output /var/run/cdi/fpga-suite.json && grep '\"name\"' /var/run/cdi/fpga-suite.json"
	step "podman run -d --name job --network none --user 1000 --device fpga-suite.org/port=$card-port0 --rootfs /tmp/ctr sh -c 'ls /dev; fpgactl irq wait \$FPGA_PORT --timeout 30000' > /dev/null; sleep 3; fpgactl ps    # the container's process holds the port"
	step "fpgactl mmio write 0 0x180 1; podman wait job > /dev/null; podman logs job; podman rm job > /dev/null"
	container_rootfs_remove /tmp/ctr
else
	echo "(podman is not in this image: make deps)"
fi
step "fpgactl sim add 9 7    # bad input gets a clear error"
step "fpgactl sim del 1 && fpgactl list"
step "modprobe -r fpga_port fpga_fme fpga_sim fpga_dfl && dmesg | grep -E 'WARNING:|BUG:|Oops' || echo 'kernel log clean'"
echo
echo "== demo done =="
