// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation failures in every ioctl of the port (and the FME), in mmap of
 * the AFU and in DMA mapping: each call fails cleanly or succeeds, the
 * port copies data afterwards, and nothing of ours leaks.
 */
#include <sys/eventfd.h>

#include "fault_util.h"
#include "fault_dev.h"

FIXTURE(port) {
	unsigned int id;
	int num;
	int fd;
	int efd;
};

FIXTURE_SETUP(port)
{
	FAULT_PROLOGUE();
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port && modprobe fpga_fme"));
	self->id = sim_random_id();
	ASSERT_EQ(0, sim_add(self->id, 1));
	self->num = sim_port_number(self->id);
	ASSERT_GE(self->num, 0);
	self->fd = port_open_num(self->num);
	ASSERT_GE(self->fd, 0);
	self->efd = eventfd(0, EFD_NONBLOCK);
	ASSERT_GE(self->efd, 0);
}

FIXTURE_TEARDOWN(port)
{
	if (self->fd > 0)
		close(self->fd);
	if (self->efd > 0)
		close(self->efd);
	if (self->id)
		sim_del(self->id);
}

static int check_works(void *p, int ret)
{
	int fd = *(int *)p, err;

	(void)ret;
	err = nlb_copy_check(fd);
	if (err)
		printf("# the port does not copy after an injected failure: %d\n",
		       err);
	return err ? -1 : 0;
}

struct ioctl_ctx {
	int fd;
	int efd;
	int mapped;		/* the op's DMA mapping is still there */
	uint64_t iova;
};

/* Every ioctl of the ABI once, the first error returned */
static int op_every_ioctl(void *p)
{
	struct ioctl_ctx *c = p;
	int fd = c->fd, efd = c->efd;
	struct dfl_fpga_port_info info = { .argsz = sizeof(info) };
	struct dfl_fpga_port_region_info region = { .argsz = sizeof(region) };
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} irq = { .s = { .start = 0, .count = 1 }, .fd = efd };
	uint32_t n;
	static char buf[2 * 4096] __attribute__((aligned(4096)));

	if (ioctl(fd, DFL_FPGA_GET_API_VERSION) < 0 ||
	    ioctl(fd, DFL_FPGA_CHECK_EXTENSION, 0) < 0 ||
	    ioctl(fd, DFL_FPGA_PORT_GET_INFO, &info) ||
	    ioctl(fd, DFL_FPGA_PORT_GET_REGION_INFO, &region) ||
	    ioctl(fd, DFL_FPGA_PORT_ERR_GET_IRQ_NUM, &n) ||
	    ioctl(fd, DFL_FPGA_PORT_UINT_GET_IRQ_NUM, &n))
		return -errno;
	/* bind an eventfd to the user interrupt and the error interrupt */
	if (ioctl(fd, DFL_FPGA_PORT_UINT_SET_IRQ, &irq))
		return -errno;
	irq.fd = -1;
	if (ioctl(fd, DFL_FPGA_PORT_UINT_SET_IRQ, &irq))
		return -errno;
	irq.fd = efd;
	if (ioctl(fd, DFL_FPGA_PORT_ERR_SET_IRQ, &irq))
		return -errno;
	irq.fd = -1;
	if (ioctl(fd, DFL_FPGA_PORT_ERR_SET_IRQ, &irq))
		return -errno;
	if (ioctl(fd, DFL_FPGA_PORT_RESET, 0))
		return -errno;
	if (dma_map(fd, buf, sizeof(buf), 0, &c->iova))
		return -errno;
	c->mapped = 1;
	if (dma_unmap(fd, c->iova))
		return -errno;
	c->mapped = 0;
	return 0;
}

/* What a step left behind goes (it must be able to), then the proof */
static int check_every_ioctl(void *p, int ret)
{
	struct ioctl_ctx *c = p;
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} irq = { .s = { .start = 0, .count = 1 }, .fd = -1 };

	if (c->mapped && dma_unmap(c->fd, c->iova)) {
		printf("# a mapping left by a failed step cannot be unmapped\n");
		return -1;
	}
	c->mapped = 0;
	if (ioctl(c->fd, DFL_FPGA_PORT_UINT_SET_IRQ, &irq) ||
	    ioctl(c->fd, DFL_FPGA_PORT_ERR_SET_IRQ, &irq)) {
		printf("# interrupts cannot be unbound after a failed step\n");
		return -1;
	}
	return check_works(&c->fd, ret);
}

