// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite fpga_pmu_config: the perf config ABI of the counter bank's
 * PMU (fme-pmu.c).  fpga_pmu_decode() on valid and invalid configs, and
 * every alias of events/ encoded with the format/ files, as perf does,
 * decoded back to the counter it names.
 */
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fpga-compat.h"
#include "../fme.h"

#define NUM_PORTS	FME_MAX_PORTS
#define NUM_EVENTS	CNTR_NUM_EVENTS
#define PORTID_CARD	0xffULL

static u64 cfg(u64 event, u64 evtype, u64 portid)
{
	return event | evtype << 12 | portid << 16;
}

static int decode(u64 config, unsigned long *reg)
{
	return fpga_pmu_decode(NUM_PORTS, NUM_EVENTS, config, reg);
}

static void pmu_config_clock(struct kunit *test)
{
	unsigned long reg = 0;

	KUNIT_EXPECT_EQ(test, decode(cfg(0, 0, PORTID_CARD), &reg), 0);
	KUNIT_EXPECT_EQ(test, reg, CNTR_CLOCK);
	/* Only event 0, only for the whole card */
	KUNIT_EXPECT_EQ(test, decode(cfg(1, 0, PORTID_CARD), &reg), -EINVAL);
	KUNIT_EXPECT_EQ(test, decode(cfg(0, 0, 0), &reg), -EINVAL);
}

static void pmu_config_bank(struct kunit *test)
{
	unsigned int port, event;
	unsigned long reg;

	for (event = 0; event < NUM_EVENTS; event++) {
		for (port = 0; port < NUM_PORTS; port++) {
			reg = 0;
			KUNIT_EXPECT_EQ(test, decode(cfg(event, 1, port), &reg), 0);
			KUNIT_EXPECT_EQ(test, reg, CNTR_REG(port, event));
		}
		reg = 0;
		KUNIT_EXPECT_EQ(test, decode(cfg(event, 1, PORTID_CARD), &reg), 0);
		KUNIT_EXPECT_EQ(test, reg, CNTR_REG(CNTR_CARD, event));
	}
	KUNIT_EXPECT_EQ(test, decode(cfg(NUM_EVENTS, 1, 0), &reg), -EINVAL);
	KUNIT_EXPECT_EQ(test, decode(cfg(0xfff, 1, 0), &reg), -EINVAL);
	KUNIT_EXPECT_EQ(test, decode(cfg(0, 1, NUM_PORTS), &reg), -EINVAL);
	KUNIT_EXPECT_EQ(test, decode(cfg(0, 1, 0xfe), &reg), -EINVAL);
}

static void pmu_config_small_bank(struct kunit *test)
{
	unsigned long reg = 0;

	/* A bank with 2 ports and 4 events refuses port 2 and event 4 */
	KUNIT_EXPECT_EQ(test, fpga_pmu_decode(2, 4, cfg(3, 1, 1), &reg), 0);
	KUNIT_EXPECT_EQ(test, reg, CNTR_REG(1, 3));
	KUNIT_EXPECT_EQ(test, fpga_pmu_decode(2, 4, cfg(3, 1, 2), &reg), -EINVAL);
	KUNIT_EXPECT_EQ(test, fpga_pmu_decode(2, 4, cfg(4, 1, 0), &reg), -EINVAL);
	KUNIT_EXPECT_EQ(test, fpga_pmu_decode(2, 4, cfg(3, 1, PORTID_CARD),
					      &reg), 0);
	KUNIT_EXPECT_EQ(test, reg, CNTR_REG(CNTR_CARD, 3));
	/* A bank of the first eight events has no afu_busy_clocks */
	KUNIT_EXPECT_EQ(test, fpga_pmu_decode(4, 8, cfg(CNTR_EVT_AFU_BUSY, 1, 0),
					      &reg), -EINVAL);
	/* Event 8 is in the second block, after the card's first eight */
	KUNIT_EXPECT_EQ(test, fpga_pmu_decode(4, 9, cfg(CNTR_EVT_AFU_BUSY, 1, 1),
					      &reg), 0);
	KUNIT_EXPECT_EQ(test, reg, CNTR_REG(CNTR_CARD, 7) + 8 + 0x40);
	/* A card without counters has no bank event at all */
	KUNIT_EXPECT_EQ(test, fpga_pmu_decode(0, 0, cfg(0, 1, PORTID_CARD),
					      &reg), -EINVAL);
}

