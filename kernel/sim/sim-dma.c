// SPDX-License-Identifier: GPL-2.0-only
/*
 * The DMA engine the simulated card's AFUs share: whole 64-byte lines
 * read, written or copied through the port's IOMMU domain, 1 MiB per hold
 * of the IOMMU lock; naturally aligned u64 stores for a DSM (the status
 * line an AFU writes when a run ends); the abort check between chunks;
 * and the report of a DMA fault.  On top of it, the test engine NLB3 and
 * HE-LB share: their registers, test modes and continuous runs.
 *
 * Any address that does not translate is a DMA fault: the transfer stops
 * where it is and the caller writes nothing more.  The counter bank counts
 * what was read and written (bytes and lines, whole lines), not the DSM.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/highmem.h>
#include <linux/kthread.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "afu-regs.h"
#include "sim.h"
#include "sim_trace.h"

/* Bytes moved per hold of the IOMMU lock: bounds the wait of an unmap */
#define FPGA_SIM_DMA_CHUNK	SZ_1M
/* CTL of a test engine while it runs (NLB3's and HE-LB's bits alike) */
#define FPGA_SIM_DMA_TEST_RUN	(NLB_CTL_RESET_N | NLB_CTL_START)

/**
 * fpga_sim_dma_aborted() - software stopped the run, reset the port, or
 * the card is going away
 * @sim: the card
 * @n: the port
 * @ctl: offset of the AFU's control register
 * @run: the value it keeps while the run may go on
 *
 * Return: true if the run must end now.
 */
bool fpga_sim_dma_aborted(struct fpga_sim *sim, unsigned int n, size_t ctl,
			  u64 run)
{
	struct fpga_sim_port *port = &sim->ports[n];

	return kthread_should_stop() || fpga_sim_read(sim, ctl) != run ||
	       (fpga_sim_read(sim, port->hdr + PORT_HDR_CTRL) & PORT_CTRL_SFTRST);
}

