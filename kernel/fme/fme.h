/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fpga_fme internals shared between its files: the FME (fme-main.c), the
 * global errors (fme-error.c), the perf PMU of the card's counter bank
 * (fme-pmu.c) and the thermal and power sensors (fme-hwmon.c), hooked
 * into the FME's probe and remove.
 */
#ifndef _FPGA_FME_H
#define _FPGA_FME_H

#include <linux/cdev.h>
#include <linux/device.h>
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

struct fpga_fme;

/**
 * struct fpga_fme_sensor - a thermal or power management feature, as a
 * hwmon device (fme-hwmon.c)
 * @fme:	the FME, whose unplug guard the reads and writes hold
 * @base:	the feature's registers, or NULL if the FME has none
 * @hwmon:	its hwmon device, or NULL
 * @throttles:	the FPGA throttles at the thresholds (thermal: they are
 *		shown only then)
 * @lock:	serialises the threshold register's read-modify-write
 */
struct fpga_fme_sensor {
	struct fpga_fme *fme;
	void __iomem *base;
	struct device *hwmon;
	bool throttles;
	struct mutex lock;	/* threshold updates */
};

/**
 * struct fpga_fme - an FME
 * @chardev:	the device behind /dev/fpga-fme.N; its release frees this
 * @cdev:	the character device
 * @dfl_node:	/dev/dfl-fme.N, the upstream name, or NULL
 * @unplug:	file operations that touch the hardware run in its section;
 *		remove() unplugs it, and operations then fail with -ENODEV
 * @lock:	protects @open_count and @excl; the last close unbinds
 *		@err_irqs under it
 * @open_count:	number of open files
 * @excl:	opened with O_EXCL
 * @hdr:	FME header registers
 * @err_irqs:	the global error interrupt
 * @err:	the global error registers (errors/ in sysfs)
 * @pmu:	perf PMU of the counter bank, or NULL
 * @thermal:	the thermal management feature's hwmon device
 * @power:	the power management feature's hwmon device
 * @hwmon_dir:	hwmon/ in @dfl_node, links to those devices, or NULL
 */
struct fpga_fme {
	struct device chardev;
	struct cdev cdev;
	struct fpga_dfl_node *dfl_node;
	struct fpga_dfl_unplug unplug;
	struct mutex lock;	/* open_count, excl */
	unsigned int open_count;
	bool excl;
	void __iomem *hdr;
	struct fpga_dfl_irqs err_irqs;
	struct fpga_fme_error err;
	struct fpga_pmu *pmu;
	struct fpga_fme_sensor thermal;
	struct fpga_fme_sensor power;
	struct kobject *hwmon_dir;
};

/* The error state of the FME behind @dev, either of its names */
static inline struct fpga_fme_error *fpga_fme_error_of(struct device *dev)
{
	struct fpga_fme *fme = dev_get_drvdata(dev);

	return &fme->err;
}

#if IS_ENABLED(CONFIG_HWMON)
void fpga_fme_hwmon_add(struct fpga_fme *fme, struct fpga_dfl_device *fdev);
void fpga_fme_hwmon_remove(struct fpga_fme *fme);
#else
/* A kernel without hwmon (Debian's cloud flavour): no sensors */
static inline void fpga_fme_hwmon_add(struct fpga_fme *fme,
				      struct fpga_dfl_device *fdev)
{
}

static inline void fpga_fme_hwmon_remove(struct fpga_fme *fme)
{
}
#endif

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
