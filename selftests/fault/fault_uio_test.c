// SPDX-License-Identifier: GPL-2.0-only
/*
 * Allocation failures while a port is given to uio_fpga (its probe
 * allocates the UIO device and the DMA buffers through the card's IOMMU)
 * and while the UIO device is opened, mapped and read: the port ends up
 * on uio_fpga and working, or without it and able to bind again; nothing
 * of ours leaks.
 */
#include <sys/mman.h>

#include "fault_util.h"
#include "fault_dev.h"
#include "uio_util.h"

struct uio_ctx {
	unsigned int id;
	int num;
};

/* The UIO device of the port opens, maps the AFU and a DMA buffer */
static int uio_works(int num)
{
	char uio[32], dev[64];
	volatile uint64_t *afu, *dma;
	int fd, ret = 0;

	if (port_uio(num, uio, sizeof(uio)))
		return -ENOENT;
	snprintf(dev, sizeof(dev), "/dev/%s", uio);
	fd = open(dev, O_RDWR);
	if (fd < 0)
		return -errno;
	afu = uio_map(fd, uio, UIO_MAP_AFU, PROT_READ);
	dma = uio_map(fd, uio, UIO_MAP_DMA0, PROT_READ | PROT_WRITE);
	if (afu == MAP_FAILED || dma == MAP_FAILED) {
		ret = -errno;
	} else {
		dma[0] = 0x1234;
		if (!afu[0] || dma[0] != 0x1234)
			ret = -EIO;
	}
	if (afu != MAP_FAILED)
		munmap((void *)afu, uio_map_num(uio, UIO_MAP_AFU, "size"));
	if (dma != MAP_FAILED)
		munmap((void *)dma, uio_map_num(uio, UIO_MAP_DMA0, "size"));
	close(fd);
	return ret;
}

/*
 * port_bind() without its stat() of driver/unbind: under injection the
 * stat itself can fail, and "not bound" would then be a lie.  The unbind
 * is written whatever; ENODEV/ENOENT there mean nothing was bound.  The
 * driver's bind file, not the bus's drivers_probe: that one reports
 * success when the probe failed (the driver core keeps probe errors from
 * a rescan to itself), this one returns the probe's error.
 */
static int op_bind(void *p)
{
	struct uio_ctx *c = p;
	char path[256], name[64];
	int ret;

	snprintf(name, sizeof(name), "fpga-port.%d", c->num);
	snprintf(path, sizeof(path), DFL_BUS "/devices/%s/driver_override", name);
	ret = sysfs_write(path, "uio_fpga");
	if (ret)
		return ret;
	snprintf(path, sizeof(path), DFL_BUS "/devices/%s/driver/unbind", name);
	ret = sysfs_write(path, name);
	if (ret && ret != -ENOENT && ret != -ENODEV)
		return ret;
	return sysfs_write(DFL_BUS "/drivers/uio_fpga/bind", name);
}

static int check_bind(void *p, int ret)
{
	struct uio_ctx *c = p;
	char drv[64];
	int err;

	port_driver(c->num, drv, sizeof(drv));
	if (ret == 0 && strcmp(drv, "uio_fpga")) {
		printf("# bind reported success, driver is \"%s\"\n", drv);
		return -1;
	}
	/* wherever it ended up: back to fpga_port, then to uio_fpga, clean */
	err = port_bind(c->num, "fpga_port");
	if (!err)
		err = card_port_works(c->id, 0);
	if (!err)
		err = port_bind(c->num, "uio_fpga");
	if (!err)
		err = uio_works(c->num);
	if (!err)
		err = port_bind(c->num, "fpga_port");
	if (err)
		printf("# the port does not work after a failed bind (%s): %d\n",
		       drv, err);
	return err ? -1 : 0;
}

static void setup(struct __test_metadata *_metadata, struct uio_ctx *c)
{
	ASSERT_EQ(0, run_cmd("modprobe fpga_sim && modprobe fpga_port"));
	ASSERT_EQ(0, run_cmd("modprobe uio_fpga"));
	c->id = sim_random_id();
	ASSERT_EQ(0, sim_add(c->id, 1));
	c->num = sim_port_number(c->id);
	ASSERT_LE(0, c->num);
}

static void cleanup(struct uio_ctx *c)
{
	char path[128];

	port_bind(c->num, "fpga_port");
	snprintf(path, sizeof(path), DFL_BUS "/devices/fpga-port.%d/driver_override",
		 c->num);
	sysfs_write(path, "\n");
	sim_del(c->id);
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

TEST_F_TIMEOUT(fault, uio_bind, FAULT_TEST_TIMEOUT)
{
	struct uio_ctx c;

	FAULT_PROLOGUE();
	setup(_metadata, &c);
	ASSERT_SWEEP("uio_fpga bind", op_bind, check_bind, &c);
	cleanup(&c);
	ASSERT_NO_LEAKS();
}

static int op_use(void *p)
{
	struct uio_ctx *c = p;

	return uio_works(c->num);
}

static int check_use(void *p, int ret)
{
	struct uio_ctx *c = p;

	(void)ret;
	if (uio_works(c->num)) {
		printf("# the UIO device does not work after an injected failure\n");
		return -1;
	}
	return 0;
}

TEST_F_TIMEOUT(fault, uio_open_map, FAULT_TEST_TIMEOUT)
{
	struct uio_ctx c;

	FAULT_PROLOGUE();
	setup(_metadata, &c);
	ASSERT_EQ(0, port_bind(c.num, "uio_fpga"));
	ASSERT_SWEEP("uio open/mmap", op_use, check_use, &c);
	cleanup(&c);
	ASSERT_NO_LEAKS();
}

TEST_HARNESS_MAIN
