// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_region_squatter: registers a class named "fpga_region" and nothing
 * else, as another FPGA stack's fpga_region module (built out of tree for
 * a kernel without CONFIG_FPGA_REGION) would.  For dfl_collision_test.sh:
 * fpga_dfl loaded after it must say so and go on with its own names only.
 * Built only for the tests, never installed by DKMS.
 */
#include <linux/device.h>
#include <linux/module.h>

static struct class fpga_region_squatter_class = {
	.name	= "fpga_region",
};

static int __init fpga_region_squatter_init(void)
{
	return class_register(&fpga_region_squatter_class);
}

static void __exit fpga_region_squatter_exit(void)
{
	class_unregister(&fpga_region_squatter_class);
}

module_init(fpga_region_squatter_init);
module_exit(fpga_region_squatter_exit);

MODULE_DESCRIPTION("A class named fpga_region, for the suite's collision test");
MODULE_LICENSE("GPL");
