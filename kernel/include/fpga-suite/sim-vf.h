/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulated card's VFs, for the driver that binds them (fpga_vfio):
 * which card and which of its VFs a PCI function is.
 */
#ifndef _FPGA_SUITE_SIM_VF_H
#define _FPGA_SUITE_SIM_VF_H

/* A simulated card's VF: our ids, no vendor's (sim-pci-cfg.c) */
#define FPGA_SIM_VF_VENDOR	0x0000
#define FPGA_SIM_VF_DEVICE	0xd5f2

struct fpga_dfl_card;
struct pci_dev;

struct fpga_dfl_card *fpga_sim_vf_card(struct pci_dev *vf, unsigned int *index);

#endif /* _FPGA_SUITE_SIM_VF_H */
