// SPDX-License-Identifier: GPL-2.0-only
/*
 * The port soft-reset handshake, shared by every driver that can own a
 * port (fpga_port, uio_fpga): set PORT_HDR_CTRL.SFTRST and wait for the
 * ACK to rise, clear it and wait for the ACK to fall.  Both waits are
 * bounded by the one reset_timeout_us; a card that never answers gives
 * -ETIMEDOUT and the register value in the log, never a hang.  A whole
 * reset is announced here, on the netlink group "events" and as
 * tracepoints, whichever driver and path asked for it.  Callers serialise
 * resets of a port.
 */
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/kmemleak.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include <fpga-suite/dfl-core.h>
#include <fpga-suite/dfl-enum.h>
#include "dfl-nl.h"
#include "dfl_trace.h"

#define FPGA_DFL_RESET_POLL_US	10
/* The wait holds the port's lock: bounded, and 0 would mean forever */
#define FPGA_DFL_RESET_TIMEOUT_MAX_US	10000000U

/**
 * fpga_dfl_timeout_us_set() - set a module parameter that bounds a wait
 * @val: what was written
 * @kp: the parameter, an unsigned int in microseconds
 * @max_us: the largest allowed; 0 is never allowed (it would mean forever)
 * @what: what the wait is for, in the message
 *
 * Return: 0, or -EINVAL (logged) for a value out of range.
 */
int fpga_dfl_timeout_us_set(const char *val, const struct kernel_param *kp,
			    unsigned int max_us, const char *what)
{
	unsigned int us;
	int ret;

	ret = kstrtouint(val, 0, &us);
	if (ret)
		return ret;
	if (!us || us > max_us) {
		pr_err("%s.%s: %u: the %s timeout is 1 to %u us\n",
		       kp->mod ? kp->mod->name : "fpga_dfl", kp->name, us,
		       what, max_us);
		return -EINVAL;
	}
	WRITE_ONCE(*(unsigned int *)kp->arg, us);
	return 0;
}
EXPORT_SYMBOL_GPL(fpga_dfl_timeout_us_set);

static int fpga_dfl_reset_timeout_set(const char *val,
				      const struct kernel_param *kp)
{
	return fpga_dfl_timeout_us_set(val, kp, FPGA_DFL_RESET_TIMEOUT_MAX_US,
				       "soft-reset");
}

/*
 * reset_timeout_us, microseconds per edge of the ACK, 1 us to 10 s: this
 * module's parameter, and the one behind fpga_port's and uio_fpga's
 * parameters of that name (aliases, which set and show this value)
 */
const struct kernel_param_ops fpga_dfl_reset_timeout_ops = {
	.set = fpga_dfl_reset_timeout_set,
	.get = param_get_uint,
};
EXPORT_SYMBOL_GPL(fpga_dfl_reset_timeout_ops);

/*
 * Generous: removal resets the port to stop the AFU before its DMA buffers
 * go, and a simulated card under a loaded emulator can take several
 * milliseconds to answer
 */
unsigned int fpga_dfl_reset_timeout_us = 100000;
EXPORT_SYMBOL_GPL(fpga_dfl_reset_timeout_us);
module_param_cb(reset_timeout_us, &fpga_dfl_reset_timeout_ops,
		&fpga_dfl_reset_timeout_us, 0644);
__MODULE_PARM_TYPE(reset_timeout_us, "uint");
MODULE_PARM_DESC(reset_timeout_us,
		 "How long to wait for each edge of the soft-reset ACK, 1 us to 10 s (default 100000)");

/**
 * fpga_dfl_port_hdr_sftrst() - set or clear a port's soft reset, wait for
 * the ACK to follow
 * @hdr: the port header
 * @dev: for messages
 * @reset: true to put the port in reset, false to take it out
 *
 * By the header's address: programming also takes a port whose device did
 * not come back out of reset (dfl-program.c).  CTRL is read fresh: the ACK
 * bit is the card's, never a stale copy.
 *
 * Return: 0 or -ETIMEDOUT.
 */
