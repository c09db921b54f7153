/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The register maps of the simulated card's AFUs beyond NLB0 (nlb_util.h),
 * for the selftests: NLB3, which fpgadiag's read/write/trput modes drive,
 * and OFS's HE-LB, which host_exerciser drives.  The kernel has its copy
 * in kernel/sim/afu-regs.h: change both together.
 */
#ifndef _FPGA_SELFTEST_AFU_MODELS_H
#define _FPGA_SELFTEST_AFU_MODELS_H

#include <stdint.h>

#include "nlb_util.h"

/* As bitstreams name them, and as sysfs afu_id prints them */
#define NLB3_ID			"f7df405c-bd7a-cf72-22f1-44b0b93acd18"
#define NLB3_AFU_ID		"f7df405cbd7acf7222f144b0b93acd18"
#define HE_LB_ID		"56e203e9-864f-49a7-b94b-12284c31e02b"
#define HE_LB_AFU_ID		"56e203e9864f49a7b94b12284c31e02b"

/* Test modes of CFG bits 4:2, NLB3's and HE-LB's alike */
#define AFU_MODE_LPBK1		0
#define AFU_MODE_READ		1
#define AFU_MODE_WRITE		2
#define AFU_MODE_TRPUT		3
#define AFU_CFG_MODE(m)		((uint64_t)(m) << 2)
#define AFU_CFG_CONT		(1u << 1)

/* NLB3: NLB0's registers and DSM, plus these */
#define NLB_STATUS2		0x170	/* bits 47:32: clock in MHz */
#define NLB_DSM_ERROR		0x44	/* u32 */
#define NLB_DSM_NUM_READS	0x50	/* u32, lines */
#define NLB_DSM_NUM_WRITES	0x54	/* u32, lines */

/* HE-LB: addresses in cache lines, NUM_LINES one less than the lines */
#define HE_DSM_BASE		0x110
#define HE_SRC_ADDR		0x120
#define HE_DST_ADDR		0x128
#define HE_NUM_LINES		0x130
#define HE_CTL			0x138
#define HE_CTL_RESET_N		0x1
#define HE_CTL_START		0x2
#define HE_CTL_FORCE_CMPL	0x4
#define HE_CFG			0x140
#define HE_CFG_INTR_TEST	(1u << 29)
#define HE_INTERRUPT0		0x150	/* bits 31:16: user interrupt */
#define HE_STATUS0		0x160	/* writes 31:0, reads 63:32 */
#define HE_STATUS1		0x168
#define HE_ERROR		0x170
#define HE_INFO0		0x180	/* MHz 15:0, API 23:16, no atomics 24 */
/* Its DSM */
#define HE_DSM_STATUS		0x00	/* bit 0 done, 63:32 error */
#define HE_DSM_TICKS		0x08	/* 39:0, reads 55:48, writes 63:56 */
#define HE_DSM_COUNTS		0x10	/* reads 31:0, writes 63:32 */

/* HE-LB's counts from its DSM */
static inline uint64_t he_dsm_reads(volatile uint64_t *dsm)
{
	return ((dsm[HE_DSM_TICKS / 8] >> 48) & 0xff) << 32 |
	       (dsm[HE_DSM_COUNTS / 8] & 0xffffffff);
}

static inline uint64_t he_dsm_writes(volatile uint64_t *dsm)
{
	return (dsm[HE_DSM_TICKS / 8] >> 56) << 32 |
	       dsm[HE_DSM_COUNTS / 8] >> 32;
}

/*
 * Start HE-LB in CFG @cfg over @lines lines, as host_exerciser does: NLB0's
 * sequence (NLB3 takes NLB0's: nlb_start()) with the DSM's address in
 * cache lines, and one line less in NUM_LINES
 */
static inline void he_start(volatile uint64_t *afu, uint64_t dsm,
			    uint64_t src, uint64_t dst, uint64_t lines,
			    uint64_t cfg)
{
	nlb_start(afu, dsm / NLB_CACHE_LINE, src, dst, lines - 1, cfg);
}

/* Wait for bit 0 of DSM word @ofs; 0, or -ETIMEDOUT after @timeout_ms */
static inline int dsm_wait(volatile uint64_t *dsm, unsigned int ofs,
			   double timeout_ms)
{
	double end = now_ms() + timeout_ms;

	while (!(dsm[ofs / 8] & 1)) {
		if (now_ms() > end)
			return -ETIMEDOUT;
		usleep(50);
	}
	return 0;
}

#endif /* _FPGA_SELFTEST_AFU_MODELS_H */