static void pmu_config_reserved(struct kunit *test)
{
	unsigned long reg;
	unsigned int bit;

	for (bit = 24; bit < 64; bit++)
		KUNIT_EXPECT_EQ_MSG(test,
				    decode(cfg(0, 1, 0) | BIT_ULL(bit), &reg),
				    -EINVAL, "config bit %u", bit);
	for (bit = 2; bit < 16; bit++)
		KUNIT_EXPECT_EQ_MSG(test, decode(cfg(0, bit, PORTID_CARD), &reg),
				    -EINVAL, "evtype %u", bit);
}

/* Show a format/ or events/ attribute into @buf (a page) */
static const char *show(struct kunit *test, struct attribute *attr, char *buf)
{
	struct device_attribute *dattr =
		container_of(attr, struct device_attribute, attr);
	ssize_t len;

	memset(buf, 0, PAGE_SIZE);
	len = dattr->show(NULL, dattr, buf);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_EXPECT_EQ(test, buf[len - 1], '\n');
	buf[len - 1] = '\0';
	return buf;
}

static void pmu_config_format(struct kunit *test)
{
	static const char * const want[][2] = {
		{ "event", "config:0-11" },
		{ "evtype", "config:12-15" },
		{ "portid", "config:16-23" },
	};
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		KUNIT_ASSERT_NOT_NULL(test, fpga_pmu_format_attrs[i]);
		KUNIT_EXPECT_STREQ(test, fpga_pmu_format_attrs[i]->name,
				   want[i][0]);
		KUNIT_EXPECT_STREQ(test, show(test, fpga_pmu_format_attrs[i],
					      buf), want[i][1]);
	}
	KUNIT_EXPECT_NULL(test, fpga_pmu_format_attrs[i]);
}

/* Where in config perf puts @term, from format/ ("config:LO-HI") */
static int format_shift(struct kunit *test, const char *term,
			unsigned int *lo, unsigned int *hi)
{
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	struct attribute **a;

	if (!buf)
		return -ENOMEM;
	for (a = fpga_pmu_format_attrs; *a; a++) {
		if (strcmp((*a)->name, term))
			continue;
		if (sscanf(show(test, *a, buf), "config:%u-%u", lo, hi) != 2)
			return -EINVAL;
		return 0;
	}
	return -ENOENT;
}

/*
 * Encode an events/ string ("event=0x01,evtype=0x01,portid=?") as perf
 * would, with @portid for "?".
 */
static int encode(struct kunit *test, char *str, u64 portid, u64 *config)
{
	unsigned int lo, hi;
	char *term, *val;
	u64 v;
	int ret;

	*config = 0;
	while ((term = strsep(&str, ","))) {
		val = strchr(term, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(val, "?"))
			v = portid;
		else if (kstrtou64(val, 0, &v))
			return -EINVAL;
		ret = format_shift(test, term, &lo, &hi);
		if (ret)
			return ret;
		if (v > GENMASK_ULL(hi - lo, 0))
			return -ERANGE;
		*config |= v << lo;
	}
	return 0;
}

