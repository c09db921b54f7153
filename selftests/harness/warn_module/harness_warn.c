// SPDX-License-Identifier: GPL-2.0-only
/*
 * harness_warn: WARNs once when loaded.  Built only for the VM harness's
 * self-check, never installed by DKMS.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init harness_warn_init(void)
{
	WARN(1, "harness_warn: deliberate warning for the harness self-check\n");
	return 0;
}

static void __exit harness_warn_exit(void)
{
}

module_init(harness_warn_init);
module_exit(harness_warn_exit);

MODULE_DESCRIPTION("Deliberate WARN for the test harness self-check");
MODULE_LICENSE("GPL");
