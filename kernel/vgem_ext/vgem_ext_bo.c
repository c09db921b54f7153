// SPDX-License-Identifier: GPL-2.0-only
/*
 * vgem_ext buffers: shmem GEM objects with flags (write-combined or cached
 * CPU mappings, pages allocated up front), created by BO_CREATE or as dumb
 * buffers, and described by BO_INFO.
 *
 * Memory: a buffer's pages come from shmem when first needed (mmap, a
 * dma-buf mapping, or creation with VGEM_EXT_BO_POPULATE).  They are asked
 * for with __GFP_RETRY_MAYFAIL, so a buffer too large for the memory left
 * fails with -ENOMEM where it is used instead of waking the OOM killer.
 */
#include <linux/dma-resv.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/sched/signal.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_mode.h>
#include <drm/drm_vma_manager.h>
#include <drm/vgem_ext_drm.h>

#include "fpga-compat.h"
#include "vgem_ext_drv.h"
#include "vgem_ext_trace.h"

#define VGEM_EXT_BO_CREATE_FLAGS	(VGEM_EXT_BO_WC | VGEM_EXT_BO_POPULATE)

/*
 * Get every page of a buffer into its shmem file before the helpers pin
 * them: drm_gem_get_pages() takes them all in one loop that neither
 * reschedules nor looks at signals, so for a buffer of gigabytes it would
 * stall RCU on a kernel without preemption and could not be killed.  Here
 * the caller yields and may be killed (-EINTR); the helpers then find each
 * page in the page cache.  The file's gfp mask applies (RETRY_MAYFAIL).
 */
static int vgem_ext_bo_prefault(struct drm_gem_shmem_object *shmem)
{
	struct address_space *mapping = shmem->base.filp->f_mapping;
	pgoff_t npages = shmem->base.size >> PAGE_SHIFT;
	struct page *page;
	pgoff_t i;

	for (i = 0; i < npages; i++) {
		if (fatal_signal_pending(current))
			return -EINTR;
		page = shmem_read_mapping_page(mapping, i);
		if (IS_ERR(page))
			return PTR_ERR(page);
		put_page(page);
		cond_resched();
	}
	return 0;
}

/* The same for a buffer that has no pages yet; imports have none of theirs */
static int vgem_ext_bo_prefault_lazy(struct drm_gem_shmem_object *shmem)
{
	if (shmem->base.import_attach || READ_ONCE(shmem->pages))
		return 0;
	return vgem_ext_bo_prefault(shmem);
}

static void vgem_ext_bo_free(struct drm_gem_object *obj)
{
	struct vgem_ext_bo *bo = to_vgem_ext_bo(obj);

	/* The pin VGEM_EXT_BO_POPULATE took at creation */
	if (bo->flags & VGEM_EXT_BO_POPULATE)
		drm_gem_shmem_unpin(&bo->shmem);
	drm_gem_shmem_free(&bo->shmem);
}

/* drm_gem_object_funcs.pin (a dma-buf attachment) */
static int vgem_ext_bo_pin(struct drm_gem_object *obj)
{
	int ret;

	ret = vgem_ext_bo_prefault_lazy(to_drm_gem_shmem_obj(obj));
	return ret ? ret : drm_gem_shmem_object_pin(obj);
}

/* drm_gem_object_funcs.mmap: the helper gets every page first, too */
static int vgem_ext_bo_mmap(struct drm_gem_object *obj,
			    struct vm_area_struct *vma)
{
	int ret;

	/*
	 * dma_buf_mmap(), which maps an import, does not look at the
	 * dma-buf's mode: refuse a writable mapping of a read-only import
	 * (EACCES, as mmap() of the dma-buf itself) and one made so later
	 */
	if (to_vgem_ext_bo(obj)->read_only) {
		if (vma_is_cow_mapping(vma))
			return -EINVAL;
		if (vma->vm_flags & VM_WRITE)
			return -EACCES;
		vm_flags_clear(vma, VM_MAYWRITE);
	}
	ret = vgem_ext_bo_prefault_lazy(to_drm_gem_shmem_obj(obj));
	return ret ? ret : drm_gem_shmem_object_mmap(obj, vma);
}

