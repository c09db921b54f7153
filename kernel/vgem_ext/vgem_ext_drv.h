/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * vgem_ext: virtual GEM buffers for user-space drivers, on the GEM shmem
 * helpers.  Buffers can be created with flags, mapped, shared as dma-bufs
 * (which the FPGA port maps for DMA) and fenced, vgem-style.
 */
#ifndef _VGEM_EXT_DRV_H
#define _VGEM_EXT_DRV_H

#include <linux/idr.h>
#include <linux/mutex.h>
#include <linux/types.h>

#include <drm/drm_device.h>
#include <drm/drm_gem_shmem_helper.h>

#include "fpga-compat.h"

struct dma_buf;
struct drm_file;
struct drm_mode_create_dumb;
struct platform_device;

#define VGEM_EXT_NAME	"vgem_ext"

/**
 * struct vgem_ext_device - the one vgem_ext device
 * @drm:	the DRM device
 * @pdev:	the platform device the module creates for it
 */
struct vgem_ext_device {
	struct drm_device drm;
	struct platform_device *pdev;
};

/**
 * struct vgem_ext_file - what one open file of the device owns
 * @fence_lock:	protects @fences and @num_fences
 * @fences:	fences attached through this file and not yet released by
 *		FENCE_SIGNAL, by id; closing the file signals them
 * @num_fences:	entries in @fences, or being attached: at most
 *		VGEM_EXT_FENCES_PER_FILE
 * @client:	what fdinfo's drm-client-id needs where the core has none
 */
struct vgem_ext_file {
	struct mutex fence_lock;	/* fences, num_fences */
	struct idr fences;
	unsigned int num_fences;
	struct fpga_compat_drm_client client;
};

/**
 * struct vgem_ext_bo - a buffer object
 * @shmem:	the shmem GEM object; first, drm_gem_shmem_free() kfrees it
 * @flags:	VGEM_EXT_BO_WC, VGEM_EXT_BO_POPULATE as created (a populated
 *		buffer holds a pin on its pages until it is freed)
 * @read_only:	an import of a dma-buf not open for writing: its holder
 *		neither maps it writable nor puts a write fence on it
 */
struct vgem_ext_bo {
	struct drm_gem_shmem_object shmem;
	u32 flags;
	bool read_only;
};

static inline struct vgem_ext_bo *to_vgem_ext_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct vgem_ext_bo,
			    shmem);
}

/* vgem_ext_bo.c */
enum drm_gem_object_status vgem_ext_bo_status(struct drm_gem_object *obj);
struct drm_gem_object *vgem_ext_bo_create_object(struct drm_device *dev,
						 size_t size);
int vgem_ext_dumb_create(struct drm_file *file, struct drm_device *dev,
			 struct drm_mode_create_dumb *args);
int vgem_ext_bo_create_ioctl(struct drm_device *dev, void *data,
			     struct drm_file *file);
int vgem_ext_bo_info_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file);

/* vgem_ext_prime.c */
int vgem_ext_prime_handle_to_fd(struct drm_device *dev, struct drm_file *file,
				u32 handle, u32 flags, int *prime_fd);
int vgem_ext_prime_fd_to_handle(struct drm_device *dev, struct drm_file *file,
				int prime_fd, u32 *handle);
struct drm_gem_object *vgem_ext_prime_import(struct drm_device *dev,
					     struct dma_buf *buf);

/* vgem_ext_fence.c */
void vgem_ext_fence_open(struct vgem_ext_file *vfile);
void vgem_ext_fence_close(struct vgem_ext_file *vfile);
int vgem_ext_fence_attach_ioctl(struct drm_device *dev, void *data,
				struct drm_file *file);
int vgem_ext_fence_signal_ioctl(struct drm_device *dev, void *data,
				struct drm_file *file);

#endif /* _VGEM_EXT_DRV_H */
