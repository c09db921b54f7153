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

#include <linux/highmem.h>
#include <linux/kthread.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "sim.h"
#include "sim_trace.h"

#define FPGA_SIM_NLB_RUN	(NLB_CTL_RESET_N | NLB_CTL_START)
/* Bytes copied per hold of the IOMMU lock: bounds the wait of an unmap */
#define FPGA_SIM_NLB_CHUNK	SZ_1M

/* Software stopped the run, reset the port, or the card is going away */
static bool fpga_sim_nlb_aborted(struct fpga_sim *sim, unsigned int n)
{
	struct fpga_sim_port *port = &sim->ports[n];

	return kthread_should_stop() ||
	       fpga_sim_read(sim, port->afu + NLB_CTL) != FPGA_SIM_NLB_RUN ||
	       (fpga_sim_read(sim, port->hdr + PORT_HDR_CTRL) & PORT_CTRL_SFTRST);
}

static void fpga_sim_nlb_count(struct fpga_sim *sim, unsigned int n, u64 bytes)
{
	fpga_sim_cntr_add(sim, n, CNTR_EVT_DMA_RD_BYTES, bytes);
	fpga_sim_cntr_add(sim, n, CNTR_EVT_DMA_RD_LINES, bytes / NLB_CACHE_LINE);
	fpga_sim_cntr_add(sim, n, CNTR_EVT_DMA_WR_BYTES, bytes);
	fpga_sim_cntr_add(sim, n, CNTR_EVT_DMA_WR_LINES, bytes / NLB_CACHE_LINE);
}

/*
 * Copy whole 64-byte lines, one line per iteration with plain 64-bit
 * moves, which is what the hardware does.  Neither memcpy() nor
 * copy_page(): both become "rep movs", which QEMU's TCG emulates a few
 * bytes at a time, several times slower than plain moves in the test VM.
 * A line is loaded whole, then stored: TCG finds addresses in a
 * direct-mapped TLB, where a source and a destination page a multiple of
 * its size apart (transparent huge pages often are) evict each other;
 * loads and stores in turns paid that on every word, and such a boot
 * copied 10x slower than with the destination one page further on.
 */
static void fpga_sim_nlb_copy_lines(void *dst, const void *src, size_t len)
{
	const u64 *s = src;
	u64 *d = dst;
	size_t i;

	for (i = 0; i < len / sizeof(u64); i += NLB_CACHE_LINE / sizeof(u64)) {
		u64 w0 = s[i + 0], w1 = s[i + 1], w2 = s[i + 2], w3 = s[i + 3];
		u64 w4 = s[i + 4], w5 = s[i + 5], w6 = s[i + 6], w7 = s[i + 7];

		d[i + 0] = w0;
		d[i + 1] = w1;
		d[i + 2] = w2;
		d[i + 3] = w3;
		d[i + 4] = w4;
		d[i + 5] = w5;
		d[i + 6] = w6;
		d[i + 7] = w7;
	}
}

/* Copy up to @len bytes between the cursors; bytes copied, short on fault */
static u64 fpga_sim_nlb_chunk(struct fpga_sim_iommu *mmu,
			      struct fpga_sim_dma_cursor *src,
			      struct fpga_sim_dma_cursor *dst, u64 len)
{
	u64 done = 0;

	while (done < len) {
		struct page *sp, *dp;
		size_t so, doff, step;
		void *s, *d;

		sp = fpga_sim_dma_page(mmu, src, false, &so);
		dp = sp ? fpga_sim_dma_page(mmu, dst, true, &doff) : NULL;
		if (!dp)
			break;
		step = min3(len - done, PAGE_SIZE - so, PAGE_SIZE - doff);
		s = kmap_local_page(sp);
		d = kmap_local_page(dp);
		fpga_sim_nlb_copy_lines(d + doff, s + so, step);
		kunmap_local(d);
		kunmap_local(s);
		src->iova += step;
		dst->iova += step;
		done += step;
	}
	return done;
}

/* The copy: 0, -EFAULT (DMA fault) or -EINTR (aborted); *@copied bytes */
static int fpga_sim_nlb_copy(struct fpga_sim *sim, unsigned int n,
			     u64 src_line, u64 dst_line, u64 lines, u64 *copied)
{
	struct fpga_sim_iommu *mmu = sim->ports[n].iommu;
	struct fpga_sim_dma_cursor src = { }, dst = { };
	u64 left, end;

	/* An address that does not fit in 64 bits cannot translate */
	if (check_mul_overflow(src_line, (u64)NLB_CACHE_LINE, &src.iova) ||
	    check_mul_overflow(dst_line, (u64)NLB_CACHE_LINE, &dst.iova) ||
	    check_mul_overflow(lines, (u64)NLB_CACHE_LINE, &left) ||
	    check_add_overflow(src.iova, left, &end) ||
	    check_add_overflow(dst.iova, left, &end))
		return -EFAULT;

	while (left) {
		u64 len = min_t(u64, left, FPGA_SIM_NLB_CHUNK), done;

		if (fpga_sim_nlb_aborted(sim, n))
			return -EINTR;
		fpga_sim_dma_begin(mmu);
		src.map = NULL;
		dst.map = NULL;
		done = fpga_sim_nlb_chunk(mmu, &src, &dst, len);
		fpga_sim_dma_end(mmu);

		fpga_sim_nlb_count(sim, n, done);
		*copied += done;
		fpga_sim_cntr_tick(sim);
		if (done < len)
			return -EFAULT;
		left -= len;
		/* The model may not sleep between runs (sim-card.c) */
		cond_resched_tasks_rcu_qs();
	}
	return 0;
}

