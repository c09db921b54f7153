/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_fme internals shared between its files: the perf PMU of the card's
 * counter bank (fme-pmu.c), hooked into the FME's probe and remove.
 */
#ifndef _FPGA_FME_H
#define _FPGA_FME_H

#include "dfl-core.h"

struct fpga_pmu;

int fpga_pmu_init(void);
void fpga_pmu_exit(void);
struct fpga_pmu *fpga_pmu_card_add(struct fpga_dfl_device *fdev);
void fpga_pmu_card_remove(struct fpga_pmu *fpmu);

#endif /* _FPGA_FME_H */