int fpga_dfl_port_hdr_sftrst(void __iomem *hdr, struct device *dev,
			     bool reset)
{
	unsigned int timeout_us = READ_ONCE(fpga_dfl_reset_timeout_us);
	u64 v = readq(hdr + PORT_HDR_CTRL);
	int ret;

	v = reset ? v | PORT_CTRL_SFTRST : v & ~PORT_CTRL_SFTRST;
	writeq(v, hdr + PORT_HDR_CTRL);
	ret = readq_poll_timeout(hdr + PORT_HDR_CTRL, v,
				 !!(v & PORT_CTRL_SFTRST_ACK) == reset,
				 FPGA_DFL_RESET_POLL_US, timeout_us);
	if (ret)
		dev_err(dev,
			"%s: soft-reset ACK did not %s within %u us (PORT_HDR_CTRL %#llx)\n",
			reset ? "reset" : "enable", reset ? "rise" : "fall",
			timeout_us, v);
	return ret;
}

/**
 * fpga_dfl_port_disable() - put a port in soft reset and wait for the ACK
 * @fdev: the port
 *
 * Return: 0 or -ETIMEDOUT.
 */
int fpga_dfl_port_disable(struct fpga_dfl_device *fdev)
{
	return fpga_dfl_port_hdr_sftrst(fdev->hdr.ioaddr, &fdev->dev, true);
}
EXPORT_SYMBOL_GPL(fpga_dfl_port_disable);

/**
 * fpga_dfl_port_enable() - take a port out of soft reset, wait for the ACK
 * @fdev: the port
 *
 * Return: 0 or -ETIMEDOUT.
 */
int fpga_dfl_port_enable(struct fpga_dfl_device *fdev)
{
	return fpga_dfl_port_hdr_sftrst(fdev->hdr.ioaddr, &fdev->dev, false);
}
EXPORT_SYMBOL_GPL(fpga_dfl_port_enable);

/**
 * fpga_dfl_port_reset() - soft-reset a port and its AFU
 * @fdev: the port; the caller serialises resets of it
 *
 * Every reset goes through here, whoever asks (an ioctl, either driver's
 * sysfs reset, netlink PORT_RESET through the bound driver, a last close,
 * a removal), so that each is announced the same way: EVENT_RESET_BEGIN
 * and EVENT_RESET_END with the result on the netlink group "events", and
 * the tracepoints fpga:port_reset_begin and fpga:port_reset_end.  The port
 * leaves reset even when the first ACK never came, so that a failed reset
 * does not wedge it.  Once the AFU has acknowledged, the DMA that drivers
 * abandoned on the port (fpga_dfl_port_abandon()) is released.
 *
 * Context: process context; may sleep.
 * Return: 0 or -ETIMEDOUT.
 */
int fpga_dfl_port_reset(struct fpga_dfl_device *fdev)
{
	u64 start = ktime_get_ns();
	int ret, ret2;

	fpga_dfl_nl_notify_reset(fdev, true, 0);
	trace_port_reset_begin(fdev);
	ret = fpga_dfl_port_disable(fdev);
	/* The AFU acknowledged: it is stopped, what it was left can go */
	if (!ret && fdev->card)
		fpga_dfl_port_release_abandoned(fdev->card, fdev->port_num,
						"reset");
	ret2 = fpga_dfl_port_enable(fdev);
	ret = ret ?: ret2;
	trace_port_reset_end(fdev, ret, start);
	fpga_dfl_nl_notify_reset(fdev, false, ret);
	return ret;
}
EXPORT_SYMBOL_GPL(fpga_dfl_port_reset);

/*
 * The sysfs attribute "reset" of a port, which the driver that owns the
 * port lists in its dev_groups: writing a true value resets the port
 * through that driver's reset callback, as netlink PORT_RESET does.  The
 * driver core removes dev_groups before the driver's remove(), and waits
 * for a store in progress, so the driver stays bound meanwhile.
 */
static ssize_t reset_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct fpga_dfl_driver *drv = to_fpga_dfl_driver(dev->driver);
	bool val;
	int ret;

	ret = kstrtobool(buf, &val);
	if (ret)
		return ret;
	if (!val)
		return -EINVAL;
	if (!drv->reset)
		return -EOPNOTSUPP;
	ret = drv->reset(to_fpga_dfl_device(dev));
	return ret ? ret : count;
}

