// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga NLB0 loopback with vgem_ext buffers: the hello_fpga flow of
 * nlb.c, but the source and destination are GEM objects shared with the
 * port as dma-bufs, and completion comes from the port's DMA fence on the
 * destination (the AFU raises user interrupt 0 when NLB_CFG bit 28 is
 * set), waited for with poll() on the dma-buf.  The DSM stays ordinary
 * memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <drm/vgem_ext_drm.h>
#include <linux/fpga-suite.h>
#include <fpga/nlb0.h>

#include "fpga_vgem.h"
#include "probes.h"

#define NLB_PAGE		4096
#define NLB_DONE_VECTOR		0

struct nlb_vgem_buf {
	struct fpga_bo bo;
	uint64_t iova;
	bool mapped;
};

static double nlb_vgem_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int nlb_vgem_buf_new(struct fpga_drm *drm, struct fpga_port *port,
			    uint64_t size, uint32_t bo_flags, uint32_t dir,
			    struct nlb_vgem_buf *b)
{
	int ret;

	ret = fpga_bo_create(drm, size, bo_flags, &b->bo);
	if (!ret)
		ret = fpga_bo_map(drm, &b->bo);
	if (!ret)
		ret = fpga_bo_export(drm, &b->bo);
	if (!ret)
		ret = fpga_dma_map_dmabuf(port, b->bo.dmabuf, dir, &b->iova,
					  NULL);
	if (!ret)
		b->mapped = true;
	return ret;
}

static int nlb_vgem_buf_free(struct fpga_drm *drm, struct fpga_port *port,
			     struct nlb_vgem_buf *b, int ret)
{
	int err;

	if (b->mapped) {
		err = fpga_dma_unmap(port, b->iova);
		if (!ret)
			ret = err;
	}
	fpga_bo_free(drm, &b->bo);
	return ret;
}

static void nlb_vgem_fill(uint64_t *p, uint64_t words)
{
	uint64_t x = 0x2545f4914f6cdd1dULL ^ (uint64_t)time(NULL);

	for (uint64_t i = 0; i < words; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = x;
	}
}

static int nlb_vgem_program(struct fpga_port *port, uint64_t dsm,
			    uint64_t src, uint64_t dst, uint64_t lines)
{
	int ret;

	ret = fpga_mmio_write64(port, NLB_DSM_BASEL, dsm);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_CTL, 0);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_CTL, NLB_CTL_RESET_N);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_SRC_ADDR, src / NLB_CACHE_LINE);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_DST_ADDR, dst / NLB_CACHE_LINE);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_NUM_LINES, lines);
	if (!ret)
		ret = fpga_mmio_write64(port, NLB_CFG,
					NLB_CFG_HELLO | NLB_CFG_IRQ_ON_DONE);
	return ret;
}

/* Stop the AFU and wait for its writes to drain (STATUS1) */
static int nlb_vgem_stop(struct fpga_port *port)
{
	double deadline = nlb_vgem_now() + 1.0;
	uint32_t pending = 0;
	int ret;

	ret = fpga_mmio_write64(port, NLB_CTL, NLB_CTL_RESET_N |
				NLB_CTL_START | NLB_CTL_STOP);
	do {
		if (!ret)
			ret = fpga_mmio_read32(port, NLB_STATUS1, &pending);
	} while (!ret && pending && nlb_vgem_now() < deadline);
	if (!ret && pending)
		ret = fpga_set_error(ETIMEDOUT, "%s: the AFU still has requests pending (STATUS1 0x%x)",
				     fpga_port_ref(port)->devnode, pending);
	return ret;
}

static void nlb_vgem_compare(const struct nlb_vgem_buf *src,
			     const struct nlb_vgem_buf *dst, uint64_t size,
			     struct fpga_nlb_result *res)
{
	const uint8_t *s = src->bo.map, *d = dst->bo.map;
	uint64_t i = 0;

	res->verified = !memcmp(s, d, size);
	if (res->verified)
		return;
	while (i < size && s[i] == d[i])
		i++;
	res->mismatch = i;
}

static int fpga_nlb_do_loopback_vgem(struct fpga_port *port, uint64_t size,
				     unsigned int timeout_ms, uint32_t bo_flags,
				     struct fpga_nlb_result *res)
{
	const char *dev = fpga_port_ref(port)->devnode;
	struct nlb_vgem_buf src = { 0 }, dst = { 0 };
	uint64_t dsm_iova = 0;
	struct fpga_drm *drm;
	bool dsm_mapped = false;
	void *dsm = NULL;
	double t0, t1;
	int ret;