/* Store one naturally aligned u64 at IOVA @iova */
static int fpga_sim_nlb_store(struct fpga_sim_iommu *mmu, u64 iova, u64 val)
{
	struct fpga_sim_dma_cursor cur = { .iova = iova };
	struct page *page;
	size_t ofs;
	void *p;

	if (!IS_ALIGNED(iova, sizeof(u64)))
		return -EFAULT;
	page = fpga_sim_dma_page(mmu, &cur, true, &ofs);
	if (!page)
		return -EFAULT;
	p = kmap_local_page(page);
	WRITE_ONCE(*(u64 *)(p + ofs), val);
	kunmap_local(p);
	return 0;
}

/* The DSM line: clocks first, so that whoever sees "done" sees them too */
static int fpga_sim_nlb_dsm(struct fpga_sim_iommu *mmu, u64 dsm, u64 clocks)
{
	u64 iova;
	int ret;

	if (check_add_overflow(dsm, (u64)NLB_DSM_CLOCKS, &iova))
		return -EFAULT;
	fpga_sim_dma_begin(mmu);
	ret = fpga_sim_nlb_store(mmu, iova, clocks);
	if (!ret) {
		/* Clocks before done: software polls done, then reads clocks */
		smp_wmb();
		ret = fpga_sim_nlb_store(mmu, dsm + NLB_DSM_STATUS, 1);
	}
	fpga_sim_dma_end(mmu);
	return ret;
}

static void fpga_sim_nlb_run(struct fpga_sim *sim, unsigned int n)
{
	struct fpga_sim_port *port = &sim->ports[n];
	size_t afu = port->afu;
	u64 src = fpga_sim_read(sim, afu + NLB_SRC_ADDR);
	u64 dst = fpga_sim_read(sim, afu + NLB_DST_ADDR);
	u64 lines = fpga_sim_read(sim, afu + NLB_NUM_LINES);
	ktime_t start = ktime_get();
	u64 copied = 0;
	int ret = -EFAULT;

	trace_engine_start(sim, n, src, dst, lines);
	fpga_sim_write(sim, afu + NLB_STATUS1, 1);
	if (!xchg(&port->fail_dma, false))
		ret = fpga_sim_nlb_copy(sim, n, src, dst, lines, &copied);
	/* Before software can see the end (START clear, DSM): in order */
	trace_engine_complete(sim, n, lines, copied, ret, start);
	/* The run is over (unless software aborted it): START self-clears */
	if (ret != -EINTR)
		fpga_sim_update(sim, afu + NLB_CTL, FPGA_SIM_NLB_RUN,
				NLB_CTL_RESET_N);
	if (!ret)
		ret = fpga_sim_nlb_dsm(port->iommu,
				       fpga_sim_read(sim, afu + NLB_DSM_BASEL),
				       fpga_sim_cntr_clocks(sim, start));
	fpga_sim_write(sim, afu + NLB_STATUS1, 0);

	if (ret == -EFAULT) {
		fpga_sim_cntr_add(sim, n, CNTR_EVT_DMA_FAULTS, 1);
		fpga_sim_error_raise(sim, n, PORT_ERR_DMA_FAULT);
	} else if (!ret &&
		   (fpga_sim_read(sim, afu + NLB_CFG) & NLB_CFG_IRQ_ON_DONE)) {
		fpga_sim_irq_raise(sim, FPGA_SIM_PORT_UINT_VEC(n, 0));
	}
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

/* The AFU header: an AFU DFH, the end of the port's list */
static void fpga_sim_nlb_layout(struct fpga_sim *sim, unsigned int n)
{
	size_t afu = sim->ports[n].afu;

	fpga_sim_write(sim, afu + DFH, fpga_sim_dfh(DFH_TYPE_AFU, 0, 0, true));
	fpga_sim_write(sim, afu + DFH_GUID_L, NLB0_AFU_GUID_L);
	fpga_sim_write(sim, afu + DFH_GUID_H, NLB0_AFU_GUID_H);
}

const struct fpga_sim_afu_model fpga_sim_nlb0_model = {
	.name	= "nlb0",
	.guid_h	= NLB0_AFU_GUID_H,
	.guid_l	= NLB0_AFU_GUID_L,
	.layout	= fpga_sim_nlb_layout,
	.step	= fpga_sim_nlb_step,
	.reset	= fpga_sim_nlb_reset,
};