struct device_attribute fpga_dfl_dev_attr_reset = __ATTR_WO(reset);
EXPORT_SYMBOL_GPL(fpga_dfl_dev_attr_reset);

/*
 * DMA abandoned to an AFU that did not stop.  A driver that cannot stop
 * the AFU when it lets go of a port (its removal, a programming) leaves
 * the mappings in the port's DMA domain rather than free memory under a
 * running engine.  That domain is the card's and outlives the port's
 * device and driver, so the next user of the port could point the AFU at
 * the old, predictable addresses and reach the last user's pages.  The
 * core, which sees every driver of a port and every reset, keeps them per
 * card and port number: no driver gives the port a new user while there
 * are any (fpga_dfl_port_check_abandoned()), and the first reset the AFU
 * acknowledges, through any driver or path, or the PR that replaces it,
 * releases them.  Removing the card releases them too, on a card whose
 * DMA an IOMMU translates (unmapping cuts a running engine off); on one
 * without, they stay for good.
 */

/*
 * The abandoned DMA of port @port_num (the FME's number for it) is kept
 * by the port's place on the card: a number may exceed the places on an
 * odd card (pr.md, "Port numbers"), a registered port always has one
 */
static struct list_head *fpga_dfl_abandoned_of(struct fpga_dfl_card *card,
					       unsigned int port_num)
{
	int i = fpga_dfl_port_index(card, port_num);

	return i < 0 ? NULL : &card->abandoned[i];
}

/**
 * fpga_dfl_port_abandon() - leave DMA mapped for an AFU that did not stop
 * @fdev: the port, whose reset was not acknowledged
 * @ab: what stays; @ab->owner is held for the core
 *
 * Context: process context; the port's driver is letting go of it.
 */
void fpga_dfl_port_abandon(struct fpga_dfl_device *fdev,
			   struct fpga_dfl_abandoned *ab)
{
	struct fpga_dfl_card *card = fdev->card;
	struct list_head *list = fpga_dfl_abandoned_of(card, fdev->port_num);

	/* Never a port without a place: forgotten, as on removal, not freed */
	if (WARN_ON_ONCE(!list)) {
		kmemleak_not_leak(ab);
		module_put(ab->owner);
		return;
	}
	mutex_lock(&card->abandon_lock);
	list_add_tail(&ab->node, list);
	mutex_unlock(&card->abandon_lock);
}
EXPORT_SYMBOL_GPL(fpga_dfl_port_abandon);

struct fpga_dfl_abandoned_coherent {
	struct fpga_dfl_abandoned ab;
	struct device *dma_dev;
	size_t size;
	void *cpu_addr;
	dma_addr_t dma_addr;
};

static void fpga_dfl_abandoned_coherent_release(struct fpga_dfl_abandoned *ab)
{
	struct fpga_dfl_abandoned_coherent *c =
		container_of(ab, struct fpga_dfl_abandoned_coherent, ab);

	dma_free_coherent(c->dma_dev, c->size, c->cpu_addr, c->dma_addr);
	kfree(c);
}

/**
 * fpga_dfl_port_abandon_coherent() - leave a coherent buffer to the AFU
 * @fdev: the port, whose reset was not acknowledged
 * @size: the buffer, from dma_alloc_coherent() on @fdev->dma_dev
 * @cpu_addr: its kernel address
 * @dma_addr: its device address
 *
 * Freed by the core, so the driver that allocated it may be unloaded.
 */
void fpga_dfl_port_abandon_coherent(struct fpga_dfl_device *fdev, size_t size,
				    void *cpu_addr, dma_addr_t dma_addr)
{
	struct fpga_dfl_abandoned_coherent *c;

	/* A few bytes; failing would leave the buffer reachable */
	c = kzalloc(sizeof(*c), GFP_KERNEL | __GFP_NOFAIL);
	c->ab.release = fpga_dfl_abandoned_coherent_release;
	c->dma_dev = fdev->dma_dev;
	c->size = size;
	c->cpu_addr = cpu_addr;
	c->dma_addr = dma_addr;
	fpga_dfl_port_abandon(fdev, &c->ab);
}
EXPORT_SYMBOL_GPL(fpga_dfl_port_abandon_coherent);

