// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libfpga NLB0 loopback with vgem_ext buffers: the hello_fpga flow of
 * nlb.c (nlb_loopback()), but the source and destination are GEM objects
 * shared with the port as dma-bufs, and completion comes from the port's
 * DMA fence on the destination (the AFU raises user interrupt 0 when
 * NLB_CFG bit 28 is set), waited for with poll() on the dma-buf.  The DSM
 * stays ordinary memory.
 */
#include <drm/vgem_ext_drm.h>
#include <linux/fpga-suite.h>
#include <fpga/nlb0.h>

#include "fpga_vgem.h"
#include "nlb.h"
#include "probes.h"

#define NLB_DONE_VECTOR		0

/* The variant's state: the DRM device and the two GEM objects */
struct nlb_vgem {
	struct fpga_drm *drm;
	struct fpga_bo src, dst;
	uint32_t bo_flags;
};

/* A GEM object, mapped here and, as a dma-buf, for the port */
static int nlb_vgem_buf_new(struct nlb_run *run, struct fpga_bo *bo,
			    uint64_t size, uint32_t dir, struct nlb_buf *b)
{
	struct nlb_vgem *v = run->priv;
	int ret;

	ret = fpga_bo_create(v->drm, size, v->bo_flags, bo);
	if (!ret)
		ret = fpga_bo_map(v->drm, bo);
	if (!ret)
		ret = fpga_bo_export(v->drm, bo);
	if (!ret)
		ret = fpga_dma_map_dmabuf(run->port, bo->dmabuf, dir, &b->iova,
					  NULL);
	if (ret)
		return ret;
	b->va = bo->map;
	b->len = bo->size;
	b->mapped = true;
	return 0;
}

static int nlb_vgem_buf_free(struct nlb_run *run, struct fpga_bo *bo,
			     struct nlb_buf *b, int ret)
{
	struct nlb_vgem *v = run->priv;
	int err;

	if (b->mapped) {
		err = fpga_dma_unmap(run->port, b->iova);
		if (!ret)
			ret = err;
	}
	fpga_bo_free(v->drm, bo);
	return ret;
}

/* The DSM stays ordinary memory */
static int nlb_vgem_alloc(struct nlb_run *run, uint64_t size)
{
	struct nlb_vgem *v = run->priv;
	int ret;

	ret = fpga_drm_open(FPGA_VGEM_DRIVER, false, &v->drm);
	if (ret)
		return ret;
	ret = nlb_buf_alloc(run->port, &run->dsm, NLB_DSM_SIZE, "DSM");
	if (!ret)
		ret = nlb_vgem_buf_new(run, &v->src, size, FPGA_PORT_DMA_TO_DEV,
				       &run->src);
	if (!ret)
		ret = nlb_vgem_buf_new(run, &v->dst, size,
				       FPGA_PORT_DMA_FROM_DEV, &run->dst);
	return ret;
}

static int nlb_vgem_free(struct nlb_run *run, int ret)
{
	struct nlb_vgem *v = run->priv;

	if (!v->drm)
		return ret;
	ret = nlb_vgem_buf_free(run, &v->dst, &run->dst, ret);
	ret = nlb_vgem_buf_free(run, &v->src, &run->src, ret);
	ret = nlb_buf_free(run->port, &run->dsm, ret);
	fpga_drm_close(v->drm);
	return ret;
}

/* Armed before the start: the interrupt cannot come first */
static int nlb_vgem_arm(struct nlb_run *run, unsigned int timeout_ms)
{
	return fpga_dma_fence(run->port, run->dst.iova, true, NLB_DONE_VECTOR,
			      timeout_ms < 60000 ? timeout_ms : 60000);
}

/* The fence signals on a timeout too: the DSM tells */
static int nlb_vgem_wait(struct nlb_run *run, unsigned int timeout_ms)
{
	struct nlb_vgem *v = run->priv;

	return fpga_dmabuf_wait(v->dst.dmabuf, false, (int)timeout_ms);
}

static const struct nlb_ops nlb_vgem_ops = {
	.alloc = nlb_vgem_alloc,
	.free = nlb_vgem_free,
	.cfg = NLB_CFG_IRQ_ON_DONE,
	.arm = nlb_vgem_arm,
	.wait = nlb_vgem_wait,
};

/*
 * USDT probes as fpga_nlb_loopback()'s, named apart: perf (6.1) cannot
 * create one probe name at two places
 */
int fpga_nlb_loopback_vgem(struct fpga_port *port, uint64_t size,
			   unsigned int timeout_ms, uint32_t bo_flags,
			   struct fpga_nlb_result *res)
{
	struct nlb_vgem v = {
		.src = { .dmabuf = -1 }, .dst = { .dmabuf = -1 },
		.bo_flags = bo_flags,
	};
	struct nlb_run run = { .port = port, .priv = &v };
	int id = fpga_port_ref(port)->id, ret;

	FPGA_PROBE(loopback_vgem_start, id, size);
	ret = nlb_loopback(&run, &nlb_vgem_ops, size, timeout_ms, res);
	FPGA_PROBE(loopback_vgem_done, id, size, ret, res->verified,
		   res->clocks);
	return ret;
}
