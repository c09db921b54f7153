// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_dfl_pci: binds the PCI function of a DFL card (Intel PAC/OFS and
 * the other public DFL cards; any other function through new_id), finds
 * its Device Feature Lists and registers each with fpga_dfl, which creates
 * the FME and port devices the port, FME and UIO drivers bind to.
 *
 *   echo VENDOR DEVICE > /sys/bus/pci/drivers/fpga_dfl_pci/new_id
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-mapping.h>
#include <linux/iommu.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include <fpga-suite/dfl-core.h>
#include "dfl-pci.h"

#define PCI_VENDOR_ID_SILICOM_DK	0x1c2c

/* The public DFL cards, as upstream dfl-pci lists them */
static const struct pci_device_id fpga_dfl_pci_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_INTEL, 0xbcbd) },	/* PF, Int 5.x */
	{ PCI_DEVICE(PCI_VENDOR_ID_INTEL, 0xbcbf) },	/* VF, Int 5.x */
	{ PCI_DEVICE(PCI_VENDOR_ID_INTEL, 0xbcc0) },	/* PF, Int 6.x */
	{ PCI_DEVICE(PCI_VENDOR_ID_INTEL, 0xbcc1) },	/* VF, Int 6.x */
	{ PCI_DEVICE(PCI_VENDOR_ID_INTEL, 0x09c4) },	/* PF, DSC 1.x */
	{ PCI_DEVICE(PCI_VENDOR_ID_INTEL, 0x09c5) },	/* VF, DSC 1.x */
	{ PCI_DEVICE(PCI_VENDOR_ID_INTEL, 0x0b30) },	/* PAC N3000 */
	{ PCI_DEVICE(PCI_VENDOR_ID_INTEL, 0x0b2b) },	/* PAC D5005 */
	{ PCI_DEVICE(PCI_VENDOR_ID_INTEL, 0x0b2c) },	/* PAC D5005 VF */
	{ PCI_DEVICE(PCI_VENDOR_ID_SILICOM_DK, 0x1000) },	/* PAC N5010 */
	{ PCI_DEVICE(PCI_VENDOR_ID_SILICOM_DK, 0x1001) },	/* PAC N5011 */
	/* OFS: one device id, the board in the subsystem id */
	{ PCI_DEVICE_SUB(PCI_VENDOR_ID_INTEL, 0xbcce, PCI_VENDOR_ID_INTEL, 0x138d) },
	{ PCI_DEVICE_SUB(PCI_VENDOR_ID_INTEL, 0xbcce, PCI_VENDOR_ID_INTEL, 0x1770) },
	{ PCI_DEVICE_SUB(PCI_VENDOR_ID_INTEL, 0xbccf, PCI_VENDOR_ID_INTEL, 0x1770) },
	{ PCI_DEVICE_SUB(PCI_VENDOR_ID_INTEL, 0xbcce, PCI_VENDOR_ID_INTEL, 0x1771) },
	{ PCI_DEVICE_SUB(PCI_VENDOR_ID_INTEL, 0xbccf, PCI_VENDOR_ID_INTEL, 0x1771) },
	{ PCI_DEVICE_SUB(PCI_VENDOR_ID_INTEL, 0xbcce, PCI_VENDOR_ID_INTEL, 0x17d4) },
	{ PCI_DEVICE_SUB(PCI_VENDOR_ID_INTEL, 0xbccf, PCI_VENDOR_ID_INTEL, 0x17d4) },
	{ }
};
MODULE_DEVICE_TABLE(pci, fpga_dfl_pci_ids);

/*
 * Every MSI-X vector of the function, in vector order: the capability
 * registers and DFHv1 parameters of the features name vectors by number,
 * and fpga_dfl hands each feature the Linux irqs of the ones it names.
 */
static void fpga_dfl_pci_irqs_init(struct fpga_dfl_pci *fp)
{
	struct pci_dev *pdev = fp->pdev;
	int nvec = pci_msix_vec_count(pdev);
	int i, ret;

	if (nvec <= 0) {
		dev_info(&pdev->dev, "no MSI-X: features get no interrupts\n");
		return;
	}
	fp->irqs = devm_kcalloc(&pdev->dev, nvec, sizeof(*fp->irqs),
				GFP_KERNEL);
	if (!fp->irqs)
		return;
	ret = pci_alloc_irq_vectors(pdev, nvec, nvec, PCI_IRQ_MSIX);
	if (ret < 0) {
		dev_err(&pdev->dev,
			"cannot allocate %d MSI-X vectors (%d): features get no interrupts\n",
			nvec, ret);
		return;
	}
	for (i = 0; i < nvec; i++)
		fp->irqs[i] = pci_irq_vector(pdev, i);
	fp->num_irqs = nvec;
}

