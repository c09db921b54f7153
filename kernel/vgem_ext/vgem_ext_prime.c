// SPDX-License-Identifier: GPL-2.0-only
/*
 * PRIME export and import: the DRM core's helpers, traced.  This file also
 * instantiates vgem_ext's tracepoints (vgem_ext_trace.h).
 *
 * A dma-buf whose file is not open for writing (exported without DRM_RDWR)
 * is imported as a read-only object of its own (vgem_ext_bo.read_only),
 * even one of ours: the core would hand another file the exporter's own,
 * writable object.
 */
#include <linux/dma-buf.h>
#include <linux/fs.h>

#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_prime.h>

#include "vgem_ext_drv.h"

#define CREATE_TRACE_POINTS
#include "vgem_ext_trace.h"

int vgem_ext_prime_handle_to_fd(struct drm_device *dev, struct drm_file *file,
				u32 handle, u32 flags, int *prime_fd)
{
	int ret = drm_gem_prime_handle_to_fd(dev, file, handle, flags,
					     prime_fd);

	trace_vgem_export(handle, ret ? -1 : *prime_fd, ret);
	return ret;
}

int vgem_ext_prime_fd_to_handle(struct drm_device *dev, struct drm_file *file,
				int prime_fd, u32 *handle)
{
	int ret = drm_gem_prime_fd_to_handle(dev, file, prime_fd, handle);

	trace_vgem_import(ret ? 0 : *handle, prime_fd, ret);
	return ret;
}

/*
 * A new object on an attachment of its own to @buf, as the core imports
 * another driver's dma-buf; the shmem helpers' free() undoes it all
 * (drm_prime_gem_destroy())
 */
static struct drm_gem_object *vgem_ext_prime_attach(struct drm_device *dev,
						    struct dma_buf *buf)
{
	struct dma_buf_attachment *attach;
	struct drm_gem_object *obj;
	struct sg_table *sgt;
	int ret;

	attach = dma_buf_attach(buf, dev->dev);
	if (IS_ERR(attach))
		return ERR_CAST(attach);
	get_dma_buf(buf);
	sgt = dma_buf_map_attachment_unlocked(attach, DMA_BIDIRECTIONAL);
	if (IS_ERR(sgt)) {
		ret = PTR_ERR(sgt);
		goto err_detach;
	}
	obj = drm_gem_shmem_prime_import_sg_table(dev, attach, sgt);
	if (IS_ERR(obj)) {
		ret = PTR_ERR(obj);
		goto err_unmap;
	}
	obj->import_attach = attach;
	obj->resv = buf->resv;
	return obj;

err_unmap:
	dma_buf_unmap_attachment_unlocked(attach, sgt, DMA_BIDIRECTIONAL);
err_detach:
	dma_buf_detach(buf, attach);
	dma_buf_put(buf);
	return ERR_PTR(ret);
}

/* drm_driver.gem_prime_import */
struct drm_gem_object *vgem_ext_prime_import(struct drm_device *dev,
					     struct dma_buf *buf)
{
	struct drm_gem_object *obj;

	if (buf->file->f_mode & FMODE_WRITE)
		return drm_gem_prime_import(dev, buf);
	obj = vgem_ext_prime_attach(dev, buf);
	if (!IS_ERR(obj))
		to_vgem_ext_bo(obj)->read_only = true;
	return obj;
}