static const struct {
	const char *name;
	unsigned int event;	/* CNTR_EVT_*, or ~0: the clock */
	bool per_port;
} pmu_aliases[] = {
	{ "clock", ~0U, false },
	{ "dma_rd_bytes", CNTR_EVT_DMA_RD_BYTES, false },
	{ "port_dma_rd_bytes", CNTR_EVT_DMA_RD_BYTES, true },
	{ "dma_wr_bytes", CNTR_EVT_DMA_WR_BYTES, false },
	{ "port_dma_wr_bytes", CNTR_EVT_DMA_WR_BYTES, true },
	{ "dma_rd_lines", CNTR_EVT_DMA_RD_LINES, false },
	{ "port_dma_rd_lines", CNTR_EVT_DMA_RD_LINES, true },
	{ "dma_wr_lines", CNTR_EVT_DMA_WR_LINES, false },
	{ "port_dma_wr_lines", CNTR_EVT_DMA_WR_LINES, true },
	{ "user_irqs", CNTR_EVT_USER_IRQS, false },
	{ "port_user_irqs", CNTR_EVT_USER_IRQS, true },
	{ "error_irqs", CNTR_EVT_ERROR_IRQS, false },
	{ "port_error_irqs", CNTR_EVT_ERROR_IRQS, true },
	{ "resets", CNTR_EVT_RESETS, false },
	{ "port_resets", CNTR_EVT_RESETS, true },
	{ "dma_faults", CNTR_EVT_DMA_FAULTS, false },
	{ "port_dma_faults", CNTR_EVT_DMA_FAULTS, true },
	{ "afu_busy_clocks", CNTR_EVT_AFU_BUSY, false },
	{ "port_afu_busy_clocks", CNTR_EVT_AFU_BUSY, true },
};

static void pmu_config_aliases(struct kunit *test)
{
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	unsigned int i, found = 0, text = 0;
	struct attribute **a;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (a = fpga_pmu_event_attrs; *a; a++) {
		const char *name = (*a)->name;
		unsigned long reg = 0, want;
		u64 config;

		if (strchr(name, '.')) {
			/* .unit is "bytes", .scale is "1": of a byte counter */
			KUNIT_EXPECT_NOT_NULL(test, strstr(name, "_bytes."));
			KUNIT_EXPECT_STREQ(test, show(test, *a, buf),
					   str_has_prefix(strchr(name, '.'), ".unit") ?
					   "bytes" : "1");
			text++;
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(pmu_aliases); i++)
			if (!strcmp(pmu_aliases[i].name, name))
				break;
		KUNIT_ASSERT_LT_MSG(test, i, ARRAY_SIZE(pmu_aliases),
				    "unexpected alias %s", name);
		found++;

		/* Per port: "portid=?"; for port 2 here */
		show(test, *a, buf);
		KUNIT_EXPECT_EQ_MSG(test, !!strstr(buf, "portid=?"),
				    pmu_aliases[i].per_port, "%s=%s", name, buf);
		KUNIT_ASSERT_EQ_MSG(test, encode(test, buf, 2, &config), 0,
				    "%s", name);
		if (pmu_aliases[i].event == ~0U)
			want = CNTR_CLOCK;
		else
			want = CNTR_REG(pmu_aliases[i].per_port ? 2 : CNTR_CARD,
					pmu_aliases[i].event);
		KUNIT_EXPECT_EQ_MSG(test, decode(config, &reg), 0, "%s", name);
		KUNIT_EXPECT_EQ_MSG(test, reg, want, "%s", name);
	}
	KUNIT_EXPECT_EQ(test, found, ARRAY_SIZE(pmu_aliases));
	KUNIT_EXPECT_EQ(test, text, 8);
}

static struct kunit_case pmu_config_cases[] = {
	KUNIT_CASE(pmu_config_clock),
	KUNIT_CASE(pmu_config_bank),
	KUNIT_CASE(pmu_config_small_bank),
	KUNIT_CASE(pmu_config_reserved),
	KUNIT_CASE(pmu_config_format),
	KUNIT_CASE(pmu_config_aliases),
	{}
};

static struct kunit_suite pmu_config_suite = {
	.name = "fpga_pmu_config",
	.test_cases = pmu_config_cases,
};

kunit_test_suite(pmu_config_suite);

MODULE_DESCRIPTION("KUnit suite of the FME perf PMU's config (fpga_fme)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("FPGA_SUITE_KUNIT");
