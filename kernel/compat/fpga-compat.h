/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one place where the suite meets the differences between the kernels
 * it is built for: Debian's 6.1 and 6.12 lines and trixie-backports' 7.3
 * (generic, rt and cloud).
 * Driver code is written for the newer API and this header gives it to the
 * older kernel.  Each entry names the kernel version that changed; the
 * test is not that version but the target's headers themselves (compat.mk
 * defines FPGA_HAVE_* from them), since a distribution may backport.
 */
#ifndef FPGA_COMPAT_H
#define FPGA_COMPAT_H

#include <linux/device.h>
#include <linux/eventfd.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <net/genetlink.h>

/* 6.12: <asm/unaligned.h> moved to <linux/unaligned.h> */
#ifdef FPGA_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * 6.3: bus_type.uevent() takes a const device; 6.4: bus attributes'
 * show()/store() take a const bus_type; 6.11: bus_type.match() takes a
 * const driver.  Our callbacks are declared with these qualifiers.
 */
#ifdef FPGA_HAVE_CONST_BUS_UEVENT
#define FPGA_COMPAT_UEVENT_CONST	const
#else
#define FPGA_COMPAT_UEVENT_CONST
#endif

#ifdef FPGA_HAVE_CONST_BUS_ATTR
#define FPGA_COMPAT_BUS_ATTR_CONST	const
#else
#define FPGA_COMPAT_BUS_ATTR_CONST
#endif

#ifdef FPGA_HAVE_CONST_BUS_MATCH
#define FPGA_COMPAT_MATCH_CONST		const
#else
#define FPGA_COMPAT_MATCH_CONST
#endif

/* 6.3: vma->vm_flags became read-only, changed through these helpers */
#ifndef FPGA_HAVE_VM_FLAGS_SET
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