	memset(res, 0, sizeof(*res));
	src.bo.dmabuf = dst.bo.dmabuf = -1;
	if (!size || size % NLB_CACHE_LINE || size > FPGA_NLB_MAX_SIZE)
		return fpga_set_error(EINVAL, "size %llu is not a positive multiple of %d bytes up to %llu",
				      (unsigned long long)size, NLB_CACHE_LINE,
				      (unsigned long long)FPGA_NLB_MAX_SIZE);
	ret = fpga_drm_open(FPGA_VGEM_DRIVER, false, &drm);
	if (ret)
		return ret;
	ret = posix_memalign(&dsm, NLB_PAGE, NLB_PAGE);
	if (ret) {
		dsm = NULL;
		ret = fpga_set_error(ret, "cannot allocate the DSM");
		goto out;
	}
	memset(dsm, 0, NLB_PAGE);
	ret = fpga_dma_map(port, dsm, NLB_PAGE, &dsm_iova);
	if (ret)
		goto out;
	dsm_mapped = true;
	ret = nlb_vgem_buf_new(drm, port, size, bo_flags, FPGA_PORT_DMA_TO_DEV,
			       &src);
	if (!ret)
		ret = nlb_vgem_buf_new(drm, port, size, bo_flags,
				       FPGA_PORT_DMA_FROM_DEV, &dst);
	if (ret)
		goto out;
	nlb_vgem_fill(src.bo.map, size / 8);

	ret = fpga_port_reset(port);
	if (!ret)
		ret = nlb_vgem_program(port, dsm_iova, src.iova, dst.iova,
				       size / NLB_CACHE_LINE);
	/* Armed before the start: the interrupt cannot come first */
	if (!ret)
		ret = fpga_dma_fence(port, dst.iova, true, NLB_DONE_VECTOR,
				     timeout_ms < 60000 ? timeout_ms : 60000);
	if (ret)
		goto out;
	t0 = nlb_vgem_now();
	ret = fpga_mmio_write64(port, NLB_CTL, NLB_CTL_RESET_N | NLB_CTL_START);
	if (!ret)
		ret = fpga_dmabuf_wait(dst.bo.dmabuf, false, (int)timeout_ms);
	t1 = nlb_vgem_now();
	if (ret) {
		nlb_vgem_stop(port);
		goto out;
	}
	if (!(((volatile uint64_t *)dsm)[NLB_DSM_STATUS / 8] & 1)) {
		/* The fence signals on a timeout too: the DSM tells */
		nlb_vgem_stop(port);
		ret = fpga_set_error(ETIMEDOUT, "%s: loopback of %llu bytes did not complete within %u ms (is the AFU an NLB0? see 'fpgactl info')",
				     dev, (unsigned long long)size, timeout_ms);
		goto out;
	}
	ret = nlb_vgem_stop(port);
	if (ret)
		goto out;

	res->bytes = size;
	res->seconds = t1 - t0;
	res->gbps = res->seconds > 0 ? size / res->seconds / 1e9 : 0;
	res->clocks = ((volatile uint64_t *)dsm)[NLB_DSM_CLOCKS / 8];
	nlb_vgem_compare(&src, &dst, size, res);
	if (!res->verified)
		ret = fpga_set_error(EIO, "%s: loopback data mismatch at byte 0x%llx of %llu",
				     dev, (unsigned long long)res->mismatch,
				     (unsigned long long)size);
out:
	ret = nlb_vgem_buf_free(drm, port, &dst, ret);
	ret = nlb_vgem_buf_free(drm, port, &src, ret);
	if (dsm_mapped) {
		int err = fpga_dma_unmap(port, dsm_iova);

		if (!ret)
			ret = err;
	}
	free(dsm);
	fpga_drm_close(drm);
	return ret;
}

/*
 * USDT probes as fpga_nlb_loopback()'s, named apart: perf (6.1) cannot
 * create one probe name at two places
 */
int fpga_nlb_loopback_vgem(struct fpga_port *port, uint64_t size,
			   unsigned int timeout_ms, uint32_t bo_flags,
			   struct fpga_nlb_result *res)
{
	int id = fpga_port_ref(port)->id, ret;

	FPGA_PROBE(loopback_vgem_start, id, size);
	ret = fpga_nlb_do_loopback_vgem(port, size, timeout_ms, bo_flags, res);
	FPGA_PROBE(loopback_vgem_done, id, size, ret, res->verified,
		   res->clocks);
	return ret;
}
