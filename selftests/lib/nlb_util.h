/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Driving the NLB0 loopback AFU from a selftest: DMA buffers mapped through
 * /dev/fpga-port.N and the hello_fpga sequence on the AFU's registers.
 */
#ifndef _FPGA_SELFTEST_NLB_UTIL_H
#define _FPGA_SELFTEST_NLB_UTIL_H

#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <linux/fpga-dfl.h>

#include <fpga/nlb0.h>	/* user/include: the AFU's registers */

/* The simulated card's AFU region */
#define NLB_AFU_SIZE		(256 * 1024)
/* CTL values: out of reset and started; stopped */
#define NLB_CTL_RUN		(NLB_CTL_RESET_N | NLB_CTL_START)
#define NLB_CTL_HALT		(NLB_CTL_RUN | NLB_CTL_STOP)

/* A buffer of whole pages, mapped for the AFU */
struct dma_buf {
	void *va;
	uint64_t len;
	uint64_t iova;
};

static inline int dma_map(int fd, void *va, uint64_t len, uint32_t flags,
			  uint64_t *iova)
{
	struct dfl_fpga_port_dma_map m = {
		.argsz = sizeof(m), .flags = flags,
		.user_addr = (uintptr_t)va, .length = len,
	};

	if (ioctl(fd, DFL_FPGA_PORT_DMA_MAP, &m))
		return -errno;
	*iova = m.iova;
	return 0;
}

static inline int dma_unmap(int fd, uint64_t iova)
{
	struct dfl_fpga_port_dma_unmap u = { .argsz = sizeof(u), .iova = iova };

	return ioctl(fd, DFL_FPGA_PORT_DMA_UNMAP, &u) ? -errno : 0;
}

/* Allocate @len bytes (rounded up to pages) and map them; 0 or -errno */
static inline int dma_buf_alloc(int fd, uint64_t len, struct dma_buf *b)
{
	int ret;

	b->len = (len + 4095) & ~4095ull;
	b->va = mmap(NULL, b->len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (b->va == MAP_FAILED)
		return -errno;
	ret = dma_map(fd, b->va, b->len, 0, &b->iova);
	if (ret)
		munmap(b->va, b->len);
	return ret;
}

static inline void dma_buf_free(int fd, struct dma_buf *b)
{
	dma_unmap(fd, b->iova);
	munmap(b->va, b->len);
}

static inline void nlb_write(volatile uint64_t *afu, unsigned int reg,
			     uint64_t v)
{
	afu[reg / 8] = v;
}

static inline uint64_t nlb_read(volatile uint64_t *afu, unsigned int reg)
{
	return afu[reg / 8];
}

/* Start a copy of @lines cache lines from @src to @dst; DSM in @dsm */
static inline void nlb_start(volatile uint64_t *afu, uint64_t dsm,
			     uint64_t src, uint64_t dst, uint64_t lines,
			     uint32_t cfg)
{
	nlb_write(afu, NLB_CTL, 0);
	nlb_write(afu, NLB_DSM_BASEL, dsm);
	nlb_write(afu, NLB_CTL, NLB_CTL_RESET_N);
	nlb_write(afu, NLB_SRC_ADDR, src / NLB_CACHE_LINE);
	nlb_write(afu, NLB_DST_ADDR, dst / NLB_CACHE_LINE);
	nlb_write(afu, NLB_NUM_LINES, lines);
	nlb_write(afu, NLB_CFG, cfg);
	nlb_write(afu, NLB_CTL, NLB_CTL_RUN);
}

static inline double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Wait for the DSM's done bit; 0, or -ETIMEDOUT after @timeout_ms */
static inline int nlb_wait(volatile uint64_t *afu, volatile uint64_t *dsm,
			   double timeout_ms)
{
	double end = now_ms() + timeout_ms;

	while (!(dsm[NLB_DSM_STATUS / 8] & 1)) {
		if (now_ms() > end)
			return -ETIMEDOUT;
		usleep(50);
	}
	nlb_write(afu, NLB_CTL, NLB_CTL_HALT);
	return 0;
}

#endif /* _FPGA_SELFTEST_NLB_UTIL_H */
