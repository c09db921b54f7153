// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga NLB0 loopback: the OPAE hello_fpga flow (dfl.md section 7) on a
 * port whose AFU is the NLB0 loopback.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <fpga/nlb0.h>

#include "fpga.h"
#include "nlb.h"
#include "probes.h"

#define NLB_PAGE		4096

static double nlb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* On uio_fpga: kernel buffer @k, which must hold @len bytes */
static int nlb_buf_uio(struct fpga_port *port, struct nlb_buf *b, unsigned int k,
		       uint64_t len, const char *what)
{
	int ret;

	ret = fpga_port_dma_buffer(port, k, &b->va, &b->iova, &b->len);
	if (ret)
		return ret;
	b->kernel = true;
	if (b->len < len)
		return fpga_set_error(ENOSPC, "%s: the %s buffer is uio_fpga's DMA buffer %u, of %llu bytes: set uio_fpga.dma_size and rebind for %llu",
				      fpga_port_ref(port)->devnode, what, k,
				      (unsigned long long)b->len,
				      (unsigned long long)len);
	memset(b->va, 0, len);
	return 0;
}

int nlb_buf_alloc(struct fpga_port *port, struct nlb_buf *b, uint64_t len,
		  const char *what)
{
	int ret;

	b->len = (len + NLB_PAGE - 1) & ~(uint64_t)(NLB_PAGE - 1);
	ret = posix_memalign(&b->va, NLB_PAGE, b->len);
	if (ret) {
		b->va = NULL;
		return fpga_set_error(ret, "cannot allocate the %s buffer (%llu bytes): %s",
				      what, (unsigned long long)b->len,
				      strerror(ret));
	}
	memset(b->va, 0, b->len);
	ret = fpga_dma_map(port, b->va, b->len, &b->iova);
	if (ret)
		return ret;
	b->mapped = true;
	return 0;
}

int nlb_buf_free(struct fpga_port *port, struct nlb_buf *b, int ret)
{
	int err;

	if (b->kernel)
		return ret;
	if (b->mapped) {
		err = fpga_dma_unmap(port, b->iova);
		if (!ret)
			ret = err;
	}
	free(b->va);
	return ret;
}

/* Poll the DSM's status word until the AFU sets done, or @timeout_ms */
static int nlb_poll_dsm(struct nlb_run *run, unsigned int timeout_ms)
{
	volatile uint64_t *status = (volatile uint64_t *)
		((char *)run->dsm.va + NLB_DSM_STATUS);
	double deadline = nlb_now() + timeout_ms / 1000.0;
	struct timespec nap = { 0, 1000 };
	unsigned int spins = 0;

	while (!(*status & 1)) {
		if (nlb_now() > deadline)
			return 0;	/* the caller reads the DSM again */
		/* spin briefly, then back off so a slow model gets the CPU */
		if (++spins > 1000) {
			nanosleep(&nap, NULL);
			if (nap.tv_nsec < 1000000)
				nap.tv_nsec *= 2;
		}
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return 0;
}

/* A pattern that differs in every 64-bit word and from run to run */
static void nlb_fill(uint64_t *p, uint64_t words)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL ^ (uint64_t)time(NULL);

	for (uint64_t i = 0; i < words; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = x;
	}
}

/*
 * The CSRs are 64-bit registers on the simulated card (and DSM_BASEL/H
 * one 64-bit pair): full-width writes leave no stale upper half behind.
 */
static int nlb_program(const struct nlb_run *run, uint64_t lines,
		       uint32_t cfg)
{
	struct fpga_port *port = run->port;
	int ret;

	ret = fpga_mmio_write64(port, NLB_DSM_BASEL, run->dsm.iova);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_CTL, 0);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_CTL, NLB_CTL_RESET_N);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_SRC_ADDR,
					run->src.iova / NLB_CACHE_LINE);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_DST_ADDR,
					run->dst.iova / NLB_CACHE_LINE);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_NUM_LINES, lines);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_CFG, NLB_CFG_HELLO | cfg);
	return ret;
}

/* Stop the AFU and wait for its writes to drain (STATUS1) */
static int nlb_stop(struct fpga_port *port)
{
	double deadline = nlb_now() + 1.0;
	uint32_t pending = 0;
	int ret;

	ret = fpga_mmio_write64(port, NLB_CTL, NLB_CTL_RESET_N |
				NLB_CTL_START | NLB_CTL_STOP);
	do {
		if (!ret)
			ret = fpga_mmio_read32(port, NLB_STATUS1, &pending);
	} while (!ret && pending && nlb_now() < deadline);
	if (!ret && pending)
		ret = fpga_set_error(ETIMEDOUT, "%s: the AFU still has requests pending (STATUS1 0x%x)",
				     fpga_port_ref(port)->devnode, pending);
	return ret;
}

