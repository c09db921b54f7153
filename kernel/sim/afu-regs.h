/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Register maps of the simulated card's AFUs beyond NLB0 (whose map, which
 * NLB3 extends, is in <fpga-suite/dfl-regs.h>): NLB3, what OPAE's fpgadiag
 * drives in its read, write and trput modes, and OFS's HE-LB, what
 * host_exerciser drives.  User space has its copy in
 * selftests/lib/afu_models.h: change both together.  Offsets are from the
 * AFU; the CSRs are 64-bit registers.
 */
#ifndef _FPGA_SIM_AFU_REGS_H
#define _FPGA_SIM_AFU_REGS_H

#include <linux/bits.h>

/* NLB3: NLB0's registers and DSM, with test modes and counters */
#define NLB3_AFU_GUID_H			0xf7df405cbd7acf72ULL
#define NLB3_AFU_GUID_L			0x22f144b0b93acd18ULL
#define NLB_CFG_CONT			BIT_ULL(1)	/* until CTL STOP */
#define NLB_CFG_MODE			GENMASK_ULL(4, 2)
#define NLB_MODE_LPBK1			0
#define NLB_MODE_READ			1
#define NLB_MODE_WRITE			2
#define NLB_MODE_TRPUT			3
#define NLB_STATUS2			0x170
#define NLB_STATUS2_FREQ_MHZ		GENMASK_ULL(47, 32)
#define NLB_STRIDED_ACS			0x178
/* In the DSM, beside NLB_DSM_STATUS and NLB_DSM_CLOCKS */
#define NLB_DSM_ERROR			0x44	/* u32: the test failed */
#define NLB_DSM_NUM_READS		0x50	/* u32: lines read */
#define NLB_DSM_NUM_WRITES		0x54	/* u32: lines written */
#define NLB_DSM_OVERHEAD		0x58	/* u32 start, u32 end: clocks */

/* HE-LB, OFS's host exerciser loopback */
#define HE_LB_AFU_GUID_H		0x56e203e9864f49a7ULL
#define HE_LB_AFU_GUID_L		0xb94b12284c31e02bULL
#define HE_DSM_BASE			0x110	/* cache-line address */
#define HE_SRC_ADDR			0x120	/* cache-line address */
#define HE_DST_ADDR			0x128	/* cache-line address */
#define HE_NUM_LINES			0x130	/* lines - 1, bits 31:0 */
#define HE_CTL				0x138
#define HE_CTL_RESET_N			BIT_ULL(0)
#define HE_CTL_START			BIT_ULL(1)
#define HE_CTL_FORCE_CMPL		BIT_ULL(2)
#define HE_CFG				0x140
#define HE_CFG_CONT			BIT_ULL(1)
#define HE_CFG_MODE			GENMASK_ULL(4, 2)	/* NLB_MODE_* */
#define HE_CFG_INTR_TEST		BIT_ULL(29)
#define HE_INTERRUPT0			0x150
#define HE_INTERRUPT0_VECTOR		GENMASK_ULL(31, 16)
#define HE_SWTEST_MSG			0x158
#define HE_STATUS0			0x160
#define HE_STATUS0_WRITES		GENMASK_ULL(31, 0)
#define HE_STATUS0_READS		GENMASK_ULL(63, 32)
#define HE_STATUS1			0x168	/* requests pending */
#define HE_ERROR			0x170
#define HE_INFO0			0x180
#define HE_INFO0_FREQ_MHZ		GENMASK_ULL(15, 0)
#define HE_INFO0_API			GENMASK_ULL(23, 16)
#define HE_INFO0_NO_ATOMICS		BIT_ULL(24)
/* The DSM, at HE_DSM_BASE * 64 */
#define HE_DSM_STATUS			0x00
#define HE_DSM_DONE			BIT_ULL(0)
#define HE_DSM_ERR			GENMASK_ULL(63, 32)
#define HE_DSM_TICKS			0x08
#define HE_DSM_TICKS_NUM		GENMASK_ULL(39, 0)
#define HE_DSM_READS_H			GENMASK_ULL(55, 48)
#define HE_DSM_WRITES_H			GENMASK_ULL(63, 56)
#define HE_DSM_COUNTS			0x10
#define HE_DSM_READS_L			GENMASK_ULL(31, 0)
#define HE_DSM_WRITES_L			GENMASK_ULL(63, 32)
#define HE_DSM_PENALTY			0x18

#endif /* _FPGA_SIM_AFU_REGS_H */
