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
#include "probes.h"

#define NLB_PAGE		4096

struct nlb_buf {
	void *va;
	uint64_t len;		/* allocated, page multiple */
	uint64_t iova;
	bool mapped;
	bool kernel;		/* uio_fpga's buffer: nothing to free */
};

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

static int nlb_buf_alloc(struct fpga_port *port, struct nlb_buf *b,
			 uint64_t len, const char *what)
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

/* Unmap and free; keeps the first error message, returns the first error */
static int nlb_buf_free(struct fpga_port *port, struct nlb_buf *b, int ret)
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

/* Poll a DSM word written by the AFU until @mask is set */
static int nlb_wait_done(volatile uint64_t *status, unsigned int timeout_ms)
{
	double deadline = nlb_now() + timeout_ms / 1000.0;
	struct timespec nap = { 0, 1000 };
	unsigned int spins = 0;

	while (!(*status & 1)) {
		if (nlb_now() > deadline)
			return -ETIMEDOUT;
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
static int nlb_program(struct fpga_port *port, const struct nlb_buf *src,
		       const struct nlb_buf *dst, const struct nlb_buf *dsm,
		       uint64_t lines)
{
	int ret;

	ret = fpga_mmio_write64(port, NLB_DSM_BASEL, dsm->iova);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_CTL, 0);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_CTL, NLB_CTL_RESET_N);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_SRC_ADDR,
					src->iova / NLB_CACHE_LINE);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_DST_ADDR,
					dst->iova / NLB_CACHE_LINE);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_NUM_LINES, lines);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_CFG, NLB_CFG_HELLO);
	return ret;
}

static int fpga_nlb_do_loopback(struct fpga_port *port, uint64_t size,
				unsigned int timeout_ms,
				struct fpga_nlb_result *res)
{
	const char *dev = fpga_port_ref(port)->devnode;
	struct nlb_buf src = { 0 }, dst = { 0 }, dsm = { 0 };
	volatile uint64_t *status;
	uint32_t pending = 0;
	double t0, t1, deadline;
	int ret;

	memset(res, 0, sizeof(*res));
	if (!size || size % NLB_CACHE_LINE)
		return fpga_set_error(EINVAL, "size %llu is not a positive multiple of %d bytes",
				      (unsigned long long)size, NLB_CACHE_LINE);
	if (size > FPGA_NLB_MAX_SIZE)
		return fpga_set_error(EINVAL, "size %llu is larger than the AFU can copy (%llu)",
				      (unsigned long long)size,
				      (unsigned long long)FPGA_NLB_MAX_SIZE);

	if (fpga_port_is_uio(port)) {
		/* The kernel's buffers: dma0 DSM, dma1 source, dma2 dest */
		ret = nlb_buf_uio(port, &dsm, 0, NLB_DSM_SIZE, "DSM");
		if (!ret)
			ret = nlb_buf_uio(port, &src, 1, size, "source");
		if (!ret)
			ret = nlb_buf_uio(port, &dst, 2, size, "destination");
	} else {
		ret = nlb_buf_alloc(port, &dsm, NLB_DSM_SIZE, "DSM");
		if (!ret)
			ret = nlb_buf_alloc(port, &src, size, "source");
		if (!ret)
			ret = nlb_buf_alloc(port, &dst, size, "destination");
	}
	if (ret)
		goto out;
	nlb_fill(src.va, size / 8);

	ret = fpga_port_reset(port);
	if (ret)
		goto out;
	ret = nlb_program(port, &src, &dst, &dsm, size / NLB_CACHE_LINE);
	if (ret)
		goto out;

	status = (volatile uint64_t *)((char *)dsm.va + NLB_DSM_STATUS);
	t0 = nlb_now();
	ret = fpga_mmio_write64(port, NLB_CTL, NLB_CTL_RESET_N | NLB_CTL_START);
	if (ret)
		goto out;
	ret = nlb_wait_done(status, timeout_ms);
	t1 = nlb_now();
	if (ret) {
		fpga_mmio_write64(port, NLB_CTL, NLB_CTL_RESET_N |
				  NLB_CTL_START | NLB_CTL_STOP);
		ret = fpga_set_error(ETIMEDOUT, "%s: loopback of %llu bytes did not complete within %u ms (is the AFU an NLB0? see 'fpgactl info')",
				     dev, (unsigned long long)size, timeout_ms);
		goto out;
	}
	ret = fpga_mmio_write64(port, NLB_CTL, NLB_CTL_RESET_N |
				NLB_CTL_START | NLB_CTL_STOP);
	if (ret)
		goto out;
	/* Writes still in flight would race with the compare */
	deadline = nlb_now() + 1.0;
	do {
		ret = fpga_mmio_read32(port, NLB_STATUS1, &pending);
		if (ret)
			goto out;
	} while (pending && nlb_now() < deadline);
	if (pending) {
		ret = fpga_set_error(ETIMEDOUT, "%s: the AFU still has requests pending (STATUS1 0x%x)",
				     dev, pending);
		goto out;
	}

	res->bytes = size;
	res->seconds = t1 - t0;
	res->gbps = res->seconds > 0 ? size / res->seconds / 1e9 : 0;
	res->clocks = ((volatile uint64_t *)((char *)dsm.va + NLB_DSM_CLOCKS))[0];
	res->verified = !memcmp(src.va, dst.va, size);
	if (!res->verified) {
		const uint8_t *s = src.va, *d = dst.va;
		uint64_t i = 0;

		while (i < size && s[i] == d[i])
			i++;
		res->mismatch = i;
		ret = fpga_set_error(EIO, "%s: loopback data mismatch at byte 0x%llx of %llu (wrote 0x%02x, read back 0x%02x)",
				     dev, (unsigned long long)i,
				     (unsigned long long)size, s[i], d[i]);
	}
out:
	ret = nlb_buf_free(port, &dst, ret);
	ret = nlb_buf_free(port, &src, ret);
	ret = nlb_buf_free(port, &dsm, ret);
	return ret;
}

int fpga_nlb_loopback(struct fpga_port *port, uint64_t size,
		      unsigned int timeout_ms, struct fpga_nlb_result *res)
{
	int id = fpga_port_ref(port)->id, ret;

	FPGA_PROBE(loopback_start, id, size);
	ret = fpga_nlb_do_loopback(port, size, timeout_ms, res);
	FPGA_PROBE(loopback_done, id, size, ret, res->verified, res->clocks);
	return ret;
}