/*
 * Whether the buffer has its pages: shmem's, got when first needed, or an
 * import's, the exporter's, mapped for as long as it lives.  A snapshot.
 */
static bool vgem_ext_bo_resident(struct drm_gem_object *obj)
{
	return obj->import_attach || READ_ONCE(to_drm_gem_shmem_obj(obj)->pages);
}

/*
 * drm_gem_object_funcs.status, for fdinfo's drm-resident-memory; called
 * under the file's table_lock.  Nothing is purgeable: there is no madvise.
 */
enum drm_gem_object_status vgem_ext_bo_status(struct drm_gem_object *obj)
{
	return vgem_ext_bo_resident(obj) ? DRM_GEM_OBJECT_RESIDENT : 0;
}

/* The shmem helpers' object functions, with our free(), pin() and mmap() */
static const struct drm_gem_object_funcs vgem_ext_bo_funcs = {
	.free		= vgem_ext_bo_free,
	.print_info	= drm_gem_shmem_object_print_info,
	.pin		= vgem_ext_bo_pin,
	.unpin		= drm_gem_shmem_object_unpin,
	.get_sg_table	= drm_gem_shmem_object_get_sg_table,
	.vmap		= drm_gem_shmem_object_vmap,
	.vunmap		= drm_gem_shmem_object_vunmap,
	.mmap		= vgem_ext_bo_mmap,
	.vm_ops		= &drm_gem_shmem_vm_ops,
	FPGA_COMPAT_DRM_GEM_STATUS(vgem_ext_bo_status)
};

/*
 * drm_driver.gem_create_object: every object of the device, imported ones
 * included, is a struct vgem_ext_bo.
 */
struct drm_gem_object *vgem_ext_bo_create_object(struct drm_device *dev,
						 size_t size)
{
	struct vgem_ext_bo *bo;

	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->shmem.base.funcs = &vgem_ext_bo_funcs;
	return &bo->shmem.base;
}

/* A new buffer of @size bytes (a page multiple, checked by the caller) */
static struct vgem_ext_bo *vgem_ext_bo_new(struct drm_device *dev, u64 size,
					   u32 flags)
{
	struct drm_gem_shmem_object *shmem;
	struct vgem_ext_bo *bo;
	int ret;

	shmem = drm_gem_shmem_create(dev, size);
	if (IS_ERR(shmem))
		return ERR_CAST(shmem);
	bo = container_of(shmem, struct vgem_ext_bo, shmem);
	/* Nothing has mapped the object yet: its caching may still change */
	shmem->map_wc = flags & VGEM_EXT_BO_WC;
	mapping_set_gfp_mask(shmem->base.filp->f_mapping,
			     GFP_HIGHUSER | __GFP_RETRY_MAYFAIL | __GFP_NOWARN);

	/*
	 * drm_gem_shmem_pin(), not the object's pin(): that one expects the
	 * caller to hold the reservation lock (drm_gem_pin() does, since
	 * 6.10), this one takes what the kernel's helpers need
	 */
	if (flags & VGEM_EXT_BO_POPULATE) {
		ret = vgem_ext_bo_prefault(shmem);
		if (!ret)
			ret = drm_gem_shmem_pin(shmem);
		if (ret) {
			drm_gem_object_put(&shmem->base);
			return ERR_PTR(ret);
		}
	}
	/* Only now: free() unpins what POPULATE pinned */
	bo->flags = flags;
	return bo;
}

/* Size checks shared by BO_CREATE and dumb buffers; 0 or -errno */
static int vgem_ext_bo_check_size(u64 *size)
{
	if (!*size || *size > U64_MAX - PAGE_SIZE + 1)
		return -EINVAL;
	*size = PAGE_ALIGN(*size);
	/* No allocation can succeed; say so before trying */
	if (*size >> PAGE_SHIFT > totalram_pages())
		return -ENOMEM;
	return 0;
}

