// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_vfio: a simulated card's VF as a VFIO device, /dev/vfio/N.
 *
 * On a PAC/OFS card, a VF goes to vfio-pci, behind the host's IOMMU.  A
 * simulated card's VF has no BAR (its registers are ordinary memory) and
 * its DMA goes through the card's own IOMMU, which Linux does not know: so
 * this driver binds the VFs (0000:d5f2, only on fpga_sim's bus) and
 * registers each as an emulated-IOMMU VFIO device, in a group of its own.
 * The user gets what vfio-pci would give: a PCI device that can be reset
 * (the port's soft reset, through the core), vfio-pci's 9 regions and 5
 * interrupt indexes; configuration space (vfio-config.c) and BAR 0, the
 * port (vfio-bar.c), by read and write, its AFU by mmap too.  REQ asks the
 * user to let go when the VF is going away; vfio's unregistration waits
 * for that, and for every mapping to go (each holds the device's file),
 * so nothing of the card is ever revoked under a mapping.
 *
 * MSI-X carries the port's user interrupts (vfio-irq.c).
 *
 * Not yet: ERR, DMA.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/eventfd.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <fpga-suite/sim-vf.h>
#include "fpga-compat.h"
#include "fpga-vfio.h"

static struct fpga_vfio *to_fpga_vfio(struct vfio_device *vdev)
{
	return container_of(vdev, struct fpga_vfio, vdev);
}

static int fpga_vfio_open_device(struct vfio_device *vdev)
{
	return 0;
}

/* The next user finds the port as after a reset, and BAR 0 disabled */
static void fpga_vfio_close_device(struct vfio_device *vdev)
{
	struct fpga_vfio *fv = to_fpga_vfio(vdev);
	struct eventfd_ctx *req;

	fpga_vfio_msix_off(fv);
	fpga_vfio_reset(fv);
	mutex_lock(&fv->lock);
	fpga_vfio_config_init(fv);
	mutex_unlock(&fv->lock);
	spin_lock(&fv->req_lock);
	req = fv->req_trigger;
	fv->req_trigger = NULL;
	spin_unlock(&fv->req_lock);
	if (req)
		eventfd_ctx_put(req);
}

static ssize_t fpga_vfio_rw(struct fpga_vfio *fv, char __user *buf,
			    size_t count, loff_t *ppos, bool write)
{
	u64 pos = *ppos & FPGA_VFIO_OFFSET_MASK;
	ssize_t ret;

	switch (FPGA_VFIO_INDEX((u64)*ppos)) {
	case VFIO_PCI_CONFIG_REGION_INDEX:
		ret = fpga_vfio_config_rw(fv, buf, count, pos, write);
		break;
	case VFIO_PCI_BAR0_REGION_INDEX:
		ret = fpga_vfio_bar_rw(fv, buf, count, pos, write);
		break;
	default:
		ret = -EINVAL;
	}
	if (ret > 0)
		*ppos += ret;
	return ret;
}

static ssize_t fpga_vfio_read(struct vfio_device *vdev, char __user *buf,
			      size_t count, loff_t *ppos)
{
	return fpga_vfio_rw(to_fpga_vfio(vdev), buf, count, ppos, false);
}

static ssize_t fpga_vfio_write(struct vfio_device *vdev,
			       const char __user *buf, size_t count,
			       loff_t *ppos)
{
	return fpga_vfio_rw(to_fpga_vfio(vdev), (char __user *)buf, count,
			    ppos, true);
}

/* The AFU is on pages of its own, as it is on every card we know */
static bool fpga_vfio_afu_mappable(const struct fpga_dfl_vf_regs *regs)
{
	return PAGE_ALIGNED(regs->start + regs->afu_ofs) &&
	       PAGE_ALIGNED(regs->afu_size);
}

/* BAR 0's part a user may map: the AFU, not the port's registers */
static int fpga_vfio_add_sparse_mmap(struct fpga_vfio *fv,
				     struct vfio_info_cap *caps)
{
	struct vfio_region_info_cap_sparse_mmap *sparse;
	size_t size = struct_size(sparse, areas, 1);
	int ret;

	if (!fpga_vfio_afu_mappable(&fv->regs))
		return 0;

	sparse = kzalloc(size, GFP_KERNEL);
	if (!sparse)
		return -ENOMEM;
	sparse->header.id = VFIO_REGION_INFO_CAP_SPARSE_MMAP;
	sparse->header.version = 1;
	sparse->nr_areas = 1;
	sparse->areas[0].offset = fv->regs.afu_ofs;
	sparse->areas[0].size = fv->regs.afu_size;
	ret = vfio_info_add_capability(caps, &sparse->header, size);
	kfree(sparse);
	return ret;
}

/* A region's size and offset; the rest of vfio-pci's regions are empty */
static int fpga_vfio_region_info(struct vfio_device *vdev,
				 struct vfio_region_info *info,
				 struct vfio_info_cap *caps)
{
	struct fpga_vfio *fv = to_fpga_vfio(vdev);
	int ret;

	if (info->index >= VFIO_PCI_NUM_REGIONS)
		return -EINVAL;
	info->offset = FPGA_VFIO_OFFSET(info->index);
	info->size = 0;
	info->flags = 0;
	switch (info->index) {
	case VFIO_PCI_CONFIG_REGION_INDEX:
		info->size = FPGA_VFIO_CFG_SIZE;
		break;
	case VFIO_PCI_BAR0_REGION_INDEX:
		info->size = fv->bar0_size;
		ret = fpga_vfio_add_sparse_mmap(fv, caps);
		if (ret)
			return ret;
		if (fpga_vfio_afu_mappable(&fv->regs))
			info->flags = VFIO_REGION_INFO_FLAG_MMAP;
		break;
	default:
		return 0;
	}
	info->flags |= VFIO_REGION_INFO_FLAG_READ | VFIO_REGION_INFO_FLAG_WRITE;
	return 0;
}

static long fpga_vfio_get_info(unsigned long arg)
{
	unsigned long minsz = offsetofend(struct vfio_device_info, num_irqs);
	struct vfio_device_info info;

	if (copy_from_user(&info, (void __user *)arg, minsz))
		return -EFAULT;
	if (info.argsz < minsz)
		return -EINVAL;
	info.flags = VFIO_DEVICE_FLAGS_PCI | VFIO_DEVICE_FLAGS_RESET;
	info.num_regions = VFIO_PCI_NUM_REGIONS;
	info.num_irqs = VFIO_PCI_NUM_IRQS;
	return copy_to_user((void __user *)arg, &info, minsz) ? -EFAULT : 0;
}

/* Where the core does not answer VFIO_DEVICE_GET_REGION_INFO (before 6.19) */
static long fpga_vfio_get_region_info(struct vfio_device *vdev,
				      unsigned long arg)
{
	unsigned long minsz = offsetofend(struct vfio_region_info, offset);
	struct vfio_info_cap caps = { };
	struct vfio_region_info info;
	int ret;

	if (copy_from_user(&info, (void __user *)arg, minsz))
		return -EFAULT;
	if (info.argsz < minsz)
		return -EINVAL;
	ret = fpga_vfio_region_info(vdev, &info, &caps);
	if (ret)
		goto out;
	/* The capability chain after the struct, if the user left room */
	if (caps.size) {
		info.flags |= VFIO_REGION_INFO_FLAG_CAPS;
		if (info.argsz < sizeof(info) + caps.size) {
			info.argsz = sizeof(info) + caps.size;
			info.cap_offset = 0;
		} else {
			vfio_info_cap_shift(&caps, sizeof(info));
			if (copy_to_user((void __user *)arg + sizeof(info),
					 caps.buf, caps.size)) {
				ret = -EFAULT;
				goto out;
			}
			info.cap_offset = sizeof(info);
		}
	}
	if (copy_to_user((void __user *)arg, &info, minsz))
		ret = -EFAULT;
out:
	kfree(caps.buf);
	return ret;
}

/* Interrupts per index: MSI-X, the port's user interrupts, and REQ */
static unsigned int fpga_vfio_irq_count(struct fpga_vfio *fv,
					unsigned int index)
{
	switch (index) {
	case VFIO_PCI_MSIX_IRQ_INDEX:
		return fv->num_irqs;
	case VFIO_PCI_REQ_IRQ_INDEX:
		return 1;
	}
	return 0;
}

static long fpga_vfio_get_irq_info(struct fpga_vfio *fv, unsigned long arg)
{
	unsigned long minsz = offsetofend(struct vfio_irq_info, count);
	struct vfio_irq_info info;

	if (copy_from_user(&info, (void __user *)arg, minsz))
		return -EFAULT;
	if (info.argsz < minsz || info.index >= VFIO_PCI_NUM_IRQS)
		return -EINVAL;
	info.count = fpga_vfio_irq_count(fv, info.index);
	info.flags = info.count ? VFIO_IRQ_INFO_EVENTFD : 0;
	/* As vfio-pci: vectors are added by disabling and enabling again */
	if (info.index == VFIO_PCI_MSIX_IRQ_INDEX && info.count)
		info.flags |= VFIO_IRQ_INFO_NORESIZE;
	return copy_to_user((void __user *)arg, &info, minsz) ? -EFAULT : 0;
}

/*
 * REQ's trigger, as vfio-pci takes it: DATA_NONE with count 0 unbinds it,
 * one eventfd (-1: none) binds it, DATA_NONE or a true DATA_BOOL fires it
 */
static int fpga_vfio_set_req(struct fpga_vfio *fv, struct vfio_irq_set *hdr,
			     void __user *data)
{
	struct eventfd_ctx *ctx = NULL, *old;
	s32 fd;
	u8 fire;

	if ((hdr->flags & VFIO_IRQ_SET_ACTION_TYPE_MASK) !=
	    VFIO_IRQ_SET_ACTION_TRIGGER)
		return -EINVAL;
	if (!hdr->count && !(hdr->flags & VFIO_IRQ_SET_DATA_NONE))
		return -EINVAL;
	if (hdr->flags & VFIO_IRQ_SET_DATA_EVENTFD) {
		if (copy_from_user(&fd, data, sizeof(fd)))
			return -EFAULT;
		if (fd >= 0) {
			ctx = eventfd_ctx_fdget(fd);
			if (IS_ERR(ctx))
				return PTR_ERR(ctx);
		} else if (fd != -1) {
			return -EINVAL;
		}
	} else if (hdr->count) {
		if ((hdr->flags & VFIO_IRQ_SET_DATA_BOOL) &&
		    copy_from_user(&fire, data, sizeof(fire)))
			return -EFAULT;
		if ((hdr->flags & VFIO_IRQ_SET_DATA_BOOL) && !fire)
			return 0;
		spin_lock(&fv->req_lock);
		if (fv->req_trigger)
			fpga_eventfd_signal(fv->req_trigger);
		spin_unlock(&fv->req_lock);
		return 0;
	}
	spin_lock(&fv->req_lock);
	old = fv->req_trigger;
	fv->req_trigger = ctx;
	spin_unlock(&fv->req_lock);
	if (old)
		eventfd_ctx_put(old);
	return 0;
}

static long fpga_vfio_set_irqs(struct fpga_vfio *fv, unsigned long arg)
{
	unsigned long minsz = offsetofend(struct vfio_irq_set, count);
	struct vfio_irq_set hdr;
	size_t data_size = 0;
	int ret;

	if (copy_from_user(&hdr, (void __user *)arg, minsz))
		return -EFAULT;
	if (hdr.index >= VFIO_PCI_NUM_IRQS)
		return -EINVAL;
	ret = vfio_set_irqs_validate_and_prepare(&hdr,
						 fpga_vfio_irq_count(fv, hdr.index),
						 VFIO_PCI_NUM_IRQS, &data_size);
	if (ret)
		return ret;
	switch (hdr.index) {
	case VFIO_PCI_MSIX_IRQ_INDEX:
		return fpga_vfio_set_msix(fv, &hdr, (void __user *)(arg + minsz),
					  data_size);
	case VFIO_PCI_REQ_IRQ_INDEX:
		return fpga_vfio_set_req(fv, &hdr, (void __user *)(arg + minsz));
	}
	return -EINVAL;
}

static long fpga_vfio_ioctl(struct vfio_device *vdev, unsigned int cmd,
			    unsigned long arg)
{
	struct fpga_vfio *fv = to_fpga_vfio(vdev);

	switch (cmd) {
	case VFIO_DEVICE_GET_INFO:
		return fpga_vfio_get_info(arg);
	case VFIO_DEVICE_GET_REGION_INFO:
		return fpga_vfio_get_region_info(vdev, arg);
	case VFIO_DEVICE_GET_IRQ_INFO:
		return fpga_vfio_get_irq_info(fv, arg);
	case VFIO_DEVICE_SET_IRQS:
		return fpga_vfio_set_irqs(fv, arg);
	case VFIO_DEVICE_RESET:
		return fpga_vfio_reset(fv);
	}
	return -ENOTTY;
}

/*
 * The AFU's pages of BAR 0, shared.  The card's registers outlive every
 * mapping: a mapping holds the device's file, and the VF's removal, which
 * comes before the card's, waits for that file to be released.
 */
static int fpga_vfio_mmap(struct vfio_device *vdev, struct vm_area_struct *vma)
{
	struct fpga_vfio *fv = to_fpga_vfio(vdev);
	const struct fpga_dfl_vf_regs *regs = &fv->regs;
	u64 pos = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u64 size = vma->vm_end - vma->vm_start;
	u64 ofs = pos & FPGA_VFIO_OFFSET_MASK;

	if (FPGA_VFIO_INDEX(pos) != VFIO_PCI_BAR0_REGION_INDEX ||
	    !(vma->vm_flags & VM_SHARED) || !fpga_vfio_afu_mappable(regs))
		return -EINVAL;
	if (ofs < regs->afu_ofs || ofs >= regs->afu_ofs + regs->afu_size ||
	    size > regs->afu_ofs + regs->afu_size - ofs)
		return -EINVAL;
	vm_flags_set(vma, VM_IO | VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP);
	/* A simulated card's registers are RAM, mapped as the kernel maps them */
	if (!regs->cacheable)
		vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	return remap_pfn_range(vma, vma->vm_start,
			       (regs->start + ofs) >> PAGE_SHIFT, size,
			       vma->vm_page_prot);
}

/* The VF is going away: ask the user to let go (vfio asks until it does) */
static void fpga_vfio_request(struct vfio_device *vdev, unsigned int count)
{
	struct fpga_vfio *fv = to_fpga_vfio(vdev);

	spin_lock(&fv->req_lock);
	if (fv->req_trigger) {
		if (!count)
			dev_info(&fv->pdev->dev,
				 "asking the user of /dev/vfio to release the VF\n");
		fpga_eventfd_signal(fv->req_trigger);
	} else if (!count) {
		dev_info(&fv->pdev->dev,
			 "the VF is in use and its user has no REQ eventfd: waiting for it to close\n");
	}
	spin_unlock(&fv->req_lock);
}

/* Nothing is pinned yet: no DMA through VFIO */
static void fpga_vfio_dma_unmap(struct vfio_device *vdev, u64 iova, u64 length)
{
}

static const struct vfio_device_ops fpga_vfio_ops = {
	.name		= "fpga-vfio",
	FPGA_COMPAT_VFIO_RELEASE
	FPGA_COMPAT_VFIO_IOMMUFD_EMULATED
	.open_device	= fpga_vfio_open_device,
	.close_device	= fpga_vfio_close_device,
	.read		= fpga_vfio_read,
	.write		= fpga_vfio_write,
	.ioctl		= fpga_vfio_ioctl,
	FPGA_COMPAT_VFIO_GET_REGION_INFO_CAPS(fpga_vfio_region_info)
	.mmap		= fpga_vfio_mmap,
	.request	= fpga_vfio_request,
	.dma_unmap	= fpga_vfio_dma_unmap,
};

static int fpga_vfio_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct fpga_dfl_card *card;
	struct fpga_vfio *fv;
	unsigned int vf;
	int ret;

	card = fpga_sim_vf_card(pdev, &vf);
	if (!card)
		return -ENODEV;
	fv = vfio_alloc_device(fpga_vfio, vdev, &pdev->dev, &fpga_vfio_ops);
	if (IS_ERR(fv))
		return PTR_ERR(fv);
	fv->pdev = pdev;
	fv->card = card;
	fv->vf = vf;
	mutex_init(&fv->lock);
	spin_lock_init(&fv->req_lock);
	ret = fpga_dfl_card_vf_regs(card, vf, &fv->regs);
	if (ret) {
		dev_err(&pdev->dev, "VF %u presents no port: %d\n", vf, ret);
		goto err_put;
	}
	/*
	 * Whoever drives the AFU gives it DMA addresses: only where the
	 * card's IOMMU keeps the port to its own domain, which holds what
	 * the VF's user maps and nothing else
	 */
	if (fv->regs.dma_isolation != FPGA_DFL_DMA_PER_PORT) {
		dev_err(&pdev->dev,
			"card %d confines no port's DMA (IOMMU: %s): its VFs are not for VFIO\n",
			fv->regs.card_id,
			fpga_dfl_dma_isolation_name(fv->regs.dma_isolation));
		ret = -ENODEV;
		goto err_put;
	}
	fv->bar0_size = roundup_pow_of_two(fv->regs.afu_ofs +
					   fv->regs.afu_size);
	ret = fpga_dfl_card_vf_irqs(card, vf, fv->irqs, FPGA_VFIO_MAX_IRQS);
	if (ret < 0) {
		dev_err(&pdev->dev, "VF %u: the port's list does not walk: %d\n",
			vf, ret);
		goto err_put;
	}
	fv->num_irqs = ret;
	/* MSI-X's table and PBA must fall between the features and the AFU */
	if (fv->num_irqs && fv->regs.afu_ofs < FPGA_VFIO_MSIX_PBA + SZ_4K) {
		dev_warn(&pdev->dev, "no room for MSI-X in BAR 0: no interrupts\n");
		fv->num_irqs = 0;
	}
	fpga_vfio_config_init(fv);

	ret = vfio_register_emulated_iommu_dev(&fv->vdev);
	if (ret)
		goto err_put;
	pci_set_drvdata(pdev, fv);
	dev_info(&pdev->dev, "card %d port %u as a VFIO device, BAR 0 %llu KiB\n",
		 fv->regs.card_id, fv->regs.port_num, fv->bar0_size / SZ_1K);
	return 0;

err_put:
	vfio_put_device(&fv->vdev);
	return ret;
}

/* Waits, as vfio does, for the user to close the device (REQ asks) */
static void fpga_vfio_remove(struct pci_dev *pdev)
{
	struct fpga_vfio *fv = pci_get_drvdata(pdev);

	vfio_unregister_group_dev(&fv->vdev);
	vfio_put_device(&fv->vdev);
}

static const struct pci_device_id fpga_vfio_ids[] = {
	{ PCI_DEVICE(FPGA_SIM_VF_VENDOR, FPGA_SIM_VF_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, fpga_vfio_ids);

static struct pci_driver fpga_vfio_driver = {
	.name		= KBUILD_MODNAME,
	.id_table	= fpga_vfio_ids,
	.probe		= fpga_vfio_probe,
	.remove		= fpga_vfio_remove,
};
module_pci_driver(fpga_vfio_driver);

MODULE_DESCRIPTION("The simulated FPGA card's VFs as VFIO devices");
MODULE_LICENSE("GPL");
