// SPDX-License-Identifier: GPL-2.0-only
/*
 * A deliberately buggy module: "make check-debug" loads it with bug=kasan,
 * bug=lockdep or bug=kmemleak, one per VM, and asserts that the host fails
 * the run because the matching sanitizer reported the bug.  It proves that
 * the debug kernel's sanitizers are on and that their reports are caught.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *bug = "";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "which bug to commit: kasan, lockdep or kmemleak");

static DEFINE_MUTEX(lock_a);
static DEFINE_MUTEX(lock_b);

/* Read one byte past a 16-byte allocation: slab-out-of-bounds. */
static void commit_out_of_bounds(void)
{
	char *buf = kmalloc(16, GFP_KERNEL);
	size_t index = 16;

	if (!buf)
		return;
	/* Hide the index from the compiler's own bounds checks. */
	OPTIMIZER_HIDE_VAR(index);
	pr_info("harness_sanitize: byte past the end: %d\n", buf[index]);
	kfree(buf);
}

/* Take two locks in both orders (never concurrently): lockdep must see
 * the inversion without a deadlock happening.
 */
static void commit_lock_inversion(void)
{
	mutex_lock(&lock_a);
	mutex_lock(&lock_b);
	mutex_unlock(&lock_b);
	mutex_unlock(&lock_a);

	mutex_lock(&lock_b);
	mutex_lock(&lock_a);
	mutex_unlock(&lock_a);
	mutex_unlock(&lock_b);
}

/* Allocate and forget: no reference survives the function. */
static noinline void commit_leak(void)
{
	char *buf = kmalloc(512, GFP_KERNEL);

	if (buf)
		memset(buf, 0x5a, 512);
	OPTIMIZER_HIDE_VAR(buf);
}

static int __init harness_sanitize_init(void)
{
	if (!strcmp(bug, "kasan"))
		commit_out_of_bounds();
	else if (!strcmp(bug, "lockdep"))
		commit_lock_inversion();
	else if (!strcmp(bug, "kmemleak"))
		commit_leak();
	else
		return -EINVAL;
	return 0;
}

static void __exit harness_sanitize_exit(void)
{
}

module_init(harness_sanitize_init);
module_exit(harness_sanitize_exit);
MODULE_DESCRIPTION("Deliberate KASAN, lockdep and kmemleak bugs for the test harness");
MODULE_LICENSE("GPL");
