// SPDX-License-Identifier: GPL-2.0-only
/*
 * dfl_bus_squatter: registers a bus named "dfl" and nothing else, as the
 * upstream DFL drivers' module dfl does (built out of tree, or on a kernel
 * with CONFIG_FPGA_DFL).  For dfl_collision_test.sh: fpga_dfl loaded
 * after it must leave the upstream names to that stack and say so.  Built
 * only for the tests, never installed by DKMS.
 */
#include <linux/device.h>
#include <linux/module.h>

static struct bus_type dfl_bus_squatter = {
	.name	= "dfl",
};

static int __init dfl_bus_squatter_init(void)
{
	return bus_register(&dfl_bus_squatter);
}

static void __exit dfl_bus_squatter_exit(void)
{
	bus_unregister(&dfl_bus_squatter);
}

module_init(dfl_bus_squatter_init);
module_exit(dfl_bus_squatter_exit);

MODULE_DESCRIPTION("A bus named dfl, for the suite's collision test");
MODULE_LICENSE("GPL");
