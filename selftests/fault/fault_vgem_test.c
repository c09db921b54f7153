// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation failures in vgem_ext: opening the device, creating a buffer
 * (populated or not), exporting and importing it, mapping it, fencing it,
 * and the port mapping its dma-buf for the AFU.  Every step fails cleanly
 * or succeeds; the same steps work afterwards; nothing of ours leaks.
 */
#include "fault_util.h"
#include "fault_dev.h"
#include "vgem_util.h"

struct vgem_ctx {
	unsigned int id;
	int port;		/* /dev/fpga-port.N, open */
	uint32_t flags;		/* BO_CREATE flags */
	int mapped;		/* the port still maps the op's dma-buf */
	uint64_t iova;
};

/* The whole path once; 0 or the first -errno, everything released */
static int op_buffer(void *p)
{
	struct vgem_ctx *c = p;
	struct drm_vgem_ext_bo_create bo;
	int card, render = -1, dmabuf = -1, fence, ret;
	uint32_t imported;
	void *map;

	card = drm_open_driver("vgem_ext", "card");
	if (card < 0)
		return card;
	ret = vgem_ext_create(card, 64 * 1024, c->flags, &bo);
	if (ret)
		goto out;
	map = map_rw(card, bo.offset, 64 * 1024);
	if (map == MAP_FAILED) {
		ret = -errno;
		goto out;
	}
	memset(map, 0x5a, 64 * 1024);
	munmap(map, 64 * 1024);
	fence = vgem_ext_fence(card, bo.handle, VGEM_EXT_FENCE_WRITE);
	if (fence < 0) {
		ret = fence;
		goto out;
	}
	ret = vgem_ext_signal(card, fence);
	if (ret)
		goto out;
	dmabuf = prime_export(card, bo.handle);
	if (dmabuf < 0) {
		ret = dmabuf;
		goto out;
	}
	render = drm_open_driver("vgem_ext", "renderD");
	if (render < 0) {
		ret = render;
		goto out;
	}
	ret = prime_import(render, dmabuf, &imported);
	if (ret)
		goto out;
	ret = port_dmabuf_map(c->port, dmabuf, 0, &c->iova, NULL);
	if (!ret) {
		c->mapped = 1;
		ret = dma_unmap(c->port, c->iova);
		c->mapped = ret != 0;
	}
out:
	if (render >= 0)
		close(render);
	if (dmabuf >= 0)
		close(dmabuf);
	close(card);
	return ret;
}

static int check_buffer(void *p, int ret)
{
	struct vgem_ctx *c = p;
	int err;

	(void)ret;
	if (c->mapped && dma_unmap(c->port, c->iova)) {
		printf("# a dma-buf mapping left by a failed step cannot be unmapped\n");
		return -1;
	}
	c->mapped = 0;
	err = op_buffer(p);
	if (!err)
		err = nlb_copy_check(c->port);
	if (err)
		printf("# vgem_ext or the port does not work after an injected failure: %d\n",
		       err);
	return err ? -1 : 0;
}

static void setup(struct __test_metadata *_metadata, struct vgem_ctx *c)
{
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port"));
	ASSERT_EQ(0, run_cmd("modprobe vgem_ext"));
	c->id = sim_random_id();
	ASSERT_EQ(0, sim_add(c->id, 1));
	c->port = port_open_num(sim_port_number(c->id));
	ASSERT_LE(0, c->port);
}

/* No state: the timeout of a sweep needs a fixture */
FIXTURE(fault) {
	int unused;
};

FIXTURE_SETUP(fault)
{
}

FIXTURE_TEARDOWN(fault)
{
}

TEST_F_TIMEOUT(fault, buffer_path, FAULT_TEST_TIMEOUT)
{
	struct vgem_ctx c = { .flags = 0 };

	FAULT_PROLOGUE();
	setup(_metadata, &c);
	ASSERT_SWEEP("vgem_ext buffer", op_buffer, check_buffer, &c);
	close(c.port);
	sim_del(c.id);
	ASSERT_NO_LEAKS();
}

TEST_F_TIMEOUT(fault, buffer_path_populated_wc, FAULT_TEST_TIMEOUT)
{
	struct vgem_ctx c = { .flags = VGEM_EXT_BO_POPULATE | VGEM_EXT_BO_WC };

	FAULT_PROLOGUE();
	setup(_metadata, &c);
	ASSERT_SWEEP("vgem_ext populated buffer", op_buffer, check_buffer, &c);
	close(c.port);
	sim_del(c.id);
	ASSERT_NO_LEAKS();
}

TEST_HARNESS_MAIN
