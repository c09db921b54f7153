// SPDX-License-Identifier: GPL-2.0-only
/*
 * The NLB3 AFU of the simulated card: what OPAE's fpgadiag drives in its
 * read, write and trput modes (its nlb3 program).  NLB0's registers and
 * DSM, with CFG's test mode and continuous bit, and counters in the DSM.
 *
 * When CTL reads RESET_N | START a run begins, in the mode of CFG bits 4:2:
 * lpbk1 copies NUM_LINES lines from SRC_ADDR * 64 to DST_ADDR * 64, read
 * reads them from the source, write writes them to the destination (each
 * word of line i holds i), trput does both.  Without CFG_CONT the run is
 * one pass; with it, passes follow each other until CTL reads
 * RESET_N | START | STOP, which also ends a run early.  At the end START
 * clears itself (unless STOP is there) and the DSM is written: clocks,
 * lines read and written (u32 each), no overhead, then done.  Another
 * mode ends the run at once with DSM test_error 1.
 *
 * DMA faults, aborts (any other CTL, the port's soft reset) and the
 * counter bank are NLB0's (sim-dma.c).  STRIDED_ACS and CFG's cache and
 * channel hints are not modelled: lines are contiguous.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>

#include "afu-regs.h"
#include "sim.h"

#define FPGA_SIM_NLB3_RUN	(NLB_CTL_RESET_N | NLB_CTL_START)

/* Clocks and counters first: software polls done, then reads them */
static int fpga_sim_nlb3_end(struct fpga_sim *sim, unsigned int n,
			     const struct fpga_sim_dma_xfer *x, u64 clocks,
			     u32 err)
{
	struct fpga_sim_dsm_word w[] = {
		{ NLB_DSM_CLOCKS, clocks },
		{ NLB_DSM_NUM_READS, 0 },
		{ NLB_DSM_OVERHEAD, 0 },
		{ NLB_DSM_STATUS, 1 | (u64)err << 32 },
	};
	u64 rd, wr;

	fpga_sim_dma_lines(x, &rd, &wr);
	w[1].val = lower_32_bits(rd) | (u64)lower_32_bits(wr) << 32;
	return fpga_sim_dma_dsm(sim, n, fpga_sim_read(sim, sim->ports[n].afu +
						      NLB_DSM_BASEL),
				w, ARRAY_SIZE(w));
}

static const struct fpga_sim_dma_test fpga_sim_nlb3_test = {
	.stop	= FPGA_SIM_NLB3_RUN | NLB_CTL_STOP,
	.end	= fpga_sim_nlb3_end,
};

/* What software wrote to port @n's NLB3 (port out of reset) */
static bool fpga_sim_nlb3_step(struct fpga_sim *sim, unsigned int n)
{
	return fpga_sim_dma_test_step(sim, n, &fpga_sim_nlb3_test);
}

/* fpgadiag's bandwidth: DSM clocks at this rate */
static void fpga_sim_nlb3_layout(struct fpga_sim *sim, unsigned int n)
{
	fpga_sim_write(sim, sim->ports[n].afu + NLB_STATUS2,
		       FIELD_PREP(NLB_STATUS2_FREQ_MHZ, FPGA_SIM_CLOCK_MHZ));
}

const struct fpga_sim_afu_model fpga_sim_nlb3_model = {
	.name	= "nlb3",
	.guid_h	= NLB3_AFU_GUID_H,
	.guid_l	= NLB3_AFU_GUID_L,
	.layout	= fpga_sim_nlb3_layout,
	.step	= fpga_sim_nlb3_step,
	.reset	= fpga_sim_dma_test_reset,
};