static void fpga_sim_dma_count(struct fpga_sim *sim, unsigned int n,
			       const struct fpga_sim_dma_xfer *x, u64 bytes)
{
	if (x->op != FPGA_SIM_DMA_WRITE) {
		fpga_sim_cntr_add(sim, n, CNTR_EVT_DMA_RD_BYTES, bytes);
		fpga_sim_cntr_add(sim, n, CNTR_EVT_DMA_RD_LINES,
				  bytes / NLB_CACHE_LINE);
	}
	if (x->op != FPGA_SIM_DMA_READ) {
		fpga_sim_cntr_add(sim, n, CNTR_EVT_DMA_WR_BYTES, bytes);
		fpga_sim_cntr_add(sim, n, CNTR_EVT_DMA_WR_LINES,
				  bytes / NLB_CACHE_LINE);
	}
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
static void fpga_sim_dma_copy_lines(void *dst, const void *src, size_t len)
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

/* The write tests' data: every word of a line holds the line's index */
static void fpga_sim_dma_fill_lines(void *dst, size_t len, u64 line)
{
	u64 *d = dst;
	size_t i;

	for (i = 0; i < len / sizeof(u64); i++)
		d[i] = line + i / (NLB_CACHE_LINE / sizeof(u64));
}

/* Move up to @len bytes at the cursors; bytes moved, short on a fault */
static u64 fpga_sim_dma_chunk(struct fpga_sim_iommu *mmu,
			      const struct fpga_sim_dma_xfer *x,
			      struct fpga_sim_dma_cursor *src,
			      struct fpga_sim_dma_cursor *dst, u64 len)
{
	bool rd = x->op != FPGA_SIM_DMA_WRITE, wr = x->op != FPGA_SIM_DMA_READ;
	u64 done = 0;

	while (done < len) {
		struct page *sp = NULL, *dp = NULL;
		size_t so = 0, doff = 0, step = len - done;
		void *s, *d;

		if (rd) {
			sp = fpga_sim_dma_page(mmu, src, false, &so);
			if (!sp)
				break;
			step = min_t(size_t, step, PAGE_SIZE - so);
		}
		if (wr) {
			dp = fpga_sim_dma_page(mmu, dst, true, &doff);
			if (!dp)
				break;
			step = min_t(size_t, step, PAGE_SIZE - doff);
		}
		if (x->op == FPGA_SIM_DMA_COPY) {
			s = kmap_local_page(sp);
			d = kmap_local_page(dp);
			fpga_sim_dma_copy_lines(d + doff, s + so, step);
			kunmap_local(d);
			kunmap_local(s);
		} else if (wr) {
			/* Reads are translated and counted; nothing needs the data */
			d = kmap_local_page(dp);
			fpga_sim_dma_fill_lines(d + doff, step,
						(dst->iova - x->dst) / NLB_CACHE_LINE);
			kunmap_local(d);
		}
		src->iova += step;
		dst->iova += step;
		done += step;
	}
	return done;
}

/* One pass over @x->lines: 0, -EFAULT (DMA fault) or -EINTR (aborted) */
static int fpga_sim_dma_pass(struct fpga_sim *sim, unsigned int n,
			     struct fpga_sim_dma_xfer *x)
{
	struct fpga_sim_iommu *mmu = sim->ports[n].iommu;
	struct fpga_sim_dma_cursor src = { .iova = x->src };
	struct fpga_sim_dma_cursor dst = { .iova = x->dst };
	u64 left, end;

	/* An address that does not fit in 64 bits cannot translate */
	if (check_mul_overflow(x->lines, (u64)NLB_CACHE_LINE, &left) ||
	    check_add_overflow(x->src, left, &end) ||
	    check_add_overflow(x->dst, left, &end))
		return -EFAULT;

	while (left) {
		u64 len = min_t(u64, left, FPGA_SIM_DMA_CHUNK), done;

		if (fpga_sim_dma_aborted(sim, n, x->ctl, x->run))
			return -EINTR;
		fpga_sim_dma_begin(mmu);
		src.map = NULL;
		dst.map = NULL;
		done = fpga_sim_dma_chunk(mmu, x, &src, &dst, len);
		fpga_sim_dma_end(mmu);

		fpga_sim_dma_count(sim, n, x, done);
		x->bytes += done;
		fpga_sim_cntr_tick(sim);
		if (done < len)
			return -EFAULT;
		left -= len;
		fpga_sim_serve_handshakes(sim, n);
		/* The model may not sleep between runs (sim-card.c) */
		cond_resched_tasks_rcu_qs();
	}
	return 0;
}

/**
 * fpga_sim_dma_xfer() - port @n's DMA engine moves @x->lines
 * @sim: the card
 * @n: the port
 * @x: what to move; @x->bytes grows by what was moved
 *
 * One pass, or with @x->cont passes until the run is aborted.  Chunks of
 * 1 MiB, each under the IOMMU lock, with the abort check
 * (fpga_sim_dma_aborted() on @x->ctl and @x->run) before each and after
 * each pass, and cond_resched() after.
 *
 * Return: 0, -EFAULT (DMA fault) or -EINTR (aborted: the only end of a
 * continuous run).
 */
int fpga_sim_dma_xfer(struct fpga_sim *sim, unsigned int n,
		      struct fpga_sim_dma_xfer *x)
{
	int ret;

	do {
		ret = fpga_sim_dma_pass(sim, n, x);
		if (!ret && x->cont) {
			if (fpga_sim_dma_aborted(sim, n, x->ctl, x->run))
				return -EINTR;
			fpga_sim_serve_handshakes(sim, n);
			cond_resched_tasks_rcu_qs();
		}
	} while (!ret && x->cont);
	return ret;
}

/*
 * Software ended the run: a run fpga_sim_dma_aborted() cut short because
 * @ctl reads @stop ends as if it had completed (DSM and all), as a
 * continuous run ends
 */
static bool fpga_sim_dma_stopped(struct fpga_sim *sim, unsigned int n,
				 size_t ctl, u64 stop)
{
	u64 hdr_ctrl = fpga_sim_read(sim, sim->ports[n].hdr + PORT_HDR_CTRL);

	return !kthread_should_stop() && !(hdr_ctrl & PORT_CTRL_SFTRST) &&
	       fpga_sim_read(sim, ctl) == stop;
}

/* The transfer of a test mode NLB3 and HE-LB share; -EINVAL if not modelled */
static int fpga_sim_dma_mode(unsigned int mode, enum fpga_sim_dma_op *op)
{
	switch (mode) {
	case NLB_MODE_LPBK1:
		*op = FPGA_SIM_DMA_COPY;
		return 0;
	case NLB_MODE_READ:
		*op = FPGA_SIM_DMA_READ;
		return 0;
	case NLB_MODE_WRITE:
		*op = FPGA_SIM_DMA_WRITE;
		return 0;
	case NLB_MODE_TRPUT:
		*op = FPGA_SIM_DMA_TRPUT;
		return 0;
	}
	return -EINVAL;
}

/**
 * fpga_sim_dma_lines() - lines read and written so far
 * @x: the transfer
 * @rd: out: lines read
 * @wr: out: lines written
 */
void fpga_sim_dma_lines(const struct fpga_sim_dma_xfer *x, u64 *rd, u64 *wr)
{
	u64 lines = x->bytes / NLB_CACHE_LINE;

	*rd = x->op != FPGA_SIM_DMA_WRITE ? lines : 0;
	*wr = x->op != FPGA_SIM_DMA_READ ? lines : 0;
}

/* Store one naturally aligned u64 at IOVA @iova */
static int fpga_sim_dma_store(struct fpga_sim_iommu *mmu, u64 iova, u64 val)
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

static inline void fpga_sim_dma_wmb(void)
{
	/* The rest of a DSM before "done": software polls it, then reads */
	smp_wmb();
}

/**
 * fpga_sim_dma_dsm() - write a DSM: @num words at @dsm, in order
 * @sim: the card
 * @n: the port
 * @dsm: the DSM's IOVA
 * @w: the words; the last says "done"
 * @num: how many
 *
 * Every word but the last is visible before the last: software polls
 * "done", then reads the rest.
 *
 * Return: 0 or -EFAULT (DMA fault: the words before it were written).
 */
int fpga_sim_dma_dsm(struct fpga_sim *sim, unsigned int n, u64 dsm,
		     const struct fpga_sim_dsm_word *w, unsigned int num)
{
	struct fpga_sim_iommu *mmu = sim->ports[n].iommu;
	unsigned int i;
	int ret = 0;
	u64 iova;

	fpga_sim_dma_begin(mmu);
	for (i = 0; i < num && !ret; i++) {
		if (check_add_overflow(dsm, (u64)w[i].ofs, &iova)) {
			ret = -EFAULT;
			break;
		}
		if (i == num - 1)
			fpga_sim_dma_wmb();
		ret = fpga_sim_dma_store(mmu, iova, w[i].val);
	}
	fpga_sim_dma_end(mmu);
	return ret;
}

/**
 * fpga_sim_dma_test() - a run of NLB3's or HE-LB's test engine
 * @sim: the card
 * @n: the port
 * @t: what differs between the two
 *
 * Both have their source, destination, line count, control, mode and
 * status at the same offsets (NLB0's), and CFG's mode and continuous
 * bits at the same places.  The run is the mode's transfer, once or
 * continuously; one that software stops (CTL reads @t->stop) ends as a
 * completed one.  START clears itself at the end unless the run was
 * aborted, then @t->end writes the AFU's status and DSM; a mode not
 * modelled goes straight there, with an error.  A DMA fault stops the run
 * where it is and is reported (fpga_sim_dma_fault()).
 */
static void fpga_sim_dma_test(struct fpga_sim *sim, unsigned int n,
			      const struct fpga_sim_dma_test *t)
{
	size_t afu = sim->ports[n].afu;
	u64 cfg = fpga_sim_read(sim, afu + NLB_CFG);
	u64 src = fpga_sim_read(sim, afu + NLB_SRC_ADDR);
	u64 dst = fpga_sim_read(sim, afu + NLB_DST_ADDR);
	struct fpga_sim_dma_xfer x = {
		.lines = fpga_sim_read(sim, afu + NLB_NUM_LINES),
		.ctl = afu + NLB_CTL, .run = FPGA_SIM_DMA_TEST_RUN,
		.cont = cfg & NLB_CFG_CONT,
	};
	ktime_t start = ktime_get();
	bool bad_mode;
	int ret = -EFAULT;
	u64 clocks;

	if (t->lines_from_0)
		x.lines = lower_32_bits(x.lines) + 1ULL;
	trace_engine_start(sim, n, src, dst, x.lines);
	fpga_sim_write(sim, afu + NLB_STATUS1, 1);
	bad_mode = fpga_sim_dma_mode(FIELD_GET(NLB_CFG_MODE, cfg), &x.op);
	if (bad_mode)
		ret = 0;
	else if (!xchg(&sim->ports[n].fail_dma, false) &&
		 !check_mul_overflow(src, (u64)NLB_CACHE_LINE, &x.src) &&
		 !check_mul_overflow(dst, (u64)NLB_CACHE_LINE, &x.dst))
		ret = fpga_sim_dma_xfer(sim, n, &x);
	trace_engine_complete(sim, n, x.lines, x.bytes, ret, start);
	clocks = fpga_sim_afu_busy(sim, n, start);
	if (ret == -EINTR && fpga_sim_dma_stopped(sim, n, x.ctl, t->stop))
		ret = 0;
	if (ret != -EINTR)
		fpga_sim_update(sim, x.ctl, x.run, NLB_CTL_RESET_N);
	/* Idle before the DSM says done: software reads STATUS1 after it */
	fpga_sim_write(sim, afu + NLB_STATUS1, 0);
	if (!ret)
		ret = t->end(sim, n, &x, clocks, bad_mode);
	if (ret == -EFAULT)
		fpga_sim_dma_fault(sim, n);
}

/**
 * fpga_sim_dma_test_step() - start a test run if software asked for one
 * @sim: the card
 * @n: the port, out of reset
 * @t: the AFU's test engine
 *
 * Return: true if a run was made.
 */
bool fpga_sim_dma_test_step(struct fpga_sim *sim, unsigned int n,
			    const struct fpga_sim_dma_test *t)
{
	if (fpga_sim_read(sim, sim->ports[n].afu + NLB_CTL) !=
	    FPGA_SIM_DMA_TEST_RUN)
		return false;
	fpga_sim_dma_test(sim, n, t);
	return true;
}

/**
 * fpga_sim_dma_test_reset() - a test engine back to idle (port reset)
 * @sim: the card
 * @n: the port
 */
void fpga_sim_dma_test_reset(struct fpga_sim *sim, unsigned int n)
{
	size_t afu = sim->ports[n].afu;

	fpga_sim_take(sim, afu + NLB_CTL);
	fpga_sim_write(sim, afu + NLB_STATUS1, 0);
}

/**
 * fpga_sim_dma_fault() - report a DMA fault of port @n
 * @sim: the card
 * @n: the port
 *
 * PORT_ERR_DMA_FAULT in the port's errors (and their interrupt unless
 * masked), one dma_faults in the counter bank.
 */
void fpga_sim_dma_fault(struct fpga_sim *sim, unsigned int n)
{
	fpga_sim_cntr_add(sim, n, CNTR_EVT_DMA_FAULTS, 1);
	fpga_sim_error_raise(sim, n, PORT_ERR_DMA_FAULT);
}
