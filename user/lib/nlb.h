/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libfpga internals: the NLB0 loopback flow (nlb.c) over the buffers each
 * variant provides: ordinary memory or uio_fpga's buffers (nlb.c),
 * vgem_ext buffers waited for through their fence (nlb_vgem.c).
 */
#ifndef _LIBFPGA_NLB_H
#define _LIBFPGA_NLB_H

#include <stdbool.h>
#include <stdint.h>

#include "fpga.h"

struct nlb_buf {
	void *va;
	uint64_t len;		/* allocated, page multiple */
	uint64_t iova;
	bool mapped;		/* by the variant, through the port */
	bool kernel;		/* uio_fpga's buffer: nothing to free */
};

/* One run: the port, the buffers the AFU uses, the variant's own state */
struct nlb_run {
	struct fpga_port *port;
	struct nlb_buf dsm, src, dst;
	void *priv;
};

struct nlb_ops {
	/* run->dsm, src and dst, zeroed and mapped for the port */
	int (*alloc)(struct nlb_run *run, uint64_t size);
	/* Unmap and free what alloc made, also after it failed half way;
	 * returns @ret, or the first error if @ret is 0 */
	int (*free)(struct nlb_run *run, int ret);
	uint32_t cfg;		/* NLB_CFG bits besides the loopback mode */
	/* Optional, before the start: what wait() waits on */
	int (*arm)(struct nlb_run *run, unsigned int timeout_ms);
	/* The end of the run, or a timeout: the DSM's done bit tells which */
	int (*wait)(struct nlb_run *run, unsigned int timeout_ms);
};

/* The hello_fpga flow of fpga_nlb_loopback() over @ops' buffers */
int nlb_loopback(struct nlb_run *run, const struct nlb_ops *ops,
		 uint64_t size, unsigned int timeout_ms,
		 struct fpga_nlb_result *res);

/* @len bytes (rounded up to pages) of ordinary memory, mapped for the port */
int nlb_buf_alloc(struct fpga_port *port, struct nlb_buf *b, uint64_t len,
		  const char *what);
/* Unmap and free; returns @ret, or the first error if @ret is 0 */
int nlb_buf_free(struct fpga_port *port, struct nlb_buf *b, int ret);

#endif /* _LIBFPGA_NLB_H */
