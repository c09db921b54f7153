// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmap of the UIO maps, done here rather than by the UIO core because the
 * core maps physical memory uncached (x86 PAT complains when that memory
 * is the simulated card's RAM) and never takes a mapping back.
 *
 * Pages are inserted by the fault handler, not at mmap() time: a fault
 * runs only on a VMA already linked into its file's address space, and it
 * runs in a section of @unplug.  So remove(), which unplugs it and then
 * zaps every address space that holds a VMA of the device, cannot miss a
 * mapping being set up concurrently, and a later access raises SIGBUS.
 * (A page table filled in the mmap handler could land after the zap.)
 *
 * A mapping is made in two steps, the same on every kernel (fpga-compat.h
 * gives the older ones 7.1's shape): uio_fpga_mmap_prepare() checks the
 * request and describes the mapping, and may fail but takes nothing;
 * uio_fpga_vm_mapped() (vm_ops->mapped) runs once the VMA exists and
 * counts it in uf->mappings under its file's address space, taking a
 * reference on struct uio_fpga.  Before 7.1 both run in uio_info.mmap;
 * from 7.1 the UIO core calls uio_info.mmap_prepare and then the mm calls
 * vm_ops->mapped, both within the UIO core's f_op->mmap and under its
 * info_lock, which uio_unregister_device() takes: remove() finds every
 * mapping counted (or its mmap() failed), and no mapping begins after.
 * If mapped() fails (no memory for the record), the mmap() fails and no
 * vm_ops->close() follows, so it leaves nothing counted.  fork() and
 * splits count their new VMA in vm_ops->open, and vm_ops->close uncounts
 * a VMA, on either kernel.  Revocation is then the same on both: remove()
 * unplugs and zaps the address spaces counted (uio_fpga_revoke_mmaps()).
 *
 * This rests on the UIO core calling both steps under its info_lock, from
 * its f_op->mmap, as 7.1's does.  A UIO core with an f_op->mmap_prepare of
 * its own would call mapped() after letting go of info_lock, when remove()
 * may have run and freed struct uio_fpga.
 *
 * Every VMA holds a reference on struct uio_fpga: its vm_ops may run
 * after remove().  The UIO core holds the module while files are open,
 * and every VMA holds its file, so the vm_ops themselves stay.
 */
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "fpga-compat.h"
#include "uio-fpga.h"

/**
 * struct uio_fpga_mapping - an address space holding VMAs of the device
 * @node:	entry in uio_fpga.mappings
 * @mapping:	the file's address space (one per device inode)
 * @vmas:	VMAs mapping it; the entry goes when the last one closes
 *
 * A VMA holds its file, which holds the inode and so the address space:
 * the pointer is valid while @vmas is not zero.
 */
struct uio_fpga_mapping {
	struct list_head node;
	struct address_space *mapping;
	unsigned long vmas;
};

static struct uio_fpga_mapping *
__uio_fpga_mapping_find(struct uio_fpga *uf, struct address_space *mapping)
{
	struct uio_fpga_mapping *m;

	lockdep_assert_held(&uf->lock);
	list_for_each_entry(m, &uf->mappings, node)
		if (m->mapping == mapping)
			return m;
	return NULL;
}

/* A new VMA of a file of @mapping: count it, recording the address space */
static int uio_fpga_mapping_get(struct uio_fpga *uf,
				struct address_space *mapping)
{
	struct uio_fpga_mapping *m;
	int ret = 0;

	mutex_lock(&uf->lock);
	m = __uio_fpga_mapping_find(uf, mapping);
	if (!m) {
		m = kzalloc(sizeof(*m), GFP_KERNEL);
		if (m) {
			m->mapping = mapping;
			list_add(&m->node, &uf->mappings);
		}
	}
	if (m)
		m->vmas++;
	else
		ret = -ENOMEM;
	mutex_unlock(&uf->lock);
	return ret;
}

static void uio_fpga_mapping_put(struct uio_fpga *uf, struct vm_area_struct *vma)
{
	struct uio_fpga_mapping *m;

	mutex_lock(&uf->lock);
	m = __uio_fpga_mapping_find(uf, vma->vm_file->f_mapping);
	if (!WARN_ON_ONCE(!m) && !--m->vmas) {
		list_del(&m->node);
		kfree(m);
	}
	mutex_unlock(&uf->lock);
}

/* Offset of @addr in the map behind @vma (split VMAs keep their pgoff) */
static unsigned long uio_fpga_map_offset(struct vm_area_struct *vma,
					 struct uio_fpga_map *map,
					 unsigned long addr)
{
	return ((vma->vm_pgoff - map->index) << PAGE_SHIFT) +
	       (addr - vma->vm_start);
}

/**
 * uio_fpga_vm_mapped() - vm_ops->mapped: the VMA exists, count it
 * @start: its first address
 * @end: the address after its last
 * @pgoff: its offset (the map index)
 * @file: its file, the UIO device's
 * @vm_private_data: its private data, the map uio_fpga_mmap_prepare() set
 *
 * Return: 0, or -ENOMEM, which fails the mmap().
 */
static int uio_fpga_vm_mapped(unsigned long start, unsigned long end,
			      pgoff_t pgoff, const struct file *file,
			      void **vm_private_data)
{
	struct uio_fpga_map *map = *vm_private_data;
	int ret;

	ret = uio_fpga_mapping_get(map->uf, file->f_mapping);
	if (!ret)
		kref_get(&map->uf->kref);
	return ret;
}

/* fork() or a split: one more VMA on the same file (its entry exists) */
static void uio_fpga_vm_open(struct vm_area_struct *vma)
{
	struct uio_fpga_map *map = vma->vm_private_data;
	struct uio_fpga_mapping *m;

	kref_get(&map->uf->kref);
	mutex_lock(&map->uf->lock);
	m = __uio_fpga_mapping_find(map->uf, vma->vm_file->f_mapping);
	if (!WARN_ON_ONCE(!m))
		m->vmas++;
	mutex_unlock(&map->uf->lock);
}

static void uio_fpga_vm_close(struct vm_area_struct *vma)
{
	struct uio_fpga_map *map = vma->vm_private_data;
	struct uio_fpga *uf = map->uf;

	uio_fpga_mapping_put(uf, vma);
	uio_fpga_put(uf);
}

static vm_fault_t uio_fpga_vm_fault(struct vm_fault *vmf)
{
	struct uio_fpga_map *map = vmf->vma->vm_private_data;
	struct uio_fpga *uf = map->uf;
	unsigned long page = uio_fpga_map_offset(vmf->vma, map, vmf->address) >>
			     PAGE_SHIFT;
	vm_fault_t ret = VM_FAULT_SIGBUS;
	unsigned long pfn;
	int idx;

	if (!fpga_dfl_hw_enter(&uf->unplug, &idx))
		return VM_FAULT_SIGBUS;
	if (page >= (map->size >> PAGE_SHIFT))
		goto out;
	if (map->dma)
		pfn = map->pfns[page];
	else
		pfn = (map->start >> PAGE_SHIFT) + page;
	ret = vmf_insert_pfn(vmf->vma, vmf->address, pfn);
out:
	fpga_dfl_hw_exit(&uf->unplug, idx);
	return ret;
}

/*
 * ptrace and /proc/PID/mem: PFN mappings cannot be pinned, so a debugger's
 * access goes through the kernel's own mapping, while the device is here,
 * and writes only where the mapping is writable.
 */
static int uio_fpga_vm_access(struct vm_area_struct *vma, unsigned long addr,
			      void *buf, int len, int write)
{
	struct uio_fpga_map *map = vma->vm_private_data;
	unsigned long offset = uio_fpga_map_offset(vma, map, addr);
	struct uio_fpga *uf = map->uf;
	int ret = len, idx;

	if (len <= 0 || offset >= map->size || len > map->size - offset)
		return -EINVAL;
	/* A map that is not writable (the port header) is never mapped so */
	ret = fpga_dfl_remote_access_permitted(vma, write);
	if (ret)
		return ret;
	ret = len;

	if (!fpga_dfl_hw_enter(&uf->unplug, &idx))
		return -ENODEV;
	if (map->dma && write)
		memcpy(map->cpu_addr + offset, buf, len);
	else if (map->dma)
		memcpy(buf, map->cpu_addr + offset, len);
	else if (write)
		memcpy_toio(map->regs + offset, buf, len);
	else
		memcpy_fromio(buf, map->regs + offset, len);
	fpga_dfl_hw_exit(&uf->unplug, idx);
	return ret;
}

static const struct vm_operations_struct uio_fpga_vm_ops = {
	FPGA_COMPAT_VM_MAPPED(uio_fpga_vm_mapped)
	.open	= uio_fpga_vm_open,
	.close	= uio_fpga_vm_close,
	.fault	= uio_fpga_vm_fault,
	.access	= uio_fpga_vm_access,
};

/**
 * uio_fpga_mmap_prepare() - check a new mapping and describe it
 * @info: the device
 * @desc: @pgoff is the map index, which the UIO core has checked, as it
 *	has the length; it calls us under its info_lock, so remove() has not
 *	unregistered the device yet
 *
 * MAP_SHARED only: a private copy-on-write mapping of registers or of a
 * buffer the card writes would not see the device.  The port header is
 * read-only: reset goes through the kernel (the parent's reset attribute).
 * Nothing is taken here: uio_fpga_vm_mapped() counts the mapping once it
 * is made.
 *
 * Return: 0 or -errno.
 */
static int uio_fpga_mmap_prepare(struct uio_info *info,
				 struct fpga_mmap_desc *desc)
{
	struct uio_fpga *uf = to_uio_fpga(info);
	struct uio_fpga_map *map = &uf->maps[desc->pgoff];
	int ret;

	if (!(desc->flags & VM_MAYSHARE))
		return -EINVAL;
	/*
	 * The UIO core lets the last page of a map that is not a whole
	 * number of pages be mapped; past its end lie other registers
	 */
	if (desc->end - desc->start > map->size)
		return -EINVAL;
	/*
	 * The AFU's registers take DMA addresses; the buffers are DMA.  A
	 * read-only mapping is everyone's, but becomes writable later
	 * (mprotect) only where writing needs no exception.
	 */
	if (desc->flags & VM_WRITE) {
		if (!map->writable)
			return -EPERM;
		ret = fpga_dfl_dma_permitted(uf->fdev, NULL, "UIO mmap");
		if (ret)
			return ret;
	} else if (!map->writable || !fpga_dfl_dma_trusted(uf->fdev)) {
		desc->flags &= ~VM_MAYWRITE;
	}

	desc->flags |= VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP;
	/* Registers of real hardware uncached; RAM (the sim, DMA) as RAM */
	if (!map->dma && !uf->cacheable)
		desc->page_prot = pgprot_noncached(desc->page_prot);
	desc->vm_ops = &uio_fpga_vm_ops;
	desc->private_data = map;
	return 0;
}

/* struct uio_info.mmap_prepare, or .mmap before 7.1 (fpga-compat.h) */
static int uio_fpga_mmap(struct uio_info *info,
			 struct fpga_compat_uio_mmap_arg *arg)
{
	return fpga_compat_uio_mmap(info, arg, uio_fpga_mmap_prepare,
				    uio_fpga_vm_mapped);
}

/**
 * uio_fpga_set_mmap() - make uio_fpga's the device's mmap
 * @uf: the device, before its UIO device is registered
 */
void uio_fpga_set_mmap(struct uio_fpga *uf)
{
	fpga_compat_uio_set_mmap(&uf->info, uio_fpga_mmap);
}

/**
 * uio_fpga_revoke_mmaps() - zap every user mapping of the device
 * @uf: the device, already unplugged
 *
 * Faults after this find it unplugged and raise SIGBUS.
 */
void uio_fpga_revoke_mmaps(struct uio_fpga *uf)
{
	struct uio_fpga_mapping *m;

	mutex_lock(&uf->lock);
	list_for_each_entry(m, &uf->mappings, node)
		unmap_mapping_range(m->mapping, 0, 0, 1);
	mutex_unlock(&uf->lock);
}
