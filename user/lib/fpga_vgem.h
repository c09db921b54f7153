/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libfpga and vgem_ext: DMA buffers that are GEM objects of the vgem_ext
 * DRM driver (or of any DRM driver, through PRIME), shared as dma-bufs,
 * mapped for the AFU through /dev/fpga-port.N (<linux/fpga-suite.h>) and
 * waited for with the port's DMA completion fence instead of a spin on
 * the DSM.  Needs libdrm.  Same conventions as fpga.h: 0 or -errno, and a
 * message in fpga_errmsg().
 */
#ifndef _LIBFPGA_FPGA_VGEM_H
#define _LIBFPGA_FPGA_VGEM_H

#include <stdbool.h>
#include <stdint.h>

#include "fpga.h"

#define FPGA_VGEM_DRIVER	"vgem_ext"

/* An open DRM device */
struct fpga_drm;

/*
 * Open a node of DRM driver @driver ("vgem_ext", "vgem", ...): the render
 * node (else the card node), or with @card the card node, which dumb
 * buffers need.
 */
int fpga_drm_open(const char *driver, bool card, struct fpga_drm **drm);
void fpga_drm_close(struct fpga_drm *drm);
int fpga_drm_fd(const struct fpga_drm *drm);
const char *fpga_drm_node(const struct fpga_drm *drm);
/* Driver version "1.0.0" and date, from DRM_IOCTL_VERSION */
int fpga_drm_version(struct fpga_drm *drm, char *buf, size_t size);

/* A buffer object of a DRM device */
struct fpga_bo {
	uint32_t handle;
	uint32_t flags;		/* VGEM_EXT_BO_* (vgem_ext) */
	uint64_t size;
	uint64_t offset;	/* mmap offset on the device */
	void *map;		/* CPU mapping, NULL until fpga_bo_map() */
	int dmabuf;		/* dma-buf fd, -1 until exported/imported */
};

/* vgem_ext BO_CREATE: @size rounded up to pages, VGEM_EXT_BO_* @flags */
int fpga_bo_create(struct fpga_drm *drm, uint64_t size, uint32_t flags,
		   struct fpga_bo *bo);
/* A dumb buffer (any driver, e.g. Debian's vgem): at most 4 GiB */
int fpga_bo_create_dumb(struct fpga_drm *drm, uint64_t size,
			struct fpga_bo *bo);
/* vgem_ext BO_INFO: refresh size, offset and flags (VGEM_EXT_BO_*) */
int fpga_bo_info(struct fpga_drm *drm, struct fpga_bo *bo);
/* Map it (read and write, shared) at bo->offset */
int fpga_bo_map(struct fpga_drm *drm, struct fpga_bo *bo);
/* PRIME export into bo->dmabuf (read-write, close-on-exec) */
int fpga_bo_export(struct fpga_drm *drm, struct fpga_bo *bo);
/* PRIME import of @dmabuf (the fd is duplicated into bo->dmabuf) */
int fpga_bo_import(struct fpga_drm *drm, int dmabuf, struct fpga_bo *bo);
/* Unmap, close the dma-buf and the handle */
void fpga_bo_free(struct fpga_drm *drm, struct fpga_bo *bo);

/* FPGA_PORT_DMABUF_MAP; undo with fpga_dma_unmap(); flags FPGA_PORT_DMA_* */
int fpga_dma_map_dmabuf(struct fpga_port *port, int dmabuf, uint32_t flags,
			uint64_t *iova, uint64_t *len);
/* FPGA_PORT_DMABUF_FENCE: the next user interrupt @vector signals it */
int fpga_dma_fence(struct fpga_port *port, uint64_t iova, bool write,
		   unsigned int vector, unsigned int timeout_ms);
/*
 * Wait up to @timeout_ms for the fences of @dmabuf: for writers only
 * (@for_write false, before reading) or for all (before writing).
 * -ETIMEDOUT if they have not signalled.
 */
int fpga_dmabuf_wait(int dmabuf, bool for_write, int timeout_ms);

/*
 * fpga_nlb_loopback() with vgem_ext buffers (VGEM_EXT_BO_* @bo_flags)
 * mapped as dma-bufs, and the wait done by poll() on the destination's
 * dma-buf, whose fence the AFU's completion interrupt signals.
 */
int fpga_nlb_loopback_vgem(struct fpga_port *port, uint64_t size,
			   unsigned int timeout_ms, uint32_t bo_flags,
			   struct fpga_nlb_result *res);

#endif /* _LIBFPGA_FPGA_VGEM_H */