static inline void vm_flags_clear(struct vm_area_struct *vma,
				  vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

/* 6.8: eventfd_signal() lost its count argument (it was always 1 here) */
static inline void fpga_eventfd_signal(struct eventfd_ctx *ctx)
{
#ifdef FPGA_HAVE_EVENTFD_SIGNAL_NO_COUNT
	eventfd_signal(ctx);
#else
	eventfd_signal(ctx, 1);
#endif
}

/* 6.6: a dump's parsed attributes moved into genl_dumpit_info.info */
static inline struct nlattr **
fpga_genl_dump_attrs(struct netlink_callback *cb)
{
#ifdef FPGA_HAVE_GENL_DUMPIT_INFO_INFO
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * 6.6: a GEM object's dma-buf is mmapped through the object's own mmap;
 * before, through drm_driver.gem_prime_mmap, which drivers had to set
 */
#ifdef FPGA_HAVE_DRM_GEM_PRIME_MMAP
#define FPGA_COMPAT_DRM_GEM_PRIME_MMAP	.gem_prime_mmap = drm_gem_prime_mmap,
#else
#define FPGA_COMPAT_DRM_GEM_PRIME_MMAP
#endif

/*
 * 6.13: a symbol namespace is a string literal, MODULE_IMPORT_NS("NS")
 * and EXPORT_SYMBOL_NS_GPL(sym, "NS"); before, both took a bare name and
 * made the string themselves.  MODULE_IMPORT_NS() of the string is given
 * to the older kernels; an export names its namespace with
 * FPGA_COMPAT_NS(NAME), what the target's EXPORT_SYMBOL_NS_GPL() takes.
 */
#ifdef FPGA_HAVE_STRING_NS
#define FPGA_COMPAT_NS(name)		#name
#else
#undef MODULE_IMPORT_NS
#define MODULE_IMPORT_NS(ns)		MODULE_INFO(import_ns, ns)
#define FPGA_COMPAT_NS(name)		name
#endif

/* 6.16: from_timer() became timer_container_of() */
#ifndef FPGA_HAVE_TIMER_CONTAINER_OF
#define timer_container_of(var, callback_timer, timer_fieldname) \
	from_timer(var, callback_timer, timer_fieldname)
#endif

/*
 * 6.11: pcim_iomap_region() requests and maps one BAR, the mapping its
 * return value; 6.14: pcim_iounmap_region() undoes it, and later
 * pcim_iounmap_regions() goes.  Before, one BAR was a mask of one.
 */
#ifndef FPGA_HAVE_PCIM_IOMAP_REGION
static inline void __iomem *pcim_iomap_region(struct pci_dev *pdev, int bar,
					      const char *name)
{
	int ret = pcim_iomap_regions(pdev, BIT(bar), name);

	return ret ? IOMEM_ERR_PTR(ret) : pcim_iomap_table(pdev)[bar];
}
#endif

#ifndef FPGA_HAVE_PCIM_IOUNMAP_REGION
static inline void pcim_iounmap_region(struct pci_dev *pdev, int bar)
{
	pcim_iounmap_regions(pdev, BIT(bar));
}
#endif

/*
 * 7.0 (and Debian's 6.12): the driver core keeps a device's
 * driver_override, under a lock of its own, and makes its sysfs file for
 * a bus that sets bus_type.driver_override; later, driver_set_override()
 * goes, with which a bus kept the override in a field of its own devices
 * and made the file itself.  The fpga_dfl bus keeps such a field
 * (fpga_dfl_device.driver_override) and a file for the older kernels
 * only: these helpers take the field, and ignore it where the core keeps
 * the override.  The sysfs ABI is the same on both.
 */
#ifdef FPGA_HAVE_BUS_DRIVER_OVERRIDE
#define FPGA_COMPAT_CORE_DRIVER_OVERRIDE	true
#define FPGA_COMPAT_BUS_DRIVER_OVERRIDE		.driver_override = true,

/* Set it (@s: a driver name, "" or "\n" clears it) */
static inline int fpga_driver_override_set(struct device *dev,
					   const char **field,
					   const char *s, size_t len)
{
	return __device_set_driver_override(dev, s, len);
}

/*
 * > 0: it names @drv; 0: it names another driver; < 0: none is set.
 * device_match_driver_override(), with spin_lock() for its guard(), which
 * sparse cannot follow (it reports a context imbalance); the same for the
 * core's driver_override_show() below.
 */
static inline int fpga_driver_override_match(struct device *dev,
					     const char *const *field,
					     const struct device_driver *drv)
{
	int ret = -1;

	spin_lock(&dev->driver_override.lock);
	if (dev->driver_override.name)
		ret = !strcmp(dev->driver_override.name, drv->name);
	spin_unlock(&dev->driver_override.lock);
	return ret;
}

/* The bus's own file, which the core's replaces (not shown there) */
static inline ssize_t fpga_driver_override_show(struct device *dev,
						const char *const *field,
						char *buf)
{
	ssize_t len;

	spin_lock(&dev->driver_override.lock);
	len = sysfs_emit(buf, "%s\n", dev->driver_override.name);
	spin_unlock(&dev->driver_override.lock);
	return len;
}

/* A copy of the override, NULL if none: for a device that replaces @dev */
static inline char *fpga_driver_override_dup(struct device *dev,
					     const char *const *field)
{
	char *name;

	spin_lock(&dev->driver_override.lock);
	name = kstrdup(dev->driver_override.name, GFP_ATOMIC);
	spin_unlock(&dev->driver_override.lock);
	return name;
}
#else
#define FPGA_COMPAT_CORE_DRIVER_OVERRIDE	false
#define FPGA_COMPAT_BUS_DRIVER_OVERRIDE

static inline int fpga_driver_override_set(struct device *dev,
					   const char **field,
					   const char *s, size_t len)
{
	return driver_set_override(dev, field, s, len);
}

static inline int fpga_driver_override_match(struct device *dev,
					     const char *const *field,
					     const struct device_driver *drv)
{
	return *field ? !strcmp(*field, drv->name) : -1;
}

/* driver_set_override() changes @field under the device lock */
static inline ssize_t fpga_driver_override_show(struct device *dev,
						const char *const *field,
						char *buf)
{
	ssize_t len;

	device_lock(dev);
	len = sysfs_emit(buf, "%s\n", *field);
	device_unlock(dev);
	return len;
}

static inline char *fpga_driver_override_dup(struct device *dev,
					     const char *const *field)
{
	char *name;

	device_lock(dev);
	name = kstrdup(*field, GFP_KERNEL);
	device_unlock(dev);
	return name;
}
#endif

/* 6.2: an SPI host controller is allocated by spi_alloc_host() */
#ifndef FPGA_HAVE_SPI_ALLOC_HOST
#define spi_alloc_host(dev, size)	spi_alloc_master(dev, size)
#endif

/*
 * A PCI function's driver_override, set before the function is added so
 * that no other driver matching its ids binds it first: in pci_dev until
 * the driver core kept it (FPGA_HAVE_BUS_DRIVER_OVERRIDE, above).
 */
static inline int fpga_pci_driver_override_set(struct pci_dev *pdev,
					       const char *name)
{
#ifdef FPGA_HAVE_BUS_DRIVER_OVERRIDE
	return __device_set_driver_override(&pdev->dev, name, strlen(name));
#else
	return driver_set_override(&pdev->dev, &pdev->driver_override, name,
				   strlen(name));
#endif
}

/*
 * 6.19: dma_map_ops.map_page(page, offset) and .unmap_page became
 * .map_phys(phys) and .unmap_phys (the same arguments otherwise).  A
 * driver writes map_phys and unmap_phys; FPGA_COMPAT_DMA_MAP_PHYS() puts
 * them in its dma_map_ops, after FPGA_COMPAT_DEFINE_DMA_MAP_PAGE(map);
 * has made the older kernels' map_page of its map_phys.  That ends, on
 * every kernel, with a static_assert() that the function the ops will
 * take has the type of their member (no code).
 */
#ifdef FPGA_HAVE_DMA_MAP_PHYS
#define FPGA_COMPAT_DEFINE_DMA_MAP_PAGE(map)				\
	static_assert(__same_type(&(map),				\
		typeof_member(const struct dma_map_ops, map_phys)))
#define FPGA_COMPAT_DMA_MAP_PHYS(map, unmap) \
	.map_phys = map, .unmap_phys = unmap,
#else
#define FPGA_COMPAT_DEFINE_DMA_MAP_PAGE(map)				\
static dma_addr_t map##_page(struct device *dev, struct page *page,	\
			     unsigned long offset, size_t size,		\
			     enum dma_data_direction dir,		\
			     unsigned long attrs)			\
{									\
	return map(dev, page_to_phys(page) + offset, size, dir, attrs);	\
}									\
static_assert(__same_type(&map##_page,					\
	typeof_member(const struct dma_map_ops, map_page)))

#define FPGA_COMPAT_DMA_MAP_PHYS(map, unmap) \
	.map_page = map##_page, .unmap_page = unmap,
#endif

/*
 * 6.18: DMA_ATTR_MMIO, a physical address with no struct page behind it
 * (map_phys of dma_map_resource()); map_page never had one
 */
#ifndef FPGA_HAVE_DMA_ATTR_MMIO
#define DMA_ATTR_MMIO	0
#endif

/*
 * 6.14: drm_driver.date is gone (DRM_IOCTL_VERSION of 6.1 still copies it).
 * An initializer list has no place for a date without the member, so the
 * newer kernels' stub takes its argument as variadic and drops it.
 */
#ifdef FPGA_HAVE_DRM_DRIVER_DATE
#define FPGA_COMPAT_DRM_DRIVER_DATE(d)		.date = (d),
#else
#define FPGA_COMPAT_DRM_DRIVER_DATE(...)
#endif

/* 7.x: is_cow_mapping(vma->vm_flags) became vma_is_cow_mapping(vma) */
#ifndef FPGA_HAVE_VMA_IS_COW_MAPPING
static inline bool vma_is_cow_mapping(const struct vm_area_struct *vma)
{
	return is_cow_mapping(vma->vm_flags);
}
#endif

/*
 * 7.1: uio_info.mmap(info, vma) became uio_info.mmap_prepare(info, desc):
 * the driver describes the mapping to be made (struct vm_area_desc) and
 * never sees the VMA.  What needs the mapping made (a reference, a record
 * of it) goes in vm_ops->mapped(), new too, called once the VMA exists,
 * with its range, offset, file and private data; if it fails, so does the
 * mmap(), and no vm_ops->close() follows.  7.1's UIO core calls both from
 * its f_op->mmap, under the device's info_lock as it called .mmap, through
 * the mm's compatibility layer (compat_set_desc_from_vma(), then
 * __compat_vma_mmap(), which applies the descriptor to the VMA and calls
 * mapped()).
 *
 * A driver of the suite writes, once for both kernels:
 *  - a prepare function on struct fpga_mmap_desc, the part of a new
 *    mapping both kernels let it see and change; it must set @vm_ops and
 *    @private_data, and leave nothing to undo should the mmap() fail;
 *  - vm_ops->mapped() as 7.1 declares it, listed in its vm_ops with
 *    FPGA_COMPAT_VM_MAPPED();
 *  - the UIO hook, int hook(struct uio_info *, struct
 *    fpga_compat_uio_mmap_arg *), which returns fpga_compat_uio_mmap() of
 *    the two and which fpga_compat_uio_set_mmap() installs: on 7.1 it is
 *    .mmap_prepare and hands the descriptor in and out; before, .mmap,
 *    which applies it to the VMA and then calls mapped() itself, as 7.1's
 *    compatibility layer does.
 */
struct uio_info;

/**
 * struct fpga_mmap_desc - a mapping being made, as a driver sees it
 * @pgoff:	offset in the file, in pages (in)
 * @start:	first address (in)
 * @end:	address after the last (in)
 * @flags:	VM_* flags (in, out)
 * @page_prot:	page protection (in, out)
 * @vm_ops:	the mapping's operations (out)
 * @private_data: the VMA's private data, what mapped() gets (out)
 */
struct fpga_mmap_desc {
	pgoff_t pgoff;
	unsigned long start;
	unsigned long end;
	vm_flags_t flags;
	pgprot_t page_prot;
	const struct vm_operations_struct *vm_ops;
	void *private_data;
};

#ifdef FPGA_HAVE_UIO_MMAP_PREPARE
#define FPGA_COMPAT_VM_MAPPED(fn)	.mapped = (fn),
/* struct fpga_compat_uio_mmap_arg: what the UIO hook takes */
#define fpga_compat_uio_mmap_arg	vm_area_desc
#define fpga_compat_uio_set_mmap(info, hook)	((info)->mmap_prepare = (hook))

static inline int
fpga_compat_uio_mmap(struct uio_info *info, struct vm_area_desc *desc,
		     int (*prepare)(struct uio_info *info,
				    struct fpga_mmap_desc *d),
		     int (*mapped)(unsigned long start, unsigned long end,
				   pgoff_t pgoff, const struct file *file,
				   void **vm_private_data))
{
	vm_flags_t flags = vma_flags_to_legacy(desc->vma_flags);
	struct fpga_mmap_desc d = {
		.pgoff		= desc->pgoff,
		.start		= desc->start,
		.end		= desc->end,
		.flags		= flags,
		.page_prot	= desc->page_prot,
	};
	int ret = prepare(info, &d);

	if (ret)
		return ret;
	vma_desc_set_flags_mask(desc, legacy_to_vma_flags(d.flags & ~flags));
	vma_desc_clear_flags_mask(desc, legacy_to_vma_flags(flags & ~d.flags));
	desc->page_prot = d.page_prot;
	desc->vm_ops = d.vm_ops;
	desc->private_data = d.private_data;
	/* mapped() is the mm's to call, from its vm_ops */
	return 0;
}
#else
/* No member for it: the function goes to fpga_compat_uio_mmap() instead */
#define FPGA_COMPAT_VM_MAPPED(...)
#define fpga_compat_uio_mmap_arg	vm_area_struct
#define fpga_compat_uio_set_mmap(info, hook)	((info)->mmap = (hook))

static inline int
fpga_compat_uio_mmap(struct uio_info *info, struct vm_area_struct *vma,
		     int (*prepare)(struct uio_info *info,
				    struct fpga_mmap_desc *d),
		     int (*mapped)(unsigned long start, unsigned long end,
				   pgoff_t pgoff, const struct file *file,
				   void **vm_private_data))
{
	struct fpga_mmap_desc d = {
		.pgoff		= vma->vm_pgoff,
		.start		= vma->vm_start,
		.end		= vma->vm_end,
		.flags		= vma->vm_flags,
		.page_prot	= vma->vm_page_prot,
	};
	int ret = prepare(info, &d);

	if (ret)
		return ret;
	vm_flags_set(vma, d.flags & ~vma->vm_flags);
	vm_flags_clear(vma, vma->vm_flags & ~d.flags);
	vma->vm_page_prot = d.page_prot;
	vma->vm_ops = d.vm_ops;
	vma->vm_private_data = d.private_data;
	/* An error fails the mmap(): vm_ops->close() is not called */
	return mapped(vma->vm_start, vma->vm_end, vma->vm_pgoff, vma->vm_file,
		      &vma->vm_private_data);
}
#endif

/*
 * 6.5: DRM's fdinfo.  drm_show_fdinfo(), the file's f_op->show_fdinfo,
 * prints drm-driver and drm-client-id (drm_file.client_id, new too) and
 * calls drm_driver.show_fdinfo() for the driver's keys;
 * drm_show_memory_stats() prints drm-*-memory from the objects the file
 * has handles of, resident as their drm_gem_object_funcs.status() says.
 * 6.1 has none of it.  A DRM driver of the suite writes, once for all:
 *  - its show_fdinfo() as 6.5 declares it, which prints its memory with
 *    fpga_compat_drm_show_memory_stats(p, file, status), and
 *    FPGA_COMPAT_DEFINE_DRM_SHOW_FDINFO(show, type, member) after it;
 *  - FPGA_COMPAT_DRM_SHOW_FDINFO(show) in its drm_driver and
 *    FPGA_COMPAT_DRM_FOPS_SHOW_FDINFO(show) in its file_operations;
 *  - a struct fpga_compat_drm_client @member in its drm_file.driver_priv
 *    (a @type), given to fpga_compat_drm_client_open() when it opens;
 *  - its objects' status() as 6.5 declares it, in their funcs with
 *    FPGA_COMPAT_DRM_GEM_STATUS(status).
 * On 6.1 the macro defines the f_op of it all, which prints the same keys
 * with a client id of the driver's own (unique among its files, not among
 * all DRM files: pair it with drm-driver).  Where a member is missing, the
 * stub takes its argument as variadic and drops it.
 */
#ifdef FPGA_HAVE_DRM_SHOW_FDINFO
/* The core keeps the id: nothing to keep */
struct fpga_compat_drm_client {
};

static inline void
fpga_compat_drm_client_open(struct fpga_compat_drm_client *client)
{
}

#define FPGA_COMPAT_DRM_SHOW_FDINFO(show)	.show_fdinfo = (show),
#define FPGA_COMPAT_DRM_FOPS_SHOW_FDINFO(...)	.show_fdinfo = drm_show_fdinfo,
#define FPGA_COMPAT_DEFINE_DRM_SHOW_FDINFO(show, type, member)		\
	static_assert(__same_type(&(show),				\
		typeof_member(struct drm_driver, show_fdinfo)) &&	\
		__same_type(typeof_member(type, member),		\
			    struct fpga_compat_drm_client))
#else
#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

struct fpga_compat_drm_client {
	u64 id;
};

/* One counter for the object file that calls it: the driver's main one */
static inline void
fpga_compat_drm_client_open(struct fpga_compat_drm_client *client)
{
	static atomic64_t ids;

	client->id = atomic64_inc_return(&ids);
}

static inline void
fpga_compat_drm_show_fdinfo(struct seq_file *m, struct file *f,
			    void (*show)(struct drm_printer *p,
					 struct drm_file *file),
			    const struct fpga_compat_drm_client *client)
{
	struct drm_file *file = f->private_data;
	struct drm_device *dev = file->minor->dev;
	struct drm_printer p = drm_seq_file_printer(m);
	int idx;

	/* Nothing to say of a device that is gone, as 6.5 */
	if (!drm_dev_enter(dev, &idx))
		return;
	drm_printf(&p, "drm-driver:\t%s\n", dev->driver->name);
	drm_printf(&p, "drm-client-id:\t%llu\n", client->id);
	show(&p, file);
	drm_dev_exit(idx);
}

#define FPGA_COMPAT_DRM_SHOW_FDINFO(...)
#define FPGA_COMPAT_DRM_FOPS_SHOW_FDINFO(show)	.show_fdinfo = show##_f_op,
#define FPGA_COMPAT_DEFINE_DRM_SHOW_FDINFO(show, type, member)		\
static void show##_f_op(struct seq_file *m, struct file *f)		\
{									\
	struct drm_file *file = f->private_data;			\
									\
	fpga_compat_drm_show_fdinfo(m, f, show,				\
		file->driver_priv + offsetof(type, member));		\
}									\
static_assert(__same_type(&show##_f_op,					\
	typeof_member(const struct file_operations, show_fdinfo)))
#endif

#ifdef FPGA_HAVE_DRM_GEM_STATUS
#define FPGA_COMPAT_DRM_GEM_STATUS(fn)		.status = (fn),
#else
#define FPGA_COMPAT_DRM_GEM_STATUS(...)

enum drm_gem_object_status {
	DRM_GEM_OBJECT_RESIDENT		= BIT(0),
	DRM_GEM_OBJECT_PURGEABLE	= BIT(1),
};
#endif

#ifdef FPGA_HAVE_DRM_SHOW_MEMORY_STATS
/* The core asks each object's status() itself: the argument is dropped */
#define fpga_compat_drm_show_memory_stats(p, file, ...) \
	drm_show_memory_stats(p, file)
#else
#include <linux/dma-resv.h>
#include <linux/sizes.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>

/* In the largest of B, KiB, MiB that keeps it exact, as 6.12 prints it */
static inline void fpga_compat_drm_print_memory(struct drm_printer *p,
						const char *key, u64 bytes)
{
	const char *unit = "";

	if (bytes && IS_ALIGNED(bytes, SZ_1M)) {
		bytes >>= 20;
		unit = " MiB";
	} else if (bytes && IS_ALIGNED(bytes, SZ_1K)) {
		bytes >>= 10;
		unit = " KiB";
	}
	drm_printf(p, "drm-%s-memory:\t%llu%s\n", key, bytes, unit);
}

/*
 * The keys 6.12's drm_show_memory_stats() prints but purgeable (nothing
 * of the suite's is): every object @file has a handle of counts, whole,
 * in total; in shared if another handle or a dma-buf has it too; in
 * resident if @status says so; in active if a fence on it is pending.
 */
static inline void
fpga_compat_drm_show_memory_stats(struct drm_printer *p, struct drm_file *file,
				  enum drm_gem_object_status
				  (*status)(struct drm_gem_object *obj))
{
	u64 total = 0, shared = 0, resident = 0, active = 0;
	struct drm_gem_object *obj;
	int id;

	/* The handles' references keep each object alive under the lock */
	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id) {
		total += obj->size;
		if (obj->handle_count > 1 || obj->dma_buf)
			shared += obj->size;
		if (status(obj) & DRM_GEM_OBJECT_RESIDENT)
			resident += obj->size;
		if (!dma_resv_test_signaled(obj->resv, DMA_RESV_USAGE_READ))
			active += obj->size;
	}
	spin_unlock(&file->table_lock);

	fpga_compat_drm_print_memory(p, "total", total);
	fpga_compat_drm_print_memory(p, "shared", shared);
	fpga_compat_drm_print_memory(p, "active", active);
	fpga_compat_drm_print_memory(p, "resident", resident);
}
#endif

