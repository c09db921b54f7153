// SPDX-License-Identifier: GPL-2.0-only
/*
 * HE-LB, OFS's host exerciser loopback, on the simulated card: the CSR map
 * OPAE's host_exerciser drives (lpbk, read, write and trput, once or
 * continuously, with or without an interrupt at the end).
 *
 * Unlike NLB's, its addresses are all cache-line addresses, DSM included,
 * and NUM_LINES is one less than the lines to move.  When CTL reads
 * RESET_N | START a run begins in the mode of CFG bits 4:2 (NLB3's modes,
 * sim-dma.c); with CFG_CONT passes follow each other until CTL reads
 * RESET_N | FORCE_CMPL, which also ends a run early.  At the end START
 * clears itself, STATUS0 holds the lines written and read, and the DSM is
 * written: ticks and the 40-bit counts, then done.  With CFG_INTR_TEST
 * the run then raises the user interrupt INTERRUPT0 names.  Another mode
 * ends the run at once with error 1 in the DSM and in HE_ERROR.
 *
 * INFO0 says: API version 1, no atomics, the counter bank's clock.
 * Request lengths, delays and interleaving are accepted and change
 * nothing; DMA faults, aborts and counting are NLB0's (sim-dma.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/overflow.h>

#include "afu-regs.h"
#include "sim.h"

#define FPGA_SIM_HE_RUN		(HE_CTL_RESET_N | HE_CTL_START)
#define FPGA_SIM_HE_STOP	(HE_CTL_RESET_N | HE_CTL_FORCE_CMPL)
#define FPGA_SIM_HE_API		1

/* Counters first: software polls done, then reads them */
static int fpga_sim_he_dsm(struct fpga_sim *sim, unsigned int n, u64 dsm,
			   u64 rd, u64 wr, u64 ticks, u32 err)
{
	const struct fpga_sim_dsm_word w[] = {
		{ HE_DSM_TICKS, FIELD_PREP(HE_DSM_TICKS_NUM, ticks) |
				FIELD_PREP(HE_DSM_READS_H, rd >> 32) |
				FIELD_PREP(HE_DSM_WRITES_H, wr >> 32) },
		{ HE_DSM_COUNTS, FIELD_PREP(HE_DSM_READS_L, lower_32_bits(rd)) |
				 FIELD_PREP(HE_DSM_WRITES_L, lower_32_bits(wr)) },
		{ HE_DSM_PENALTY, 0 },
		{ HE_DSM_STATUS, HE_DSM_DONE | FIELD_PREP(HE_DSM_ERR, err) },
	};

	if (check_mul_overflow(dsm, (u64)NLB_CACHE_LINE, &dsm))
		return -EFAULT;
	return fpga_sim_dma_dsm(sim, n, dsm, w, ARRAY_SIZE(w));
}

/* The end of a run: status, DSM, then the interrupt software asked for */
static int fpga_sim_he_end(struct fpga_sim *sim, unsigned int n,
			   const struct fpga_sim_dma_xfer *x, u64 ticks,
			   u32 err)
{
	size_t afu = sim->ports[n].afu;
	unsigned int vec;
	u64 rd, wr;
	int ret;

	fpga_sim_dma_lines(x, &rd, &wr);
	fpga_sim_write(sim, afu + HE_STATUS0,
		       FIELD_PREP(HE_STATUS0_WRITES, lower_32_bits(wr)) |
		       FIELD_PREP(HE_STATUS0_READS, lower_32_bits(rd)));
	fpga_sim_write(sim, afu + HE_ERROR, err);
	ret = fpga_sim_he_dsm(sim, n, fpga_sim_read(sim, afu + HE_DSM_BASE),
			      rd, wr, ticks, err);
	if (ret || !(fpga_sim_read(sim, afu + HE_CFG) & HE_CFG_INTR_TEST))
		return ret;
	vec = FIELD_GET(HE_INTERRUPT0_VECTOR,
			fpga_sim_read(sim, afu + HE_INTERRUPT0));
	if (vec < FPGA_SIM_NUM_UINT)
		fpga_sim_irq_raise(sim, FPGA_SIM_PORT_UINT_VEC(n, vec));
	return 0;
}

static const struct fpga_sim_dma_test fpga_sim_he_test = {
	.stop		= FPGA_SIM_HE_STOP,
	.lines_from_0	= true,
	.end		= fpga_sim_he_end,
};

/* What software wrote to port @n's HE-LB (port out of reset) */
static bool fpga_sim_he_step(struct fpga_sim *sim, unsigned int n)
{
	/* STATUS0 is of the last run */
	if (fpga_sim_read(sim, sim->ports[n].afu + HE_CTL) == FPGA_SIM_HE_RUN)
		fpga_sim_write(sim, sim->ports[n].afu + HE_STATUS0, 0);
	return fpga_sim_dma_test_step(sim, n, &fpga_sim_he_test);
}

/* INFO0: what host_exerciser may ask of this HE-LB */
static void fpga_sim_he_layout(struct fpga_sim *sim, unsigned int n)
{
	fpga_sim_write(sim, sim->ports[n].afu + HE_INFO0,
		       FIELD_PREP(HE_INFO0_FREQ_MHZ, FPGA_SIM_CLOCK_MHZ) |
		       FIELD_PREP(HE_INFO0_API, FPGA_SIM_HE_API) |
		       HE_INFO0_NO_ATOMICS);
}

const struct fpga_sim_afu_model fpga_sim_he_lb_model = {
	.name	= "he-lb",
	.guid_h	= HE_LB_AFU_GUID_H,
	.guid_l	= HE_LB_AFU_GUID_L,
	.layout	= fpga_sim_he_layout,
	.step	= fpga_sim_he_step,
	.reset	= fpga_sim_dma_test_reset,
};
