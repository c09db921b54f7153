// SPDX-License-Identifier: GPL-2.0-only
/*
 * The port's MMIO region (the AFU) for user space: region info ioctls and
 * mmap.  Mappings are MAP_SHARED only, bounds checked, readable by a
 * debugger through the access op, and revoked when the port goes away so
 * that a later access raises SIGBUS instead of reaching freed hardware.
 *
 * Pages are inserted at fault time, under the map lock, rather than all
 * at mmap time: a mapping that mmap() is still setting up when the port
 * goes (its VMA not yet visible to the revocation) then holds no page, and
 * its first access faults and finds the port gone.
 */
#include <linux/fpga-dfl.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/uaccess.h>

#include "fpga-compat.h"
#include "port.h"
#include "port_trace.h"

#define FPGA_PORT_NUM_REGIONS	1

long fpga_port_ioctl_get_info(struct fpga_port *port, void __user *arg)
{
	unsigned long minsz = offsetofend(struct dfl_fpga_port_info, num_umsgs);
	struct dfl_fpga_port_info info;

	if (copy_from_user(&info, arg, minsz))
		return -EFAULT;
	if (info.argsz < minsz)
		return -EINVAL;

	info.flags = 0;
	info.num_regions = FPGA_PORT_NUM_REGIONS;
	info.num_umsgs = 0;
	if (copy_to_user(arg, &info, minsz))
		return -EFAULT;
	return 0;
}

/**
 * fpga_port_region_fits() - is [offset, offset + len) inside a region?
 * @size: size of the region
 * @offset: offset in the region
 * @len: length; an empty range fits nowhere
 */
bool fpga_port_region_fits(u64 size, u64 offset, u64 len)
{
	return len && offset < size && len <= size - offset;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_port_region_fits);

/**
 * fpga_port_region_flags() - what region 0, the AFU, allows
 * @port: the port
 *
 * Mappings are whole pages: an AFU that does not start on one could only
 * be mapped with the registers below it (another feature's), so it is not
 * offered for mmap.
 *
 * Return: DFL_PORT_REGION_* flags.
 */
u32 fpga_port_region_flags(const struct fpga_port *port)
{
	u32 flags = DFL_PORT_REGION_READ | DFL_PORT_REGION_WRITE;

	if (PAGE_ALIGNED(port->afu_start))
		flags |= DFL_PORT_REGION_MMAP;
	return flags;
}

/**
 * fpga_port_region_info() - answer DFL_FPGA_PORT_GET_REGION_INFO
 * @port: the port
 * @rinfo: the request (index, padding); filled in on success
 *
 * Return: 0, or -EINVAL for nonzero padding or a region the port does not
 * have (only the AFU, DFL_PORT_REGION_INDEX_AFU).
 */
int fpga_port_region_info(const struct fpga_port *port,
			  struct dfl_fpga_port_region_info *rinfo)
{
	if (rinfo->padding || rinfo->index != DFL_PORT_REGION_INDEX_AFU)
		return -EINVAL;
	rinfo->flags = fpga_port_region_flags(port);
	rinfo->size = port->afu_size;
	rinfo->offset = FPGA_PORT_REGION_AFU_OFFSET;
	return 0;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_port_region_info);

long fpga_port_ioctl_region_info(struct fpga_port *port, void __user *arg)
{
	unsigned long minsz = offsetofend(struct dfl_fpga_port_region_info,
					  offset);
	struct dfl_fpga_port_region_info rinfo;
	int ret;

	if (copy_from_user(&rinfo, arg, minsz))
		return -EFAULT;
	if (rinfo.argsz < minsz)
		return -EINVAL;
	ret = fpga_port_region_info(port, &rinfo);
	if (ret)
		return ret;
	if (copy_to_user(arg, &rinfo, minsz))
		return -EFAULT;
	return 0;
}

/*
 * ptrace and /proc/PID/mem access to the mapping: through the kernel's own
 * mapping of the registers, so nothing is remapped per access; writes
 * only where the mapping itself is writable.
 */