static int fpga_dfl_pci_dma_init(struct pci_dev *pdev)
{
	int ret;

	/* The port maps a user buffer as one range: let the IOMMU merge it */
	dma_set_max_seg_size(&pdev->dev, UINT_MAX);
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (!ret)
		return 0;
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
	if (ret)
		dev_err(&pdev->dev, "no usable DMA mask (64 or 32 bits): %d\n",
			ret);
	else
		dev_info(&pdev->dev, "DMA limited to 32-bit addresses\n");
	return ret;
}

/*
 * Whether an IOMMU translates the function's DMA.  All ports of the
 * function share its requester id, so one domain serves them all: access
 * to one port is access to the DMA of every port of the function.
 */
static enum fpga_dfl_dma_isolation fpga_dfl_pci_dma_isolation(struct pci_dev *pdev)
{
	struct iommu_domain *domain = iommu_get_domain_for_dev(&pdev->dev);

	if (!domain || domain->type == IOMMU_DOMAIN_IDENTITY)
		return FPGA_DFL_DMA_UNTRANSLATED;
	return FPGA_DFL_DMA_PER_CARD;
}

/* One card per list start; a list that yields nothing costs only itself */
static unsigned int fpga_dfl_pci_add_cards(struct fpga_dfl_pci *fp)
{
	struct pci_dev *pdev = fp->pdev;
	unsigned int i, added = 0;

	for (i = 0; i < fp->num_lists; i++) {
		const struct fpga_dfl_pci_list *l = &fp->lists[i];
		struct fpga_dfl_card_info info = {
			.parent = &pdev->dev,
			.card_dir = true,
			.ioaddr = fp->bars[l->bar],
			.start = pci_resource_start(pdev, l->bar),
			.len = pci_resource_len(pdev, l->bar),
			.first = l->ofs,
			.bar = l->bar,
			.dma_isolation = fpga_dfl_pci_dma_isolation(pdev),
			.owner = THIS_MODULE,
			.irqs = fp->irqs,
			.num_irqs = fp->num_irqs,
		};
		struct fpga_dfl_card *card;

		if (fpga_dfl_pci_covered(fp, i))
			continue;
		card = fpga_dfl_card_add(&info);
		if (IS_ERR(card)) {
			dev_err(&pdev->dev,
				"DFL at BAR %u offset %#llx: nothing enumerated (%pe)\n",
				l->bar, (unsigned long long)l->ofs, card);
			continue;
		}
		fp->cards[i] = card;
		added++;
	}
	return added;
}

static void fpga_dfl_pci_remove_cards(struct fpga_dfl_pci *fp)
{
	unsigned int i;

	for (i = fp->num_lists; i-- > 0;) {
		if (fp->cards[i])
			fpga_dfl_card_remove(fp->cards[i]);
		fp->cards[i] = NULL;
	}
}

static int fpga_dfl_pci_probe(struct pci_dev *pdev,
			      const struct pci_device_id *id)
{
	struct fpga_dfl_pci *fp;
	unsigned int added;
	int ret;

	fp = devm_kzalloc(&pdev->dev, sizeof(*fp), GFP_KERNEL);
	if (!fp)
		return -ENOMEM;
	fp->pdev = pdev;
	pci_set_drvdata(pdev, fp);

	ret = pcim_enable_device(pdev);
	if (ret) {
		dev_err(&pdev->dev, "cannot enable the device: %d\n", ret);
		return ret;
	}
	pci_set_master(pdev);
	ret = fpga_dfl_pci_dma_init(pdev);
	if (ret)
		return ret;
	ret = fpga_dfl_pci_find(fp);
	if (ret)
		return ret;
	fpga_dfl_pci_irqs_init(fp);

	added = fpga_dfl_pci_add_cards(fp);
	if (!added) {
		dev_err(&pdev->dev, "no FME or port could be enumerated\n");
		if (fp->num_irqs)
			pci_free_irq_vectors(pdev);
		return -ENODEV;
	}
	dev_info(&pdev->dev, "%u DFL card(s) from %u list(s), %u MSI-X vectors\n",
		 added, fp->num_lists, fp->num_irqs);
	return 0;
}

