/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Register map of the NLB0 loopback AFU (OPAE hello_fpga's CSRs) for user
 * code: libfpga, the selftests and benchmarks.  The kernel keeps its own
 * copy (kernel/include/fpga-suite/dfl-regs.h): change both together.
 * Offsets are in the AFU's MMIO region; the CSRs are 64-bit registers.
 */
#ifndef _FPGA_NLB0_H
#define _FPGA_NLB0_H

/* The AFU's GUID: the AFU header's GUID_H:GUID_L, sysfs afu_id */
#define NLB0_AFU_GUID_H		0xd8424dc4a4a3c413ULL
#define NLB0_AFU_GUID_L		0xf89e433683f9040bULL
#define NLB0_AFU_ID		"d8424dc4a4a3c413f89e433683f9040b"

#define NLB_DSM_BASEL		0x110	/* status memory, device address */
#define NLB_DSM_BASEH		0x114
#define NLB_SRC_ADDR		0x120	/* cache-line address */
#define NLB_DST_ADDR		0x128	/* cache-line address */
#define NLB_NUM_LINES		0x130
#define NLB_CTL			0x138
#define NLB_CTL_RESET_N		0x1
#define NLB_CTL_START		0x2
#define NLB_CTL_STOP		0x4
#define NLB_CFG			0x140
#define NLB_CFG_HELLO		0x42000	/* loopback mode, as hello_fpga */
#define NLB_STATUS1		0x168	/* requests still pending */

/* The DSM (device status memory), written by the AFU */
#define NLB_DSM_SIZE		4096
#define NLB_DSM_STATUS		0x40	/* bit 0 = done */
#define NLB_DSM_CLOCKS		0x48	/* run length */

#define NLB_CACHE_LINE		64

/* Extensions of the simulated NLB0 (fpga_sim and the PCI card model) */
#define NLB_CFG_IRQ_ON_DONE	(1u << 28)	/* user IRQ 0 when a run ends */
#define NLB_DOORBELL		0x180	/* write 1 << n: raise user IRQ n */
/* An AFU register the models ignore: plain memory, for MMIO tests */
#define NLB_SCRATCH		0x1000

#endif /* _FPGA_NLB0_H */
