// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite fpga_port_region: the port's one MMIO region (the AFU) as
 * DFL_FPGA_PORT_GET_REGION_INFO describes it, and the bounds that mmap and
 * ptrace access check against it (port-region.c).
 */
#include <kunit/test.h>
#include <linux/fpga-dfl.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "fpga-compat.h"
#include "../port.h"

/* A port with an AFU of @size (struct fpga_port is too big for the stack) */
static struct fpga_port *port_with_afu(struct kunit *test, u64 size)
{
	struct fpga_port *port = kunit_kzalloc(test, sizeof(*port), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, port);
	port->afu_size = size;
	return port;
}

static void port_region_info(struct kunit *test)
{
	struct fpga_port *port = port_with_afu(test, SZ_256K);
	struct dfl_fpga_port_region_info rinfo = {
		.argsz = sizeof(rinfo),
		.index = DFL_PORT_REGION_INDEX_AFU,
		.size = 1,
		.offset = 1,
	};

	KUNIT_ASSERT_EQ(test, fpga_port_region_info(port, &rinfo), 0);
	KUNIT_EXPECT_EQ(test, rinfo.flags, DFL_PORT_REGION_READ |
			DFL_PORT_REGION_WRITE | DFL_PORT_REGION_MMAP);
	KUNIT_EXPECT_EQ(test, rinfo.size, SZ_256K);
	KUNIT_EXPECT_EQ(test, rinfo.offset, FPGA_PORT_REGION_AFU_OFFSET);
	KUNIT_EXPECT_EQ(test, rinfo.index, DFL_PORT_REGION_INDEX_AFU);

	/* A port without AFU says so with size 0 */
	port->afu_size = 0;
	KUNIT_ASSERT_EQ(test, fpga_port_region_info(port, &rinfo), 0);
	KUNIT_EXPECT_EQ(test, rinfo.size, 0);
}

static void port_region_not_on_a_page(struct kunit *test)
{
	struct fpga_port *port = port_with_afu(test, SZ_64K);
	struct dfl_fpga_port_region_info rinfo = {
		.argsz = sizeof(rinfo),
		.index = DFL_PORT_REGION_INDEX_AFU,
	};

	/* An AFU 1 KiB into a page: listed, but not offered for mmap */
	port->afu_start = 0x90000000 + SZ_1K;
	KUNIT_ASSERT_EQ(test, fpga_port_region_info(port, &rinfo), 0);
	KUNIT_EXPECT_EQ(test, rinfo.flags, DFL_PORT_REGION_READ |
			DFL_PORT_REGION_WRITE);
	KUNIT_EXPECT_EQ(test, rinfo.size, SZ_64K);

	port->afu_start = 0x90000000 + PAGE_SIZE;
	KUNIT_ASSERT_EQ(test, fpga_port_region_info(port, &rinfo), 0);
	KUNIT_EXPECT_EQ(test, rinfo.flags, DFL_PORT_REGION_READ |
			DFL_PORT_REGION_WRITE | DFL_PORT_REGION_MMAP);
}

static void port_region_info_invalid(struct kunit *test)
{
	struct fpga_port *port = port_with_afu(test, SZ_256K);
	struct dfl_fpga_port_region_info rinfo = {
		.argsz = sizeof(rinfo),
		.index = DFL_PORT_REGION_INDEX_AFU + 1,
	};

	KUNIT_EXPECT_EQ(test, fpga_port_region_info(port, &rinfo), -EINVAL);
	KUNIT_EXPECT_EQ(test, rinfo.size, 0);
	rinfo.index = DFL_PORT_REGION_INDEX_STP;
	KUNIT_EXPECT_EQ(test, fpga_port_region_info(port, &rinfo), -EINVAL);
	rinfo.index = U32_MAX;
	KUNIT_EXPECT_EQ(test, fpga_port_region_info(port, &rinfo), -EINVAL);
	rinfo.index = DFL_PORT_REGION_INDEX_AFU;
	rinfo.padding = 1;
	KUNIT_EXPECT_EQ(test, fpga_port_region_info(port, &rinfo), -EINVAL);
	KUNIT_EXPECT_EQ(test, rinfo.flags, 0);
}

static void port_region_fits(struct kunit *test)
{
	const u64 size = SZ_256K;

	KUNIT_EXPECT_TRUE(test, fpga_port_region_fits(size, 0, size));
	KUNIT_EXPECT_TRUE(test, fpga_port_region_fits(size, 0, PAGE_SIZE));
	KUNIT_EXPECT_TRUE(test, fpga_port_region_fits(size, size - PAGE_SIZE,
						      PAGE_SIZE));
	KUNIT_EXPECT_TRUE(test, fpga_port_region_fits(size, size - 1, 1));
	/* One byte past the end, starting at the end, or empty */
	KUNIT_EXPECT_FALSE(test, fpga_port_region_fits(size, 0, size + 1));
	KUNIT_EXPECT_FALSE(test, fpga_port_region_fits(size, size - PAGE_SIZE,
						       2 * PAGE_SIZE));
	KUNIT_EXPECT_FALSE(test, fpga_port_region_fits(size, size, 1));
	KUNIT_EXPECT_FALSE(test, fpga_port_region_fits(size, 0, 0));
	/* No region, nothing fits */
	KUNIT_EXPECT_FALSE(test, fpga_port_region_fits(0, 0, PAGE_SIZE));
}

static void port_region_fits_overflow(struct kunit *test)
{
	const u64 size = SZ_256K;

	/* offset + len wrapping around 2^64 must not look small */
	KUNIT_EXPECT_FALSE(test, fpga_port_region_fits(size, U64_MAX, 2));
	KUNIT_EXPECT_FALSE(test, fpga_port_region_fits(size, PAGE_SIZE,
						       U64_MAX));
	KUNIT_EXPECT_FALSE(test, fpga_port_region_fits(size, U64_MAX - PAGE_SIZE + 1,
						       PAGE_SIZE));
	KUNIT_EXPECT_FALSE(test, fpga_port_region_fits(size, 1ULL << 63,
						       1ULL << 63));
	/* A huge region, up to its last byte */
	KUNIT_EXPECT_TRUE(test, fpga_port_region_fits(U64_MAX, U64_MAX - 1, 1));
	KUNIT_EXPECT_FALSE(test, fpga_port_region_fits(U64_MAX, U64_MAX - 1, 2));
}

static struct kunit_case port_region_cases[] = {
	KUNIT_CASE(port_region_info),
	KUNIT_CASE(port_region_info_invalid),
	KUNIT_CASE(port_region_not_on_a_page),
	KUNIT_CASE(port_region_fits),
	KUNIT_CASE(port_region_fits_overflow),
	{}
};

static struct kunit_suite port_region_suite = {
	.name = "fpga_port_region",
	.test_cases = port_region_cases,
};

kunit_test_suite(port_region_suite);

MODULE_DESCRIPTION("KUnit suites of the port driver (fpga_port)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS("FPGA_SUITE_KUNIT");