/**
 * fpga_dfl_port_has_abandoned() - whether a port's place keeps abandoned DMA
 * @card: the card
 * @port_num: the port's number on it
 *
 * For a port with no device (released): SR-IOV gives it no VF meanwhile.
 */
bool fpga_dfl_port_has_abandoned(struct fpga_dfl_card *card,
				 unsigned int port_num)
{
	struct list_head *list = fpga_dfl_abandoned_of(card, port_num);
	bool busy;

	if (!list)
		return false;
	mutex_lock(&card->abandon_lock);
	busy = !list_empty(list);
	mutex_unlock(&card->abandon_lock);
	return busy;
}

/**
 * fpga_dfl_port_check_abandoned() - may the port take a new user?
 * @fdev: the port, bound
 *
 * For a driver's open: not while DMA of an earlier user is still mapped
 * for an AFU that did not stop.  Says why, and how root clears it.
 *
 * Return: 0, or -EBUSY.
 */
int fpga_dfl_port_check_abandoned(struct fpga_dfl_device *fdev)
{
	if (!fpga_dfl_port_has_abandoned(fdev->card, fdev->port_num))
		return 0;
	dev_warn_ratelimited(&fdev->dev,
			     "refused: an earlier user's DMA is still mapped for an AFU that did not stop; a reset of the port that succeeds releases it (write 1 to its reset, fpgactl reset, or program the port)\n");
	return -EBUSY;
}
EXPORT_SYMBOL_GPL(fpga_dfl_port_check_abandoned);

/* Run and forget the entries of @list; the caller holds abandon_lock */
static unsigned long fpga_dfl_abandoned_release(struct list_head *list)
{
	struct fpga_dfl_abandoned *ab, *next;
	unsigned long n = 0;

	list_for_each_entry_safe(ab, next, list, node) {
		struct module *owner = ab->owner;

		list_del(&ab->node);
		ab->release(ab);
		module_put(owner);
		n++;
	}
	return n;
}

/* Release what port place @i's AFU was left; it stopped */
static void fpga_dfl_place_release_abandoned(struct fpga_dfl_card *card,
					     unsigned int i, const char *why)
{
	unsigned long count;

	mutex_lock(&card->abandon_lock);
	count = fpga_dfl_abandoned_release(&card->abandoned[i]);
	mutex_unlock(&card->abandon_lock);
	if (count)
		dev_info(card->info.parent,
			 "port %u: %s: the DMA abandoned to its AFU is released\n",
			 card->port_num[i], why);
}

/**
 * fpga_dfl_port_release_abandoned() - the AFU stopped: release its DMA
 * @card: the card
 * @port_num: the port's number on it (the FME's)
 * @why: for the message
 *
 * Held under abandon_lock, so that the port stays refused until the
 * mappings are gone.
 */
void fpga_dfl_port_release_abandoned(struct fpga_dfl_card *card,
				     unsigned int port_num, const char *why)
{
	int i = fpga_dfl_port_index(card, port_num);

	if (i >= 0)
		fpga_dfl_place_release_abandoned(card, i, why);
}

/**
 * fpga_dfl_card_release_abandoned() - the card goes: what its ports kept
 * @card: the card, its FIUs unregistered
 */
void fpga_dfl_card_release_abandoned(struct fpga_dfl_card *card)
{
	struct fpga_dfl_abandoned *ab, *next;
	unsigned int n;

	for (n = 0; n < FME_MAX_PORTS; n++) {
		if (card->info.dma_isolation != FPGA_DFL_DMA_UNTRANSLATED) {
			fpga_dfl_place_release_abandoned(card, n,
							 "card removed");
			continue;
		}
		/* Physical addresses: a running AFU still reaches them */
		mutex_lock(&card->abandon_lock);
		list_for_each_entry_safe(ab, next, &card->abandoned[n], node) {
			list_del(&ab->node);
			kmemleak_not_leak(ab);
			module_put(ab->owner);
		}
		mutex_unlock(&card->abandon_lock);
	}
}
