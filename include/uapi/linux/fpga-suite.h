/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Extensions of the FPGA accelerator suite to the port ABI of
 * <linux/fpga-dfl.h>, on /dev/fpga-port.N.
 *
 * They use their own ioctl magic, FPGA_SUITE_MAGIC, so that they can never
 * collide with upstream's 0xB6 numbers.  DFL_FPGA_CHECK_EXTENSION with
 * FPGA_PORT_EXT_DMABUF returns 1 when the port offers them.
 *
 * Modifications to all structs defined here are subject to
 * backwards-compatibility constraints.
 */
#ifndef _UAPI_LINUX_FPGA_SUITE_H
#define _UAPI_LINUX_FPGA_SUITE_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define FPGA_SUITE_MAGIC	0xB8

/* Command ranges: one per object */
#define FPGA_SUITE_PORT_BASE	0x00

/* Argument of DFL_FPGA_CHECK_EXTENSION: dma-buf mapping and fences */
#define FPGA_PORT_EXT_DMABUF	0x100

/**
 * struct fpga_port_dmabuf_map - FPGA_PORT_DMABUF_MAP
 * @argsz:	in: sizeof(struct fpga_port_dmabuf_map)
 * @flags:	in: direction, as DFL_FPGA_PORT_DMA_MAP's OFS flags: 0 or
 *		FPGA_PORT_DMA_TO_DEV | FPGA_PORT_DMA_FROM_DEV both ways,
 *		FPGA_PORT_DMA_TO_DEV the AFU only reads the buffer,
 *		FPGA_PORT_DMA_FROM_DEV it only writes it
 * @fd:		in: the dma-buf (from any exporter, e.g. vgem_ext PRIME)
 * @pad:	must be zero
 * @length:	out: the buffer's size in bytes
 * @iova:	out: device address of its start; the whole buffer is one
 *		device-contiguous range
 *
 * Attaches the card to the dma-buf and maps it for DMA.  The mapping
 * belongs to the file, like DFL_FPGA_PORT_DMA_MAP's: the file holds a
 * reference on the dma-buf until DFL_FPGA_PORT_DMA_UNMAP with @iova,
 * close, or the port's removal.
 *
 * Errors: EINVAL @argsz too small, unknown @flags, @pad not zero, a
 * buffer the card cannot see as one range; EBADF @fd is not open; EINVAL
 * @fd is not a dma-buf; EACCES @fd is not open for writing (exported
 * read-only) and @flags is not FPGA_PORT_DMA_TO_DEV; EEXIST this file has
 * mapped this dma-buf already;
 * ENODEV the port is gone; ENOMEM; the exporter's errors; EFAULT.
 */
struct fpga_port_dmabuf_map {
	__u32 argsz;
	__u32 flags;
#define FPGA_PORT_DMA_TO_DEV	(1u << 0)
#define FPGA_PORT_DMA_FROM_DEV	(1u << 1)
	__s32 fd;
	__u32 pad;
	__u64 length;
	__u64 iova;
};

#define FPGA_PORT_DMABUF_MAP	_IOWR(FPGA_SUITE_MAGIC, \
				      FPGA_SUITE_PORT_BASE + 0, \
				      struct fpga_port_dmabuf_map)

/**
 * struct fpga_port_dmabuf_fence - FPGA_PORT_DMABUF_FENCE
 * @argsz:	in: sizeof(struct fpga_port_dmabuf_fence)
 * @flags:	in: FPGA_PORT_FENCE_WRITE: the AFU writes the buffer (a write
 *		fence: readers wait); else it only reads it (a read fence:
 *		writers wait)
 * @iova:	in: a dma-buf mapping made with FPGA_PORT_DMABUF_MAP through
 *		this file
 * @vector:	in: the user interrupt (UINT vector) that tells the AFU's
 *		DMA is complete; the NLB0 raises 0 when NLB_CFG bit 28 is set
 * @timeout_ms:	in: the fence signals with the error ETIMEDOUT after this
 *		long if the interrupt has not come; 0 means 10000; at most
 *		60000
 *
 * Arms a fence on the dma-buf's reservation object, signalled by the next
 * interrupt on @vector.  poll() on the dma-buf then waits for the AFU:
 * POLLIN waits for a write fence, POLLOUT for either.  Arm it before
 * starting the AFU.  Fences still pending when their mapping's file is
 * closed signal with ECANCELED, when the port is removed with ENODEV.
 *
 * Errors: EINVAL @argsz too small, unknown @flags, @iova not a dma-buf
 * mapping of this file, @vector past the port's user interrupts,
 * @timeout_ms too large; ENOENT the port has no user interrupts; EACCES
 * FPGA_PORT_FENCE_WRITE on a mapping made with FPGA_PORT_DMA_TO_DEV (the
 * AFU only reads it), or any fence on a dma-buf not open for writing
 * (exported read-only: a read fence would hold its owner's writers);
 * EBUSY
 * the buffer has an unsignalled fence that conflicts (any fence for a
 * write fence, a write fence for a read fence); ENOSPC 64 fences of this
 * file or 1024 of the port are pending; ENODEV the port is gone; ENOMEM;
 * the interrupt's request_irq() error; EFAULT; EBADF the file is not open
 * for writing.
 */
struct fpga_port_dmabuf_fence {
	__u32 argsz;
	__u32 flags;
#define FPGA_PORT_FENCE_WRITE	(1u << 0)
	__u64 iova;
	__u32 vector;
	__u32 timeout_ms;
};

#define FPGA_PORT_DMABUF_FENCE	_IOW(FPGA_SUITE_MAGIC, \
				     FPGA_SUITE_PORT_BASE + 1, \
				     struct fpga_port_dmabuf_fence)

#endif /* _UAPI_LINUX_FPGA_SUITE_H */
