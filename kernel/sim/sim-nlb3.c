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
#include <linux/overflow.h>

#include "afu-regs.h"
#include "sim.h"
#include "sim_trace.h"

#define FPGA_SIM_NLB3_RUN	(NLB_CTL_RESET_N | NLB_CTL_START)
#define FPGA_SIM_NLB3_STOP	(FPGA_SIM_NLB3_RUN | NLB_CTL_STOP)

/* Clocks and counters first: software polls done, then reads them */
static int fpga_sim_nlb3_dsm(struct fpga_sim *sim, unsigned int n,
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

/* The run: passes of the mode's transfer, then the DSM */
static void fpga_sim_nlb3_run(struct fpga_sim *sim, unsigned int n)
{
	struct fpga_sim_port *port = &sim->ports[n];
	size_t afu = port->afu;
	u64 cfg = fpga_sim_read(sim, afu + NLB_CFG);
	u64 src = fpga_sim_read(sim, afu + NLB_SRC_ADDR);
	u64 dst = fpga_sim_read(sim, afu + NLB_DST_ADDR);
	struct fpga_sim_dma_xfer x = {
		.lines = fpga_sim_read(sim, afu + NLB_NUM_LINES),
		.ctl = afu + NLB_CTL, .run = FPGA_SIM_NLB3_RUN,
		.cont = cfg & NLB_CFG_CONT,
	};
	ktime_t start = ktime_get();
	bool bad_mode;
	int ret = -EFAULT;

	trace_engine_start(sim, n, src, dst, x.lines);
	fpga_sim_write(sim, afu + NLB_STATUS1, 1);
	bad_mode = fpga_sim_dma_mode(FIELD_GET(NLB_CFG_MODE, cfg), &x.op);
	if (bad_mode)
		ret = 0;
	else if (!xchg(&port->fail_dma, false) &&
		 !check_mul_overflow(src, (u64)NLB_CACHE_LINE, &x.src) &&
		 !check_mul_overflow(dst, (u64)NLB_CACHE_LINE, &x.dst))
		ret = fpga_sim_dma_xfer(sim, n, &x);
	trace_engine_complete(sim, n, x.lines, x.bytes, ret, start);
	/* STOP ends a run as its last line would */
	if (ret == -EINTR &&
	    fpga_sim_dma_stopped(sim, n, afu + NLB_CTL, FPGA_SIM_NLB3_STOP))
		ret = 0;
	if (ret != -EINTR)
		fpga_sim_update(sim, afu + NLB_CTL, FPGA_SIM_NLB3_RUN,
				NLB_CTL_RESET_N);
	if (!ret)
		ret = fpga_sim_nlb3_dsm(sim, n, &x,
					fpga_sim_cntr_clocks(sim, start),
					bad_mode);
	fpga_sim_write(sim, afu + NLB_STATUS1, 0);
	if (ret == -EFAULT)
		fpga_sim_dma_fault(sim, n);
}

/* What software wrote to port @n's NLB3 (port out of reset) */
static bool fpga_sim_nlb3_step(struct fpga_sim *sim, unsigned int n)
{
	if (fpga_sim_read(sim, sim->ports[n].afu + NLB_CTL) !=
	    FPGA_SIM_NLB3_RUN)
		return false;
	fpga_sim_nlb3_run(sim, n);
	return true;
}

/* Port @n's soft reset: the AFU returns to idle */
static void fpga_sim_nlb3_reset(struct fpga_sim *sim, unsigned int n)
{
	size_t afu = sim->ports[n].afu;

	fpga_sim_take(sim, afu + NLB_CTL);
	fpga_sim_write(sim, afu + NLB_STATUS1, 0);
}

/* The AFU header (an AFU DFH, the end of the port's list) and its clock */
static void fpga_sim_nlb3_layout(struct fpga_sim *sim, unsigned int n)
{
	size_t afu = sim->ports[n].afu;

	fpga_sim_write(sim, afu + DFH, fpga_sim_dfh(DFH_TYPE_AFU, 0, 0, true));
	fpga_sim_write(sim, afu + DFH_GUID_L, NLB3_AFU_GUID_L);
	fpga_sim_write(sim, afu + DFH_GUID_H, NLB3_AFU_GUID_H);
	/* fpgadiag's bandwidth: DSM clocks at this rate */
	fpga_sim_write(sim, afu + NLB_STATUS2,
		       FIELD_PREP(NLB_STATUS2_FREQ_MHZ, FPGA_SIM_CLOCK_MHZ));
}

const struct fpga_sim_afu_model fpga_sim_nlb3_model = {
	.name	= "nlb3",
	.guid_h	= NLB3_AFU_GUID_H,
	.guid_l	= NLB3_AFU_GUID_L,
	.layout	= fpga_sim_nlb3_layout,
	.step	= fpga_sim_nlb3_step,
	.reset	= fpga_sim_nlb3_reset,
};
