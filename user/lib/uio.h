/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* libfpga internals: a port bound to uio_fpga (uio.c) */
#ifndef _LIBFPGA_UIO_H
#define _LIBFPGA_UIO_H

#include <stddef.h>
#include <stdint.h>

#include "fpga.h"

/* uio_fpga's map layout */
#define FPGA_UIO_MAP_AFU	0
#define FPGA_UIO_MAP_HDR	1
#define FPGA_UIO_MAP_DMA0	2
#define FPGA_UIO_MAX_MAPS	5

struct fpga_uio_map {
	uint64_t addr;		/* physical, or device address of a buffer */
	uint64_t size;
	void *va;		/* DMA buffers, once mapped */
};

struct fpga_uio {
	char name[32];		/* uioX */
	int fd;			/* /dev/uioX */
	unsigned int num_maps;
	struct fpga_uio_map maps[FPGA_UIO_MAX_MAPS];
};

int fpga_uio_open(const struct fpga_port_ref *ref, struct fpga_uio **out);
void fpga_uio_close(struct fpga_uio *u);
int fpga_uio_reset(const struct fpga_port_ref *ref);
int fpga_uio_irq_wait(struct fpga_uio *u, int timeout_ms, uint64_t *count);
int fpga_uio_dma_buffer(struct fpga_uio *u, unsigned int k, void **va,
			uint64_t *iova, uint64_t *size);

#endif /* _LIBFPGA_UIO_H */