/*
 * sriov_numvfs, with upstream's rule (dfl-sriov.c): as many VFs as the
 * card has released ports; 0 routes them back to the PF.
 */
static int fpga_dfl_pci_sriov_configure(struct pci_dev *pdev, int num_vfs)
{
	struct fpga_dfl_pci *fp = pci_get_drvdata(pdev);
	unsigned int i;
	int ret = -ENODEV;

	if (!num_vfs) {
		pci_disable_sriov(pdev);
		for (i = 0; i < fp->num_lists; i++)
			if (fp->cards[i])
				fpga_dfl_card_sriov_disable(fp->cards[i]);
		return 0;
	}
	/* The card with the FME answers; the others are ports in other BARs */
	for (i = 0; i < fp->num_lists && ret == -ENODEV; i++)
		if (fp->cards[i])
			ret = fpga_dfl_card_sriov_enable(fp->cards[i], num_vfs);
	if (ret)
		return ret;
	ret = pci_enable_sriov(pdev, num_vfs);
	if (ret) {
		dev_err(&pdev->dev, "cannot enable %d VFs: %d\n", num_vfs, ret);
		fpga_dfl_card_sriov_disable(fp->cards[i - 1]);
		return ret;
	}
	return num_vfs;
}

/*
 * Also the hot-unplug path: the port and FME drivers unbind first (open
 * files get ENODEV, mappings are revoked, irqs freed), then the vectors go;
 * devres unmaps the BARs last.
 */
static void fpga_dfl_pci_remove(struct pci_dev *pdev)
{
	struct fpga_dfl_pci *fp = pci_get_drvdata(pdev);

	/*
	 * No DMA from here on: the core frees what an AFU that ignored its
	 * reset was left (dfl-reset.c), and an IOMMU in lazy mode may still
	 * translate for a while after the unmap.  The resets are polled.
	 */
	/* The VFs go first; their ports back to the PF, as upstream leaves them */
	fpga_dfl_pci_sriov_configure(pdev, 0);
	pci_clear_master(pdev);
	fpga_dfl_pci_remove_cards(fp);
	if (fp->num_irqs)
		pci_free_irq_vectors(pdev);
}

static struct pci_driver fpga_dfl_pci_driver = {
	.name = KBUILD_MODNAME,
	.id_table = fpga_dfl_pci_ids,
	.probe = fpga_dfl_pci_probe,
	.remove = fpga_dfl_pci_remove,
	.sriov_configure = fpga_dfl_pci_sriov_configure,
};

/*
 * OPAE's admin tools (fpgasupdate, rsu, fpgaport) look for cards only if
 * /sys/bus/pci/drivers/dfl-pci exists, upstream's driver's name.  Where
 * upstream's is absent (Debian's kernels build no FPGA drivers) this
 * driver registers under that name too, with no ids of its own: a function
 * bound through its new_id, as upstream documents, is enumerated alike.
 */
static struct pci_driver fpga_dfl_pci_upstream_name = {
	.name = "dfl-pci",
	.probe = fpga_dfl_pci_probe,
	.remove = fpga_dfl_pci_remove,
	.sriov_configure = fpga_dfl_pci_sriov_configure,
};

static bool fpga_dfl_pci_has_upstream_name;

static int __init fpga_dfl_pci_init(void)
{
	int ret;

	ret = pci_register_driver(&fpga_dfl_pci_driver);
	if (ret)
		return ret;
	if (driver_find(fpga_dfl_pci_upstream_name.name, &pci_bus_type)) {
		pr_info("PCI driver dfl-pci is upstream's: not registered under that name\n");
		return 0;
	}
	/* Not fatal: only the tools that look for the name miss it */
	ret = pci_register_driver(&fpga_dfl_pci_upstream_name);
	if (ret)
		pr_warn("cannot register as PCI driver dfl-pci: %d\n", ret);
	fpga_dfl_pci_has_upstream_name = !ret;
	return 0;
}
module_init(fpga_dfl_pci_init);

static void __exit fpga_dfl_pci_exit(void)
{
	if (fpga_dfl_pci_has_upstream_name)
		pci_unregister_driver(&fpga_dfl_pci_upstream_name);
	pci_unregister_driver(&fpga_dfl_pci_driver);
}
module_exit(fpga_dfl_pci_exit);

MODULE_DESCRIPTION("PCIe enumerator of DFL FPGA cards");
MODULE_LICENSE("GPL");
