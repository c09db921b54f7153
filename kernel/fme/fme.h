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
struct fpga_fme;
struct fpga_fme_bmc;

/**
 * struct fpga_fme_pr - the FME's partial reconfiguration engine (fme-pr.c)
 * @base:	its registers, or NULL if the FME has none
 * @stage:	its staging window, or NULL: the FIFO is used
 * @stage_size:	the window's size in bytes
 * @intfc_h:	high 64 bits of the PR interface id
 * @intfc_l:	low 64 bits
 * @lock:	one programming at a time; held while one runs
 * @last_err:	FME_PR_ERR bits of the last programming (errors/pr_err),
 *		with FME_PR_ERR_TIMEOUT if the engine did not answer
 * @region:	dfl-fme-region.N under dfl-fme.N, or NULL
 */
struct fpga_fme_pr {
	void __iomem *base;
	void __iomem *stage;
	size_t stage_size;
	u64 intfc_h;
	u64 intfc_l;
	struct mutex lock;	/* a programming in progress */
	u64 last_err;
	struct fpga_dfl_pr_region *region;
};

void fpga_fme_pr_init(struct fpga_fme_pr *pr, struct fpga_dfl_device *fdev);
void fpga_fme_pr_region_add(struct fpga_fme_pr *pr, struct fpga_dfl_node *node);
void fpga_fme_pr_region_del(struct fpga_fme_pr *pr);
long fpga_fme_ioctl_port_pr(struct fpga_fme *fme, void __user *arg);
int fpga_fme_pr_run(struct fpga_fme *fme, unsigned int port, const void *buf,
		    size_t len);
extern const struct attribute_group fpga_fme_pr_group;
bool fpga_fme_pr_attr_visible(struct fpga_fme *fme, struct kobject *kobj);
extern struct device_attribute dev_attr_pr_err;

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

/**
 * struct fpga_fme_counters - the card's counter bank, for sysfs
 * @base:	its registers, NULL if the card has none
 * @num_ports:	ports with counters
 * @num_events:	counters per port
 */
struct fpga_fme_counters {
	void __iomem *base;
	unsigned int num_ports;
	unsigned int num_events;
};

void fpga_fme_counters_init(struct fpga_fme_counters *c,
			    struct fpga_dfl_device *fdev);
void fpga_fme_counters_setup(void);
extern const struct attribute_group fpga_fme_counters_group;

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
 * @fdev:	the FME on the fpga_dfl bus
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
 * @pr:		the PR engine (DFL_FPGA_FME_PORT_PR)
 * @thermal:	the thermal management feature's hwmon device
 * @power:	the power management feature's hwmon device
 * @hwmon_dir:	hwmon/ in @dfl_node, links to those devices, or NULL
 * @bmc:	feature 0xe, the BMC's SPI master, or NULL (fme-bmc.c)
 */
struct fpga_fme {
	struct device chardev;
	struct cdev cdev;
	struct fpga_dfl_node *dfl_node;
	struct fpga_dfl_device *fdev;
	struct fpga_dfl_unplug unplug;
	struct mutex lock;	/* open_count, excl */
	unsigned int open_count;
	bool excl;
	void __iomem *hdr;
	struct fpga_dfl_irqs err_irqs;
	struct fpga_fme_error err;
	struct fpga_pmu *pmu;
	struct fpga_fme_counters counters;
	struct fpga_fme_pr pr;
	struct fpga_fme_sensor thermal;
	struct fpga_fme_sensor power;
	struct kobject *hwmon_dir;
	struct fpga_fme_bmc *bmc;
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

/* The name the BMC's SPI device and driver match on */
#define FPGA_FME_BMC_MODALIAS	"fpga-sim-bmc"

#if IS_ENABLED(CONFIG_SPI_MASTER) && IS_ENABLED(CONFIG_HWMON)
void fpga_fme_bmc_add(struct fpga_fme *fme, struct fpga_dfl_device *fdev);
void fpga_fme_bmc_remove(struct fpga_fme *fme);
int fpga_fme_bmc_init(void);
void fpga_fme_bmc_exit(void);
#else
/* A kernel without SPI or hwmon (the cloud flavour): no BMC */
static inline void fpga_fme_bmc_add(struct fpga_fme *fme,
				    struct fpga_dfl_device *fdev)
{
}

static inline void fpga_fme_bmc_remove(struct fpga_fme *fme)
{
}

static inline int fpga_fme_bmc_init(void)
{
	return 0;
}

static inline void fpga_fme_bmc_exit(void)
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
