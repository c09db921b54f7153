/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fault selftests' view of a device that must still work after an
 * injected failure: a card whose ports open, answer GET_INFO and copy
 * data through the NLB, byte for byte.
 */
#ifndef _FPGA_SELFTEST_FAULT_DEV_H
#define _FPGA_SELFTEST_FAULT_DEV_H

#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/fpga-dfl.h>

#include "sim_util.h"
#include "nlb_util.h"

static inline int port_open_num(int num)
{
	char dev[64];
	int fd;

	snprintf(dev, sizeof(dev), "/dev/fpga-port.%d", num);
	fd = open(dev, O_RDWR);
	return fd < 0 ? -errno : fd;
}

/* One small NLB copy on an open port, verified; 0 or -errno */
static inline int nlb_copy_check(int fd)
{
	struct dma_buf src = { 0 }, dst = { 0 }, dsm = { 0 };
	volatile uint64_t *afu;
	int ret;

	afu = mmap(NULL, NLB_AFU_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (afu == MAP_FAILED)
		return -errno;
	ret = dma_buf_alloc(fd, 4096, &dsm);
	if (ret)
		goto out_afu;
	ret = dma_buf_alloc(fd, 8192, &src);
	if (ret)
		goto out_dsm;
	ret = dma_buf_alloc(fd, 8192, &dst);
	if (ret)
		goto out_src;
	memset(src.va, 0xa5, src.len);
	memset(dst.va, 0, dst.len);
	nlb_start(afu, dsm.iova, src.iova, dst.iova, src.len / NLB_CACHE_LINE,
		  NLB_CFG_HELLO);
	ret = nlb_wait(afu, dsm.va, 10000);
	if (!ret && memcmp(src.va, dst.va, src.len))
		ret = -EIO;
	dma_buf_free(fd, &dst);
out_src:
	dma_buf_free(fd, &src);
out_dsm:
	dma_buf_free(fd, &dsm);
out_afu:
	munmap((void *)afu, NLB_AFU_SIZE);
	return ret;
}

/* Port @index of card @id opens, answers and copies; 0 or -errno */
static inline int card_port_works(unsigned int id, int index)
{
	struct dfl_fpga_port_info info = { .argsz = sizeof(info) };
	int num = sim_port_number_at(id, index), fd, ret;

	if (num < 0)
		return num;
	fd = port_open_num(num);
	if (fd < 0)
		return fd;
	ret = ioctl(fd, DFL_FPGA_PORT_GET_INFO, &info) ? -errno : 0;
	if (!ret)
		ret = nlb_copy_check(fd);
	close(fd);
	return ret;
}

static inline int card_exists(unsigned int id)
{
	char path[128];

	snprintf(path, sizeof(path), SIM_BUS "/devices/fpga_sim%u", id);
	return path_exists(path);
}

#endif /* _FPGA_SELFTEST_FAULT_DEV_H */