TEST_F_TIMEOUT(port, every_ioctl, FAULT_TEST_TIMEOUT)
{
	/* a SKIP in the setup does not stop the test itself */
	FAULT_PROLOGUE();
	struct ioctl_ctx c = { .fd = self->fd, .efd = self->efd };

	ASSERT_SWEEP("every port ioctl", op_every_ioctl, check_every_ioctl, &c);
	close(self->fd);
	self->fd = -1;
	ASSERT_NO_LEAKS();
}

/* A larger DMA mapping, left in place: the check unmaps what succeeded */
struct dma_ctx {
	int fd;
	void *va;
	size_t len;
	uint64_t iova;
};

static int op_dma_map(void *p)
{
	struct dma_ctx *d = p;

	return dma_map(d->fd, d->va, d->len, 0, &d->iova);
}

static int check_dma_map(void *p, int ret)
{
	struct dma_ctx *d = p;

	if (ret == 0 && dma_unmap(d->fd, d->iova)) {
		printf("# a mapping that succeeded cannot be unmapped\n");
		return -1;
	}
	/* a failed map leaves nothing: the same range maps again */
	if (ret < 0) {
		if (dma_map(d->fd, d->va, d->len, 0, &d->iova) ||
		    dma_unmap(d->fd, d->iova)) {
			printf("# the range cannot be mapped after a failed map: %d\n",
			       -errno);
			return -1;
		}
	}
	return check_works(&d->fd, ret);
}

TEST_F_TIMEOUT(port, dma_map, FAULT_TEST_TIMEOUT)
{
	/* a SKIP in the setup does not stop the test itself */
	FAULT_PROLOGUE();
	struct dma_ctx d = { .fd = self->fd, .len = 256 * 4096 };

	d.va = mmap(NULL, d.len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, d.va);
	ASSERT_SWEEP("DMA map", op_dma_map, check_dma_map, &d);
	munmap(d.va, d.len);
	close(self->fd);
	self->fd = -1;
	ASSERT_NO_LEAKS();
}

/* mmap of the AFU and a first touch (the fault handler maps the page) */
static int op_mmap(void *p)
{
	int fd = *(int *)p;
	volatile uint64_t *afu;
	uint64_t v;

	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (afu == MAP_FAILED)
		return -errno;
	v = afu[0];
	munmap((void *)afu, NLB_AFU_SIZE);
	return v ? 0 : -EIO;	/* the DFH is never 0 */
}

TEST_F_TIMEOUT(port, mmap, FAULT_TEST_TIMEOUT)
{
	/* a SKIP in the setup does not stop the test itself */
	FAULT_PROLOGUE();
	ASSERT_SWEEP("AFU mmap", op_mmap, check_works, &self->fd);
	close(self->fd);
	self->fd = -1;
	ASSERT_NO_LEAKS();
}

/* The FME's ioctls, error interrupt binding included */
static int op_fme(void *p)
{
	int efd = *(int *)p, fd, ret = 0;
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} irq = { .s = { .start = 0, .count = 1 }, .fd = efd };
	char dev[64];
	uint32_t n;

	snprintf(dev, sizeof(dev), "/dev/fpga-fme.%d", ((int *)p)[1]);
	fd = open(dev, O_RDWR);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, DFL_FPGA_GET_API_VERSION) < 0 ||
	    ioctl(fd, DFL_FPGA_FME_ERR_GET_IRQ_NUM, &n) ||
	    ioctl(fd, DFL_FPGA_FME_ERR_SET_IRQ, &irq))
		ret = -errno;
	irq.fd = -1;
	if (!ret && ioctl(fd, DFL_FPGA_FME_ERR_SET_IRQ, &irq))
		ret = -errno;
	close(fd);
	return ret;
}

static int check_fme(void *p, int ret)
{
	(void)ret;
	if (op_fme(p)) {
		printf("# the FME does not work after an injected failure\n");
		return -1;
	}
	return 0;
}

TEST_F_TIMEOUT(port, fme_ioctls, FAULT_TEST_TIMEOUT)
{
	/* a SKIP in the setup does not stop the test itself */
	FAULT_PROLOGUE();
	int ctx[2] = { self->efd, -1 };
	char path[256];

	ASSERT_EQ(0, card_child(self->id, "fpga-fme.", path, sizeof(path)));
	ctx[1] = atoi(strrchr(path, '.') + 1);
	if (op_fme(ctx) == -EINVAL)
		SKIP(return, "the FME has no error interrupt");
	ASSERT_SWEEP("FME ioctls", op_fme, check_fme, ctx);
	ASSERT_NO_LEAKS();
}

TEST_HARNESS_MAIN
