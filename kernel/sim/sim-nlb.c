// SPDX-License-Identifier: GPL-2.0-only
/*
 * The NLB0 loopback AFU of the simulated card (OPAE hello_fpga CSR map).
 *
 * When CTL reads RESET_N | START the model copies NUM_LINES 64-byte lines
 * from IOVA SRC_ADDR * 64 to DST_ADDR * 64 through the port's IOMMU domain, then
 * writes the DSM: DSM + 0x48 = clocks taken, then DSM + 0x40 = 1 (done).
 * START clears itself when a run ends (CTL reads RESET_N), before the DSM
 * says done: the model only sees register values, and this way a new
 * CTL = 3 is always a change it notices, however fast software writes the
 * 7 / 0 / 1 / 3 sequence of the next run.
 *
 * Any address that does not translate is a DMA fault: the run stops where
 * it is, nothing more is written (no DSM), and the port reports
 * PORT_ERR_DMA_FAULT.  Pulling the port's soft reset or removing the card
 * aborts a run between chunks, without a DSM write.
 *
 * The DMA counters count the copy only: bytes and lines read from the
 * source and written to the destination (equal, whole lines).  The DSM
 * write is status, not data, and is not counted.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/overflow.h>

#include "sim.h"
#include "sim_trace.h"

#define FPGA_SIM_NLB_RUN	(NLB_CTL_RESET_N | NLB_CTL_START)

/* The copy: 0, -EFAULT (DMA fault) or -EINTR (aborted); *@copied bytes */
static int fpga_sim_nlb_copy(struct fpga_sim *sim, unsigned int n,
			     u64 src_line, u64 dst_line, u64 lines, u64 *copied)
{
	struct fpga_sim_dma_xfer x = {
		.op = FPGA_SIM_DMA_COPY, .lines = lines,
		.ctl = sim->ports[n].afu + NLB_CTL, .run = FPGA_SIM_NLB_RUN,
	};
	int ret;

	/* An address that does not fit in 64 bits cannot translate */
	if (check_mul_overflow(src_line, (u64)NLB_CACHE_LINE, &x.src) ||
	    check_mul_overflow(dst_line, (u64)NLB_CACHE_LINE, &x.dst))
		return -EFAULT;
	ret = fpga_sim_dma_xfer(sim, n, &x);
	*copied = x.bytes;
	return ret;
}

/* The DSM line: clocks first, so that whoever sees "done" sees them too */
static int fpga_sim_nlb_dsm(struct fpga_sim *sim, unsigned int n, u64 dsm,
			    u64 clocks)
{
	/* Clocks before done: software polls done, then reads clocks */
	const struct fpga_sim_dsm_word w[] = {
		{ NLB_DSM_CLOCKS, clocks },
		{ NLB_DSM_STATUS, 1 },
	};

	return fpga_sim_dma_dsm(sim, n, dsm, w, ARRAY_SIZE(w));
}

static void fpga_sim_nlb_run(struct fpga_sim *sim, unsigned int n)
{
	struct fpga_sim_port *port = &sim->ports[n];
	size_t afu = port->afu;
	u64 src = fpga_sim_read(sim, afu + NLB_SRC_ADDR);
	u64 dst = fpga_sim_read(sim, afu + NLB_DST_ADDR);
	u64 lines = fpga_sim_read(sim, afu + NLB_NUM_LINES);
	ktime_t start = ktime_get();
	u64 copied = 0, clocks;
	int ret = -EFAULT;

	trace_engine_start(sim, n, src, dst, lines);
	fpga_sim_write(sim, afu + NLB_STATUS1, 1);
	if (!xchg(&port->fail_dma, false))
		ret = fpga_sim_nlb_copy(sim, n, src, dst, lines, &copied);
	/* Before software can see the end (START clear, DSM): in order */
	trace_engine_complete(sim, n, lines, copied, ret, start);
	clocks = fpga_sim_afu_busy(sim, n, start);
	/* The run is over (unless software aborted it): START self-clears */
	if (ret != -EINTR)
		fpga_sim_update(sim, afu + NLB_CTL, FPGA_SIM_NLB_RUN,
				NLB_CTL_RESET_N);
	/* Idle before the DSM says done: software reads STATUS1 after it */
	fpga_sim_write(sim, afu + NLB_STATUS1, 0);
	if (!ret)
		ret = fpga_sim_nlb_dsm(sim, n,
				       fpga_sim_read(sim, afu + NLB_DSM_BASEL),
				       clocks);

	if (ret == -EFAULT)
		fpga_sim_dma_fault(sim, n);
	else if (!ret &&
		 (fpga_sim_read(sim, afu + NLB_CFG) & NLB_CFG_IRQ_ON_DONE))
		fpga_sim_irq_raise(sim, FPGA_SIM_PORT_UINT_VEC(n, 0));
}

/* NLB_DOORBELL: taken atomically, then each BIT(k) raises user IRQ k */
static bool fpga_sim_nlb_doorbell(struct fpga_sim *sim, unsigned int n)
{
	size_t ofs = sim->ports[n].afu + NLB_DOORBELL;
	u64 v = fpga_sim_read(sim, ofs);
	unsigned int k;

	if (!v)
		return false;
	if (!fpga_sim_update(sim, ofs, v, 0))
		return true;	/* another store: next pass */
	for (k = 0; k < FPGA_SIM_NUM_UINT; k++)
		if (v & BIT_ULL(k))
			fpga_sim_irq_raise(sim, FPGA_SIM_PORT_UINT_VEC(n, k));
	return true;
}

/* What software wrote to port @n's NLB0 (port out of reset) */
static bool fpga_sim_nlb_step(struct fpga_sim *sim, unsigned int n)
{
	bool busy = fpga_sim_nlb_doorbell(sim, n);

	if (fpga_sim_read(sim, sim->ports[n].afu + NLB_CTL) != FPGA_SIM_NLB_RUN)
		return busy;
	fpga_sim_nlb_run(sim, n);
	return true;
}

/* Port @n's soft reset: the AFU returns to idle */
static void fpga_sim_nlb_reset(struct fpga_sim *sim, unsigned int n)
{
	struct fpga_sim_port *port = &sim->ports[n];

	fpga_sim_take(sim, port->afu + NLB_CTL);
	fpga_sim_take(sim, port->afu + NLB_DOORBELL);
	fpga_sim_write(sim, port->afu + NLB_STATUS1, 0);
}

const struct fpga_sim_afu_model fpga_sim_nlb0_model = {
	.name	= "nlb0",
	.guid_h	= NLB0_AFU_GUID_H,
	.guid_l	= NLB0_AFU_GUID_L,
	.step	= fpga_sim_nlb_step,
	.reset	= fpga_sim_nlb_reset,
};
