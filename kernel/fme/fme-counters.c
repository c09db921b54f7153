// SPDX-License-Identifier: GPL-2.0-only
/*
 * The counter bank's registers in sysfs, fpga-fme.N/counters/: the card
 * totals under the PMU's event names, port<P>_<event> for each port of
 * the bank.  perf counts from when an event is opened; these are the
 * free-running registers themselves, which a scraper (fpgactl metrics,
 * for Prometheus) turns into rates.  Root only, as perf's system-wide
 * events are.
 */
#include <linux/bitfield.h>
#include <linux/io.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <fpga-suite/dfl-regs.h>

#include "fme.h"

/**
 * fpga_fme_counters_init() - find the card's counter bank, if it has one
 * @c: to fill in; base NULL without a bank
 * @fdev: the FME
 *
 * fpga_pmu_card_add() has refused a bank too small for its registers.
 */
void fpga_fme_counters_init(struct fpga_fme_counters *c,
			    struct fpga_dfl_device *fdev)
{
	struct fpga_dfl_feature *feat;
	struct fpga_dfl_cntr_cap cap;

	feat = fpga_dfl_find_feature(fdev, FME_FEATURE_ID_COUNTERS);
	if (!feat || feat->size < CNTR_SIZE) {
		c->base = NULL;
		return;
	}
	c->base = feat->ioaddr;
	fpga_dfl_cntr_cap(feat, &cap);
	c->num_ports = cap.num_ports;
	c->num_events = cap.num_events;
}

/* The fpga_pmu_N event names, by CNTR_EVT_* */
static const char * const fpga_fme_counter_names[CNTR_NUM_EVENTS] = {
	[CNTR_EVT_DMA_RD_BYTES]	= "dma_rd_bytes",
	[CNTR_EVT_DMA_WR_BYTES]	= "dma_wr_bytes",
	[CNTR_EVT_DMA_RD_LINES]	= "dma_rd_lines",
	[CNTR_EVT_DMA_WR_LINES]	= "dma_wr_lines",
	[CNTR_EVT_USER_IRQS]	= "user_irqs",
	[CNTR_EVT_ERROR_IRQS]	= "error_irqs",
	[CNTR_EVT_RESETS]	= "resets",
	[CNTR_EVT_DMA_FAULTS]	= "dma_faults",
	[CNTR_EVT_AFU_BUSY]	= "afu_busy_clocks",
};

struct fpga_fme_counter_attr {
	struct device_attribute attr;
	unsigned int port;	/* CNTR_CARD for the card's totals */
	unsigned int event;
	char name[24];		/* "port3_afu_busy_clocks" */
};

/*
 * Removed before the FME's remove() runs, and sysfs waits for a read in
 * progress: the registers are there while a file can be read
 */
static ssize_t fpga_fme_counter_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	struct fpga_fme_counter_attr *ca =
		container_of(attr, struct fpga_fme_counter_attr, attr);
	struct fpga_fme *fme = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%llu\n",
			  readq(fme->counters.base +
				CNTR_REG(ca->port, ca->event)));
}

/* The card's counters, then each port's, as the bank lays them out */
#define FPGA_FME_NUM_COUNTERS	((FME_MAX_PORTS + 1) * CNTR_NUM_EVENTS)

static struct fpga_fme_counter_attr fpga_fme_counter_attrs[FPGA_FME_NUM_COUNTERS];
static struct attribute *fpga_fme_counter_ptrs[FPGA_FME_NUM_COUNTERS + 1];

/* Module init: name every counter the bank may have */
void fpga_fme_counters_setup(void)
{
	struct fpga_fme_counter_attr *ca;
	unsigned int i;

	for (i = 0; i < FPGA_FME_NUM_COUNTERS; i++) {
		ca = &fpga_fme_counter_attrs[i];
		ca->port = i < CNTR_NUM_EVENTS ? CNTR_CARD :
			   i / CNTR_NUM_EVENTS - 1;
		ca->event = i % CNTR_NUM_EVENTS;
		if (ca->port == CNTR_CARD)
			strscpy(ca->name, fpga_fme_counter_names[ca->event],
				sizeof(ca->name));
		else
			snprintf(ca->name, sizeof(ca->name), "port%u_%s",
				 ca->port, fpga_fme_counter_names[ca->event]);
		sysfs_attr_init(&ca->attr.attr);
		ca->attr.attr.name = ca->name;
		ca->attr.attr.mode = 0400;
		ca->attr.show = fpga_fme_counter_show;
		fpga_fme_counter_ptrs[i] = &ca->attr.attr;
	}
}

/* Only the counters the card's bank has: an empty directory without one */
static umode_t fpga_fme_counter_is_visible(struct kobject *kobj,
					   struct attribute *attr, int i)
{
	struct fpga_fme *fme = dev_get_drvdata(kobj_to_dev(kobj));
	const struct fpga_fme_counter_attr *ca = &fpga_fme_counter_attrs[i];
	const struct fpga_fme_counters *c = &fme->counters;

	if (!c->base || ca->event >= c->num_events ||
	    (ca->port != CNTR_CARD && ca->port >= c->num_ports))
		return 0;
	return attr->mode;
}

const struct attribute_group fpga_fme_counters_group = {
	.name		= "counters",
	.attrs		= fpga_fme_counter_ptrs,
	.is_visible	= fpga_fme_counter_is_visible,
};
