/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_dfl internals: the upstream layout's fpga_region devices
 * (dfl-region.c), made for a card before its FIUs are added and removed
 * after them.
 */
#ifndef _FPGA_DFL_REGION_H
#define _FPGA_DFL_REGION_H

struct fpga_dfl_card;

void fpga_dfl_regions_add(struct fpga_dfl_card *card);
void fpga_dfl_regions_del(struct fpga_dfl_card *card);
int fpga_dfl_regions_init(void);
void fpga_dfl_regions_exit(void);

#endif /* _FPGA_DFL_REGION_H */
