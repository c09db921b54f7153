// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite fpga_dfl_counters: the counter bank's clocks as time
 * (fdinfo's fpga-engine-afu) and the layout of its blocks of events.
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/module.h>

#include <fpga-suite/dfl-core.h>

static void cntr_clocks_to_ns(struct kunit *test)
{
	/* 250 MHz: 4 ns a clock */
	KUNIT_EXPECT_EQ(test, fpga_dfl_cntr_clocks_to_ns(0, 250), 0);
	KUNIT_EXPECT_EQ(test, fpga_dfl_cntr_clocks_to_ns(1, 250), 4);
	KUNIT_EXPECT_EQ(test, fpga_dfl_cntr_clocks_to_ns(250000000, 250),
			1000000000);
	/* 300 MHz: 3.33 ns, rounded down once, not per clock */
	KUNIT_EXPECT_EQ(test, fpga_dfl_cntr_clocks_to_ns(1, 300), 3);
	KUNIT_EXPECT_EQ(test, fpga_dfl_cntr_clocks_to_ns(3, 300), 10);
	KUNIT_EXPECT_EQ(test, fpga_dfl_cntr_clocks_to_ns(299, 300), 996);
	/* 1 MHz, the slowest: exact */
	KUNIT_EXPECT_EQ(test, fpga_dfl_cntr_clocks_to_ns(7, 1), 7000);
	/* Past 2^64 / 1000 clocks: exact while the ns fit, then saturated */
	KUNIT_EXPECT_EQ(test, fpga_dfl_cntr_clocks_to_ns(U64_MAX, 4000),
			U64_MAX / 4000 * 1000 + (U64_MAX % 4000) * 1000 / 4000);
	KUNIT_EXPECT_EQ(test, fpga_dfl_cntr_clocks_to_ns(U64_MAX, 250),
			U64_MAX);
	KUNIT_EXPECT_EQ(test, fpga_dfl_cntr_clocks_to_ns(U64_MAX / 999, 1),
			U64_MAX);
}

static void cntr_layout(struct kunit *test)
{
	/* The first eight events keep the layout of a bank of eight */
	KUNIT_EXPECT_EQ(test, CNTR_REG(0, 0), 0x40);
	KUNIT_EXPECT_EQ(test, CNTR_REG(1, 7), 0xb8);
	KUNIT_EXPECT_EQ(test, CNTR_REG(CNTR_CARD, 7), 0x178);
	KUNIT_EXPECT_EQ(test, CNTR_BANK_SIZE(8), 0x180);
	KUNIT_EXPECT_EQ(test, CNTR_SIZE, 0x180);
	/* The next eight after them, ports then the card */
	KUNIT_EXPECT_EQ(test, CNTR_REG(0, CNTR_EVT_AFU_BUSY), 0x180);
	KUNIT_EXPECT_EQ(test, CNTR_REG(2, CNTR_EVT_AFU_BUSY), 0x200);
	KUNIT_EXPECT_EQ(test, CNTR_REG(CNTR_CARD, CNTR_EVT_AFU_BUSY), 0x280);
	KUNIT_EXPECT_EQ(test, CNTR_BANK_SIZE(CNTR_NUM_EVENTS), 0x2c0);
}

static struct kunit_case dfl_counters_cases[] = {
	KUNIT_CASE(cntr_clocks_to_ns),
	KUNIT_CASE(cntr_layout),
	{}
};

static struct kunit_suite dfl_counters_suite = {
	.name = "fpga_dfl_counters",
	.test_cases = dfl_counters_cases,
};

kunit_test_suite(dfl_counters_suite);