static int fpga_port_vm_access(struct vm_area_struct *vma, unsigned long addr,
			       void *buf, int len, int write)
{
	struct fpga_port_file *pf = vma->vm_private_data;
	struct fpga_port *port = pf->port;
	unsigned long offset = (vma->vm_pgoff << PAGE_SHIFT) +
			       (addr - vma->vm_start);
	int ret = len, idx;

	if (len <= 0 || !fpga_port_region_fits(port->afu_size, offset, len))
		return -EINVAL;
	ret = fpga_dfl_remote_access_permitted(vma, write);
	if (ret)
		return ret;
	ret = len;

	if (!fpga_dfl_hw_enter(&port->unplug, &idx))
		return -ENODEV;
	if (write)
		memcpy_toio(port->afu + offset, buf, len);
	else
		memcpy_fromio(buf, port->afu + offset, len);
	fpga_dfl_hw_exit(&port->unplug, idx);
	return ret;
}

static vm_fault_t fpga_port_vm_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct fpga_port_file *pf = vma->vm_private_data;
	struct fpga_port *port = pf->port;
	unsigned long offset = vmf->pgoff << PAGE_SHIFT;	/* in the region */
	vm_fault_t ret;
	int idx;

	if (!fpga_dfl_hw_enter(&port->unplug, &idx))
		return VM_FAULT_SIGBUS;
	if (offset >= port->afu_size)
		ret = VM_FAULT_SIGBUS;
	else
		ret = vmf_insert_pfn_prot(vma, vmf->address,
					  (port->afu_start + offset) >> PAGE_SHIFT,
					  vma->vm_page_prot);
	fpga_dfl_hw_exit(&port->unplug, idx);
	return ret;
}

static const struct vm_operations_struct fpga_port_vm_ops = {
	.fault = fpga_port_vm_fault,
	.access = fpga_port_vm_access,
};

int fpga_port_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct fpga_port_file *pf = file->private_data;
	struct fpga_port *port = pf->port;
	u64 offset = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u64 size = vma->vm_end - vma->vm_start;
	int ret, idx;

	if (!(vma->vm_flags & VM_MAYSHARE)) {
		dev_dbg(&port->chardev, "mmap: MAP_SHARED is required\n");
		return -EINVAL;
	}
	if (!(fpga_port_region_flags(port) & DFL_PORT_REGION_MMAP)) {
		dev_dbg(&port->chardev, "mmap: region 0 does not start on a page\n");
		return -EINVAL;
	}
	if (!fpga_port_region_fits(port->afu_size, offset, size)) {
		dev_dbg(&port->chardev,
			"mmap: offset %#llx size %#llx is outside region 0 (size %#llx)\n",
			offset, size, (u64)port->afu_size);
		return -EINVAL;
	}

	if (!fpga_dfl_hw_enter(&port->unplug, &idx)) {
		ret = -ENODEV;
		goto out;
	}
	ret = 0;
	/*
	 * Writing the AFU's registers means giving it DMA addresses.  A
	 * read-only mapping is everyone's, but becomes writable later
	 * (mprotect) only where writing needs no exception.
	 */
	if (!ret && (vma->vm_flags & VM_WRITE))
		ret = fpga_dfl_dma_permitted(port->fdev, NULL, "AFU mmap");
	else if (!ret && !fpga_dfl_dma_trusted(port->fdev))
		vm_flags_clear(vma, VM_MAYWRITE);
	if (!ret) {
		vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND |
			     VM_DONTDUMP);
		vma->vm_ops = &fpga_port_vm_ops;
		vma->vm_private_data = pf;
		/* A simulated card's registers are RAM, mapped as the kernel maps them */
		if (!port->fdev->cacheable)
			vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	}
	fpga_dfl_hw_exit(&port->unplug, idx);
out:
	trace_region_mmap(port, offset, size, ret);
	return ret;
}

/* Zap every user mapping of the port; later faults find it gone: SIGBUS */
void fpga_port_revoke_mmaps(struct fpga_port *port)
{
	struct fpga_port_file *pf;

	mutex_lock(&port->lock);
	list_for_each_entry(pf, &port->files, node)
		unmap_mapping_range(pf->file->f_mapping, 0, 0, 1);
	mutex_unlock(&port->lock);
}