/* Compare destination and source; -EIO with the first difference */
static int nlb_check(const struct nlb_run *run, uint64_t size,
		     struct fpga_nlb_result *res)
{
	const uint8_t *s = run->src.va, *d = run->dst.va;
	uint64_t i = 0;

	res->verified = !memcmp(s, d, size);
	if (res->verified)
		return 0;
	while (i < size && s[i] == d[i])
		i++;
	res->mismatch = i;
	return fpga_set_error(EIO, "%s: loopback data mismatch at byte 0x%llx of %llu (wrote 0x%02x, read back 0x%02x)",
			      fpga_port_ref(run->port)->devnode,
			      (unsigned long long)i, (unsigned long long)size,
			      s[i], d[i]);
}

int nlb_loopback(struct nlb_run *run, const struct nlb_ops *ops,
		 uint64_t size, unsigned int timeout_ms,
		 struct fpga_nlb_result *res)
{
	struct fpga_port *port = run->port;
	volatile uint64_t *dsm;
	double t0, t1;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!size || size % NLB_CACHE_LINE)
		return fpga_set_error(EINVAL, "size %llu is not a positive multiple of %d bytes",
				      (unsigned long long)size, NLB_CACHE_LINE);
	if (size > FPGA_NLB_MAX_SIZE)
		return fpga_set_error(EINVAL, "size %llu is larger than the AFU can copy (%llu)",
				      (unsigned long long)size,
				      (unsigned long long)FPGA_NLB_MAX_SIZE);

	ret = ops->alloc(run, size);
	if (ret)
		goto out;
	nlb_fill(run->src.va, size / 8);

	ret = fpga_port_reset(port);
	if (!ret)
		ret = nlb_program(run, size / NLB_CACHE_LINE, ops->cfg);
	if (!ret && ops->arm)
		ret = ops->arm(run, timeout_ms);
	if (ret)
		goto out;

	dsm = run->dsm.va;
	t0 = nlb_now();
	ret = fpga_mmio_write64(port, NLB_CTL, NLB_CTL_RESET_N | NLB_CTL_START);
	if (!ret)
		ret = ops->wait(run, timeout_ms);
	t1 = nlb_now();
	if (ret) {
		nlb_stop(port);
		goto out;
	}
	if (!(dsm[NLB_DSM_STATUS / 8] & 1)) {
		nlb_stop(port);
		ret = fpga_set_error(ETIMEDOUT, "%s: loopback of %llu bytes did not complete within %u ms (is the AFU an NLB0? see 'fpgactl info')",
				     fpga_port_ref(port)->devnode,
				     (unsigned long long)size, timeout_ms);
		goto out;
	}
	/* Writes still in flight would race with the compare */
	ret = nlb_stop(port);
	if (ret)
		goto out;

	res->bytes = size;
	res->seconds = t1 - t0;
	res->gbps = res->seconds > 0 ? size / res->seconds / 1e9 : 0;
	res->clocks = dsm[NLB_DSM_CLOCKS / 8];
	ret = nlb_check(run, size, res);
out:
	return ops->free(run, ret);
}

/* Ordinary memory, or on uio_fpga the kernel's buffers */
static int nlb_alloc(struct nlb_run *run, uint64_t size)
{
	struct fpga_port *port = run->port;
	int ret;

	if (fpga_port_is_uio(port)) {
		/* dma0 DSM, dma1 source, dma2 destination */
		ret = nlb_buf_uio(port, &run->dsm, 0, NLB_DSM_SIZE, "DSM");
		if (!ret)
			ret = nlb_buf_uio(port, &run->src, 1, size, "source");
		if (!ret)
			ret = nlb_buf_uio(port, &run->dst, 2, size, "destination");
		return ret;
	}
	ret = nlb_buf_alloc(port, &run->dsm, NLB_DSM_SIZE, "DSM");
	if (!ret)
		ret = nlb_buf_alloc(port, &run->src, size, "source");
	if (!ret)
		ret = nlb_buf_alloc(port, &run->dst, size, "destination");
	return ret;
}

static int nlb_free(struct nlb_run *run, int ret)
{
	ret = nlb_buf_free(run->port, &run->dst, ret);
	ret = nlb_buf_free(run->port, &run->src, ret);
	return nlb_buf_free(run->port, &run->dsm, ret);
}

static const struct nlb_ops nlb_ops = {
	.alloc = nlb_alloc,
	.free = nlb_free,
	.wait = nlb_poll_dsm,
};

int fpga_nlb_loopback(struct fpga_port *port, uint64_t size,
		      unsigned int timeout_ms, struct fpga_nlb_result *res)
{
	struct nlb_run run = { .port = port };
	int id = fpga_port_ref(port)->id, ret;

	FPGA_PROBE(loopback_start, id, size);
	ret = nlb_loopback(&run, &nlb_ops, size, timeout_ms, res);
	FPGA_PROBE(loopback_done, id, size, ret, res->verified, res->clocks);
	return ret;
}
