/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One NLB0 loopback on a port, as the benchmarks time it: started through
 * the AFU's registers, finished by the completion interrupt (user
 * interrupt 0) on an eventfd.  port_bench and scale_bench share it, so
 * that their loopback figures time the same thing.
 */
#ifndef _FPGA_BENCH_LOOPBACK_H
#define _FPGA_BENCH_LOOPBACK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nlb_util.h"

/*
 * Bind user interrupt 0 of the port @fd to @efd; 0 or -1.  The benchmarks
 * sleep on it: a spinning waiter would take the CPU from the card's model
 * thread, which does the copy.
 */
static inline int loopback_bind_irq(int fd, int efd)
{
	struct {
		struct dfl_fpga_irq_set s;
		int32_t fd;
	} set = { .s = { .start = 0, .count = 1 }, .fd = efd };

	return ioctl(fd, DFL_FPGA_PORT_UINT_SET_IRQ, &set) ? -1 : 0;
}

/* One NLB0 copy of @len bytes, waiting on the completion interrupt */
static inline void loopback(volatile uint64_t *afu, int efd,
			    const struct dma_buf *dsm, uint64_t src,
			    uint64_t dst, uint64_t len)
{
	uint64_t n;

	memset(dsm->va, 0, 64 * 2);
	nlb_start(afu, dsm->iova, src, dst, len / NLB_CACHE_LINE,
		  NLB_CFG_HELLO | NLB_CFG_IRQ_ON_DONE);
	if (read(efd, &n, 8) != 8 ||
	    !(((volatile uint64_t *)dsm->va)[NLB_DSM_STATUS / 8] & 1)) {
		fprintf(stderr, "loopback of %llu bytes failed\n",
			(unsigned long long)len);
		exit(1);
	}
	nlb_write(afu, NLB_CTL, NLB_CTL_HALT);
}

#endif /* _FPGA_BENCH_LOOPBACK_H */
