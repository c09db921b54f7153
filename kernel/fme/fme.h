/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_fme internals shared between its files: the global errors
 * (fme-error.c) and the perf PMU of the card's counter bank (fme-pmu.c),
 * hooked into the FME's probe and remove.
 */
#ifndef _FPGA_FME_H
#define _FPGA_FME_H

#include <linux/mutex.h>

#include <fpga-suite/dfl-core.h>

struct fpga_pmu;

/**
 * struct fpga_fme_error - the FME's global error feature (fme-error.c)
 * @base:	its registers, or NULL if the FME has none
 * @revision:	the feature's revision
 * @lock:	serialises the mask, clear, unmask sequences
 */
struct fpga_fme_error {
	void __iomem *base;
	u8 revision;
	struct mutex lock;	/* clear and inject sequences */
};

void fpga_fme_error_init(struct fpga_fme_error *err,
			 struct fpga_dfl_device *fdev);
void fpga_fme_error_fini(struct fpga_fme_error *err);
extern const struct attribute_group fpga_fme_error_group;
/* The error state of the FME behind @dev, either of its names (fme-main.c) */
struct fpga_fme_error *fpga_fme_error_of(struct device *dev);

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
