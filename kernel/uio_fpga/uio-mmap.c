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

/* A new VMA of @vma's file: count it, recording the address space */
static int uio_fpga_mapping_get(struct uio_fpga *uf, struct vm_area_struct *vma)
{
	struct address_space *mapping = vma->vm_file->f_mapping;
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
	.open	= uio_fpga_vm_open,
	.close	= uio_fpga_vm_close,
	.fault	= uio_fpga_vm_fault,
	.access	= uio_fpga_vm_access,
};

/**
 * uio_fpga_mmap() - struct uio_info.mmap
 * @info: the device
 * @vma: vm_pgoff is the map index, which the UIO core has checked, as it
 *	has the length; it calls us under its info_lock, so remove() has not
 *	unregistered the device yet
 *
 * MAP_SHARED only: a private copy-on-write mapping of registers or of a
 * buffer the card writes would not see the device.  The port header is
 * read-only: reset goes through the kernel (the parent's reset attribute).
 *
 * Return: 0 or -errno.
 */
int uio_fpga_mmap(struct uio_info *info, struct vm_area_struct *vma)
{
	struct uio_fpga *uf = to_uio_fpga(info);
	struct uio_fpga_map *map = &uf->maps[vma->vm_pgoff];
	int ret;

	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	/*
	 * The UIO core lets the last page of a map that is not a whole
	 * number of pages be mapped; past its end lie other registers
	 */
	if (vma->vm_end - vma->vm_start > map->size)
		return -EINVAL;
	/*
	 * The AFU's registers take DMA addresses; the buffers are DMA.  A
	 * read-only mapping is everyone's, but becomes writable later
	 * (mprotect) only where writing needs no exception.
	 */
	if (vma->vm_flags & VM_WRITE) {
		if (!map->writable)
			return -EPERM;
		ret = fpga_dfl_dma_permitted(uf->fdev, "UIO mmap");
		if (ret)
			return ret;
	} else if (!map->writable || !fpga_dfl_dma_trusted(uf->fdev)) {
		vm_flags_clear(vma, VM_MAYWRITE);
	}
	ret = uio_fpga_mapping_get(uf, vma);
	if (ret)
		return ret;
	kref_get(&uf->kref);

	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	/* Registers of real hardware uncached; RAM (the sim, DMA) as RAM */
	if (!map->dma && !uf->cacheable)
		vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	vma->vm_ops = &uio_fpga_vm_ops;
	vma->vm_private_data = map;
	return 0;
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
