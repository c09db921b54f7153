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

/*
 * The config ABI (fme-pmu.c), for the KUnit suite: decoding, and the
 * format/ and events/ files as NULL-terminated attribute lists of
 * struct device_attribute (set up by fpga_pmu_init()).
 */
int fpga_pmu_decode(unsigned int num_ports, unsigned int num_events,
		    u64 config, unsigned long *reg);
extern struct attribute *fpga_pmu_format_attrs[];
extern struct attribute *fpga_pmu_event_attrs[];

#endif /* _FPGA_FME_H */
