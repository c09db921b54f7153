# SPDX-License-Identifier: GPL-2.0-only
#
# Included first by every module's Kbuild (and by its tests/ Kbuild): what
# all of the suite's modules are built with.  Paths start from this file's
# own place, so that it works from any folder, in a kernel tree and out.
# Each Kbuild finds it from its own folder, the path make read the Kbuild
# by ($(src) is no help: relative or absolute, in a tree or out, changed
# in 6.10 and again in 6.13).
fpga_suite_kernel := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

# What the modules share: <fpga-suite/dfl-core.h> and its neighbours
ccflags-y += -I$(fpga_suite_kernel)/include
# The suite's uapi headers: <linux/fpga-suite.h>, <linux/fpga-netlink.h>
ccflags-y += -I$(fpga_suite_kernel)/../include/uapi
# Kernel version differences: compat/ (fpga-compat.h, feature tests)
include $(fpga_suite_kernel)/compat/compat.mk
# make modules FPGA_NO_TRACE=1: the fpga tracepoints compiled out
# (<linux/tracepoint.h> honours NOTRACE), the overhead baseline
ifeq ($(FPGA_NO_TRACE),1)
ccflags-y += -DNOTRACE
endif