/*
 * VFIO device ops (used where <linux/vfio.h> is included).  6.1: .release
 * is required and ends in vfio_free_device(); from 6.2 the core frees.
 */
#ifdef FPGA_HAVE_VFIO_FREE_DEVICE
#define FPGA_COMPAT_VFIO_RELEASE	.release = vfio_free_device,
#else
#define FPGA_COMPAT_VFIO_RELEASE
#endif

/* 6.2-6.6: an emulated-IOMMU device's iommufd ops (NULL without IOMMUFD) */
#ifdef FPGA_HAVE_VFIO_IOMMUFD_EMULATED
#define FPGA_COMPAT_VFIO_IOMMUFD_EMULATED				\
	.bind_iommufd	= vfio_iommufd_emulated_bind,			\
	.unbind_iommufd	= vfio_iommufd_emulated_unbind,			\
	.attach_ioas	= vfio_iommufd_emulated_attach_ioas,		\
	.detach_ioas	= vfio_iommufd_emulated_detach_ioas,
#else
#define FPGA_COMPAT_VFIO_IOMMUFD_EMULATED
#endif

/*
 * 6.19: the core answers VFIO_DEVICE_GET_REGION_INFO through
 * .get_region_info_caps; before, the driver's ioctl does
 */
#ifdef FPGA_HAVE_VFIO_REGION_INFO_CAPS
#define FPGA_COMPAT_VFIO_GET_REGION_INFO_CAPS(fn)	.get_region_info_caps = (fn),
#else
#define FPGA_COMPAT_VFIO_GET_REGION_INFO_CAPS(fn)
#endif

#endif /* FPGA_COMPAT_H */
