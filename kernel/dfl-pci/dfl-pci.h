/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_dfl_pci: a PCI function holding one or more Device Feature Lists
 * in its BARs.  dfl-pci.c binds the function; dfl-pci-find.c finds where
 * the lists start.  Each list start becomes one fpga_dfl card.
 */
#ifndef _FPGA_DFL_PCI_H
#define _FPGA_DFL_PCI_H

#include <linux/pci.h>
#include <linux/types.h>

/* DFL VSEC (PCIe extended capability, vendor specific, Intel) */
#define FPGA_DFL_PCI_VSEC_ID		0x43
#define FPGA_DFL_PCI_VSEC_CNT		0x8
#define FPGA_DFL_PCI_VSEC_RES		0xc
#define FPGA_DFL_PCI_VSEC_RES_BAR	GENMASK(2, 0)
#define FPGA_DFL_PCI_VSEC_RES_OFS	GENMASK(31, 3)

/* Lists (and so cards) per function: a VSEC entry each, or FME + ports */
#define FPGA_DFL_PCI_MAX_LISTS		8

struct fpga_dfl_card;

/**
 * struct fpga_dfl_pci_list - where one Device Feature List starts
 * @bar:	the BAR holding it
 * @ofs:	offset of its first DFH in the BAR
 */
struct fpga_dfl_pci_list {
	u8 bar;
	resource_size_t ofs;
};

/**
 * struct fpga_dfl_pci - one bound PCI function
 * @pdev:	the function
 * @bars:	kernel mappings of the BARs used so far (pcim managed)
 * @irqs:	Linux irq of each MSI-X vector, in vector order
 * @num_irqs:	number of entries in @irqs (0: no MSI-X)
 * @lists:	list starts found by fpga_dfl_pci_find()
 * @num_lists:	number of entries in @lists
 * @cards:	the fpga_dfl card registered for each list (NULL if none)
 */
struct fpga_dfl_pci {
	struct pci_dev *pdev;
	void __iomem *bars[PCI_STD_NUM_BARS];
	int *irqs;
	unsigned int num_irqs;
	struct fpga_dfl_pci_list lists[FPGA_DFL_PCI_MAX_LISTS];
	unsigned int num_lists;
	struct fpga_dfl_card *cards[FPGA_DFL_PCI_MAX_LISTS];
};

void __iomem *fpga_dfl_pci_map_bar(struct fpga_dfl_pci *fp, u8 bar);
int fpga_dfl_pci_find(struct fpga_dfl_pci *fp);
bool fpga_dfl_pci_covered(struct fpga_dfl_pci *fp, unsigned int i);

#endif /* _FPGA_DFL_PCI_H */
