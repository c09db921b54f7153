/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_sim's PCI functions: the bus and driver (sim-pci.c) and the
 * configuration space they answer with (sim-pci-cfg.c).
 */
#ifndef _FPGA_SIM_PCI_H
#define _FPGA_SIM_PCI_H

#include <linux/pci.h>
#include <linux/types.h>

#include <fpga-suite/sim-vf.h>
#include "sim.h"

/* Our ids, no vendor's: a card's PF, and its VFs */
#define FPGA_SIM_PCI_VENDOR		0x0000
#define FPGA_SIM_PCI_DEVICE		0xd5f1
#define FPGA_SIM_PCI_VF_DEVICE		FPGA_SIM_VF_DEVICE

/* What a function answers: the header, its PCIe capability, SR-IOV's */
#define FPGA_SIM_PCI_CAP_EXP		0x40
#define FPGA_SIM_PCI_CAP_SRIOV		PCI_CFG_SPACE_SIZE
#define FPGA_SIM_PCI_CFG_SIZE		(FPGA_SIM_PCI_CAP_SRIOV + PCI_EXT_CAP_SRIOV_SIZEOF)
/* VF k is function k + 1 of the PF's slot */
#define FPGA_SIM_PCI_VF_OFFSET		1
#define FPGA_SIM_PCI_VF_STRIDE		1

/**
 * struct fpga_sim_pci_cfg - the configuration space of a slot
 * @pf:	the PF's (function 0), SR-IOV's registers included
 * @vf:	every VF's: its header and PCIe capability, read-only
 */
struct fpga_sim_pci_cfg {
	u8 pf[FPGA_SIM_PCI_CFG_SIZE];
	u8 vf[FPGA_SIM_PCI_CAP_EXP + PCI_CAP_EXP_ENDPOINT_SIZEOF_V2];
};

void fpga_sim_pci_cfg_init(struct fpga_sim_pci_cfg *cfg,
			   enum fpga_sim_board board, unsigned int total_vfs);
bool fpga_sim_pci_cfg_has_func(const struct fpga_sim_pci_cfg *cfg,
			       unsigned int func);
u32 fpga_sim_pci_cfg_read(const struct fpga_sim_pci_cfg *cfg,
			  unsigned int func, int where, int size);
void fpga_sim_pci_cfg_write(struct fpga_sim_pci_cfg *cfg, unsigned int func,
			    int where, int size, u32 val);

#endif /* _FPGA_SIM_PCI_H */