static int vgem_ext_bo_new_handle(struct drm_file *file,
				  struct drm_device *dev, u64 size, u32 flags,
				  u32 *handle)
{
	struct vgem_ext_bo *bo;
	int ret;

	bo = vgem_ext_bo_new(dev, size, flags);
	if (IS_ERR(bo))
		return PTR_ERR(bo);
	ret = drm_gem_handle_create(file, &bo->shmem.base, handle);
	trace_vgem_create(ret ? 0 : *handle, size, flags, ret);
	/* The handle holds the object now, or it is freed here */
	drm_gem_object_put(&bo->shmem.base);
	return ret;
}

/*
 * drm_driver.dumb_create: write-combined like vgem's buffers, since dumb
 * buffers come with no way to ask for anything else.
 */
int vgem_ext_dumb_create(struct drm_file *file, struct drm_device *dev,
			 struct drm_mode_create_dumb *args)
{
	u64 size;
	int ret;

	/* drm_mode_create_dumb() checked that this fits in 32 bits */
	args->pitch = DIV_ROUND_UP((u64)args->width * args->bpp, 8);
	size = (u64)args->pitch * args->height;
	ret = vgem_ext_bo_check_size(&size);
	if (ret)
		return ret;
	args->size = size;
	return vgem_ext_bo_new_handle(file, dev, size, VGEM_EXT_BO_WC,
				      &args->handle);
}

static int vgem_ext_bo_offset(struct drm_gem_object *obj, u64 *offset)
{
	int ret;

	ret = drm_gem_create_mmap_offset(obj);
	if (ret)
		return ret;
	*offset = drm_vma_node_offset_addr(&obj->vma_node);
	return 0;
}

/*
 * DRM_IOCTL_VGEM_EXT_BO_CREATE: a buffer of @size bytes rounded up to
 * pages, and its handle and mmap offset.  EINVAL: unknown flags, size 0
 * or overflowing when rounded up; ENOMEM: larger than the system's memory,
 * or POPULATE could not get the pages.
 */
int vgem_ext_bo_create_ioctl(struct drm_device *dev, void *data,
			     struct drm_file *file)
{
	struct drm_vgem_ext_bo_create *args = data;
	struct drm_gem_object *obj;
	u64 size = args->size;
	u32 handle;
	int ret;

	if (args->flags & ~VGEM_EXT_BO_CREATE_FLAGS)
		return -EINVAL;
	ret = vgem_ext_bo_check_size(&size);
	if (ret)
		return ret;
	ret = vgem_ext_bo_new_handle(file, dev, size, args->flags, &handle);
	if (ret)
		return ret;

	obj = drm_gem_object_lookup(file, handle);
	if (!obj)	/* closed by another thread of the process already */
		return -ENOENT;
	ret = vgem_ext_bo_offset(obj, &args->offset);
	drm_gem_object_put(obj);
	if (ret) {
		drm_gem_handle_delete(file, handle);
		return ret;
	}
	args->size = size;
	args->handle = handle;
	return 0;
}

/*
 * DRM_IOCTL_VGEM_EXT_BO_INFO: size, mmap offset and state of a buffer.
 * EINVAL: pad not zero; ENOENT: no such handle.
 */
int vgem_ext_bo_info_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file)
{
	struct drm_vgem_ext_bo_info *args = data;
	struct drm_gem_object *obj;
	u32 flags;
	int ret;

	if (args->pad)
		return -EINVAL;
	obj = drm_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	ret = vgem_ext_bo_offset(obj, &args->offset);
	if (ret)
		goto out;
	/* A snapshot: another thread may change any of this right after */
	flags = to_vgem_ext_bo(obj)->flags;
	/* An import has the exporter's dma-buf: it is not an export */
	if (obj->import_attach)
		flags |= VGEM_EXT_BO_IMPORTED;
	else if (READ_ONCE(obj->dma_buf))
		flags |= VGEM_EXT_BO_EXPORTED;
	if (vgem_ext_bo_resident(obj))
		flags |= VGEM_EXT_BO_RESIDENT;
	if (!dma_resv_test_signaled(obj->resv, DMA_RESV_USAGE_READ))
		flags |= VGEM_EXT_BO_BUSY;
	args->size = obj->size;
	args->flags = flags;
	args->reserved = 0;
out:
	drm_gem_object_put(obj);
	return ret;
}
