#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# What "make demo" shows inside the VM: the modules loading from their DKMS
# install, a simulated card being created, its DFL enumerated, and the
# suite's tools at work on it.
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; sh -c "$*"; }

echo "== FPGA accelerator suite demo on $(uname -r) =="
step "modinfo -n fpga_sim fpga_dfl"
step "modprobe fpga_sim && lsmod | grep fpga"
step "echo '1 2' > /sys/bus/fpga_sim/new_device"
step "ls /sys/bus/fpga_sim/devices/fpga_sim1/"
step "ls -l /sys/bus/fpga_dfl/devices/"
step "cat /sys/bus/fpga_dfl/devices/fpga-port.0/modalias"
if command -v fpgactl >/dev/null; then
	step "fpgactl list"
fi
step "echo 9 > /sys/bus/fpga_sim/new_device; echo '5 7' > /sys/bus/fpga_sim/new_device"
step "echo 1 > /sys/bus/fpga_sim/del_device && modprobe -r fpga_sim fpga_dfl"
step "dmesg | grep -E 'fpga|DFL' | tail -n 5"
echo
echo "== demo done =="
