// SPDX-License-Identifier: GPL-2.0-only
/*
 * dfl-peer-pci: the upstream DFL drivers' PCI glue, for the benchmark only.
 *
 * peer_bench measures the upstream DFL drivers (drivers/fpga of Debian's
 * linux-source of the host's line, 6.1 on bookworm, 6.12 on trixie, built
 * at bench time by scripts/build/peer-modules.sh) beside ours on the same
 * kind of card.  Upstream's dfl-pci looks for the Device
 * Feature List at offset 0 of BAR 0 only, and the test VM's cards are
 * QEMU ivshmem functions whose BAR 0 holds ivshmem's own registers and
 * whose BAR 2 holds the card image.  This module does what dfl-pci does
 * (MSI-X vectors, the FME's list, one list per port from the FME's port
 * offsets) for the list in BAR @bar, and hands it to upstream's
 * dfl_fpga_feature_devs_enumerate(); everything after that is upstream's.
 *
 * It has no ID table: bind a function through driver_override.  Never
 * part of the suite: it builds only in upstream's drivers/fpga.
 */
#include <linux/bitfield.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "dfl.h"

static unsigned int bar = 2;
module_param(bar, uint, 0444);
MODULE_PARM_DESC(bar, "the BAR whose offset 0 holds the FME (default 2)");

struct peer_card {
	struct dfl_fpga_cdev *cdev;
};

static int peer_add_irqs(struct pci_dev *pdev, struct dfl_fpga_enum_info *info)
{
	int nvec = pci_msix_vec_count(pdev), i, ret;
	int *irqs;

	if (nvec <= 0)
		return 0;
	ret = pci_alloc_irq_vectors(pdev, nvec, nvec, PCI_IRQ_MSIX);
	if (ret < 0)
		return ret;
	irqs = kcalloc(nvec, sizeof(*irqs), GFP_KERNEL);
	if (!irqs)
		return -ENOMEM;
	for (i = 0; i < nvec; i++)
		irqs[i] = pci_irq_vector(pdev, i);
	ret = dfl_fpga_enum_info_add_irq(info, nvec, irqs);
	kfree(irqs);
	return ret;
}

/* The FME's list and each implemented port's, as dfl-pci adds them */
static int peer_add_lists(struct pci_dev *pdev, struct dfl_fpga_enum_info *info)
{
	unsigned int i, ports, pbar;
	void __iomem *base;
	u32 ofs;
	u64 v;
	int ret;

	if (bar >= PCI_STD_NUM_BARS || !pci_resource_len(pdev, bar))
		return -ENODEV;
	/* Mapped only to read the offsets: upstream requests the region */
	base = pci_iomap(pdev, bar, FME_HDR_PORT_OFST(MAX_DFL_FPGA_PORT_NUM));
	if (!base)
		return -ENOMEM;
	if (!dfl_feature_is_fme(base)) {
		ret = -ENODEV;
		goto out;
	}
	ret = dfl_fpga_enum_info_add_dfl(info, pci_resource_start(pdev, bar),
					 pci_resource_len(pdev, bar));
	if (ret)
		goto out;
	ports = FIELD_GET(FME_CAP_NUM_PORTS, readq(base + FME_HDR_CAP));
	for (i = 0; i < ports && i < MAX_DFL_FPGA_PORT_NUM; i++) {
		v = readq(base + FME_HDR_PORT_OFST(i));
		pbar = FIELD_GET(FME_PORT_OFST_BAR_ID, v);
		ofs = FIELD_GET(FME_PORT_OFST_DFH_OFST, v);
		if (!(v & FME_PORT_OFST_IMP) || pbar == FME_PORT_OFST_BAR_SKIP)
			continue;
		if (pbar >= PCI_STD_NUM_BARS ||
		    ofs >= pci_resource_len(pdev, pbar)) {
			ret = -EINVAL;
			break;
		}
		ret = dfl_fpga_enum_info_add_dfl(info,
						 pci_resource_start(pdev, pbar) + ofs,
						 pci_resource_len(pdev, pbar) - ofs);
		if (ret)
			break;
	}
out:
	pci_iounmap(pdev, base);
	return ret;
}

static int peer_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct dfl_fpga_enum_info *info;
	struct peer_card *card;
	int ret;

	card = devm_kzalloc(&pdev->dev, sizeof(*card), GFP_KERNEL);
	if (!card)
		return -ENOMEM;
	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	pci_set_master(pdev);
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	info = dfl_fpga_enum_info_alloc(&pdev->dev);
	if (!info)
		return -ENOMEM;
	ret = peer_add_irqs(pdev, info);
	if (!ret)
		ret = peer_add_lists(pdev, info);
	if (!ret) {
		card->cdev = dfl_fpga_feature_devs_enumerate(info);
		if (IS_ERR(card->cdev))
			ret = PTR_ERR(card->cdev);
	}
	dfl_fpga_enum_info_free(info);
	if (ret) {
		pci_free_irq_vectors(pdev);
		return ret;
	}
	pci_set_drvdata(pdev, card);
	return 0;
}

static void peer_remove(struct pci_dev *pdev)
{
	struct peer_card *card = pci_get_drvdata(pdev);

	dfl_fpga_feature_devs_remove(card->cdev);
	pci_free_irq_vectors(pdev);
}

static struct pci_driver peer_driver = {
	.name = "dfl_peer_pci",
	.probe = peer_probe,
	.remove = peer_remove,
};
module_pci_driver(peer_driver);

MODULE_DESCRIPTION("Upstream DFL drivers on a card whose list is in BAR 2 (benchmark only)");
MODULE_LICENSE("GPL");
