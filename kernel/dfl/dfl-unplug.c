// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one unplug guard of the suite, in the shape of DRM's drm_dev_enter(),
 * drm_dev_exit() and drm_dev_unplug(): every access to a card's registers
 * or to what a driver set up on them runs in a read section, entered only
 * while the guard is not unplugged; removal marks it unplugged and waits
 * for the sections already in.  The core guards each FIU (its netlink dump
 * reads registers), and each driver guards its own binding (fpga_port,
 * fpga_fme, uio_fpga).
 *
 * SRCU rather than a rwsem: a section may sleep, and file operations and
 * faults run in sections under mmap_lock while mmap takes mmap_lock too,
 * so a reader must never wait for a removal in progress.
 */
#include <linux/module.h>
#include <linux/poll.h>

#include <fpga-suite/dfl-core.h>

/**
 * __fpga_dfl_unplug_init() - a guard, not unplugged
 * @up: the guard
 * @name: its lock class's name, for lockdep
 * @key: its lock class, one per fpga_dfl_unplug_init() call site
 *
 * A class per call site, as init_srcu_struct() gives: the FME's guard
 * is held while a programming unplugs a port's, which lockdep (6.12's
 * synchronize_srcu()) would take for recursion if they shared one.
 *
 * Return: 0 or -ENOMEM.
 */
int __fpga_dfl_unplug_init(struct fpga_dfl_unplug *up, const char *name,
			   struct lock_class_key *key)
{
	up->gone = false;
	init_waitqueue_head(&up->gone_wait);
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	return __init_srcu_struct(&up->srcu, name, key);
#else
	return init_srcu_struct(&up->srcu);
#endif
}
EXPORT_SYMBOL_GPL(__fpga_dfl_unplug_init);

/**
 * fpga_dfl_unplug_cleanup() - free what fpga_dfl_unplug_init() set up
 * @up: the guard, with no section in (unplugged, or never entered)
 *
 * Context: process context; may sleep.
 */
void fpga_dfl_unplug_cleanup(struct fpga_dfl_unplug *up)
{
	cleanup_srcu_struct(&up->srcu);
}
EXPORT_SYMBOL_GPL(fpga_dfl_unplug_cleanup);

/**
 * fpga_dfl_unplug() - refuse new sections and wait for those in
 * @up: the guard
 *
 * When this returns, nothing runs in a section of @up and nothing will:
 * fpga_dfl_hw_enter() fails from now on.  Must not be called in a section.
 *
 * Context: process context; may sleep.
 */
void fpga_dfl_unplug(struct fpga_dfl_unplug *up)
{
	WRITE_ONCE(up->gone, true);
	synchronize_srcu(&up->srcu);
	wake_up_all(&up->gone_wait);
}
EXPORT_SYMBOL_GPL(fpga_dfl_unplug);

/**
 * fpga_dfl_unplug_poll() - a file's poll() mask from its device's guard
 * @up: the guard
 * @file: the file polled
 * @wait: the poll table
 *
 * A file of a device that went away (unplugged, programmed, its driver
 * unbound) polls EPOLLHUP | EPOLLERR, as a hung-up line does: a program
 * that waits on an eventfd of the device and on the file learns that no
 * interrupt will come.  Until then the file has no events of its own.
 *
 * Return: the mask.
 */
__poll_t fpga_dfl_unplug_poll(struct fpga_dfl_unplug *up, struct file *file,
			      poll_table *wait)
{
	poll_wait(file, &up->gone_wait, wait);
	return READ_ONCE(up->gone) ? EPOLLHUP | EPOLLERR : 0;
}
EXPORT_SYMBOL_GPL(fpga_dfl_unplug_poll);
