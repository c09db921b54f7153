// SPDX-License-Identifier: GPL-2.0-only
/*
 * Feature interrupts delivered to eventfds, with the semantics of
 * upstream's DFL_FPGA_*_SET_IRQ ioctls: bind a range of a feature's
 * vectors to eventfds, an fd < 0 unbinds.  Used by the port (error and
 * user interrupts) and FME (error) drivers.
 *
 * Unlike upstream, the driver owns its interrupts from probe to remove,
 * not only while an eventfd is bound: netlink announces errors and
 * interrupt counts whether or not anybody opened the device.
 */
#include <linux/eventfd.h>
#include <linux/fpga-dfl.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "fpga-compat.h"
#include <fpga-suite/dfl-core.h>
#include "dfl-nl.h"
#include "dfl_trace.h"

/* Interrupt counts reach netlink at most this often (rate limit) */
#define FPGA_DFL_NL_IRQ_PERIOD	(HZ / 10)

/* Signal the bound eventfd @n times and count them for netlink */
static void fpga_dfl_irq_deliver(struct fpga_dfl_irq *dirq, unsigned int n)
{
	unsigned long flags;
	unsigned int i;

	if (!n)
		return;
	spin_lock_irqsave(&dirq->trigger_lock, flags);
	for (i = 0; dirq->trigger && i < n; i++) {
		trace_irq_deliver(dirq);
		fpga_eventfd_signal(dirq->trigger);
	}
	if (i && dirq->delivered)
		atomic64_add(i, dirq->delivered);
	spin_unlock_irqrestore(&dirq->trigger_lock, flags);
	/*
	 * Count for netlink; a work already pending takes these too, so an
	 * interrupt storm costs one event per period, not one per irq.
	 */
	atomic_add(n, &dirq->nl_count);
	schedule_delayed_work(&dirq->owner->nl_work, FPGA_DFL_NL_IRQ_PERIOD);
}

/*
 * Runs in hard-irq context on every kernel (IRQF_NO_THREAD), so that each
 * interrupt is counted: under PREEMPT_RT a handler forced into a thread
 * runs once for all the interrupts that arrive while its thread is busy.
 * There eventfd_signal()'s lock sleeps, so the thread delivers what was
 * counted; elsewhere the interrupt is delivered at once.
 */
static irqreturn_t fpga_dfl_irq_handler(int irq, void *data)
{
	struct fpga_dfl_irq *dirq = data;

	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		atomic_inc(&dirq->undelivered);
		return IRQ_WAKE_THREAD;
	}
	fpga_dfl_irq_deliver(dirq, 1);
	return IRQ_HANDLED;
}

static irqreturn_t fpga_dfl_irq_thread(int irq, void *data)
{
	struct fpga_dfl_irq *dirq = data;

	fpga_dfl_irq_deliver(dirq, atomic_xchg(&dirq->undelivered, 0));
	return IRQ_HANDLED;
}

/**
 * fpga_dfl_irqs_init() - prepare the interrupts of a feature for eventfds
 * @irqs: to fill in
 * @fdev: the FME or port
 * @feature_id: the private feature
 * @what: short name for /proc/interrupts ("err", "uint")
 *
 * Requests each interrupt of the feature (shared: the port's DMA fences
 * listen on the user interrupts too); fpga_dfl_irqs_free() releases them.
 * A FIU without the feature gets @irqs->present false: its ioctls are
 * then answered with -EINVAL, as upstream does for a missing feature.
 *
 * Return: 0 or a negative errno (nothing left to free then).
 */
int fpga_dfl_irqs_init(struct fpga_dfl_irqs *irqs, struct fpga_dfl_device *fdev,
		       u16 feature_id, const char *what)
{
	struct fpga_dfl_feature *feat;
	struct fpga_dfl_irq *dirq;
	unsigned int i;
	int ret;

	memset(irqs, 0, sizeof(*irqs));
	mutex_init(&irqs->lock);
	irqs->fdev = fdev;
	irqs->feature_id = feature_id;
	INIT_DELAYED_WORK(&irqs->nl_work, fpga_dfl_nl_irq_work);
	feat = fpga_dfl_find_feature(fdev, feature_id);
	if (!feat)
		return 0;
	irqs->present = true;
	if (!feat->irq_count)
		return 0;
	irqs->irqs = kcalloc(feat->irq_count, sizeof(*irqs->irqs), GFP_KERNEL);
	if (!irqs->irqs)
		return -ENOMEM;
	for (i = 0; i < feat->irq_count; i++) {
		dirq = &irqs->irqs[i];
		dirq->irq = feat->irqs[i];
		dirq->owner = irqs;
		spin_lock_init(&dirq->trigger_lock);
		snprintf(dirq->name, sizeof(dirq->name), "%s-%s%u",
			 dev_name(&fdev->dev), what, i);
		ret = request_threaded_irq(dirq->irq, fpga_dfl_irq_handler,
					   fpga_dfl_irq_thread,
					   IRQF_SHARED | IRQF_NO_THREAD,
					   dirq->name, dirq);
		if (ret) {
			dev_err(&fdev->dev, "cannot request irq %d (%s): %d\n",
				dirq->irq, dirq->name, ret);
			irqs->count = i;
			fpga_dfl_irqs_free(irqs);
			return ret;
		}
	}
	irqs->count = feat->irq_count;
	return 0;
}
EXPORT_SYMBOL_GPL(fpga_dfl_irqs_init);

/*
 * Swap the eventfd the handler signals (and whose count it adds to); the
 * old one is returned to put
 */
static struct eventfd_ctx *fpga_dfl_irq_set_trigger(struct fpga_dfl_irq *dirq,
						    struct eventfd_ctx *trigger,
						    atomic64_t *delivered)
{
	struct eventfd_ctx *old;

	spin_lock_irq(&dirq->trigger_lock);
	old = dirq->trigger;
	dirq->trigger = trigger;
	dirq->delivered = trigger ? delivered : NULL;
	spin_unlock_irq(&dirq->trigger_lock);
	return old;
}

static void fpga_dfl_irq_unbind(struct fpga_dfl_irq *dirq)
{
	struct eventfd_ctx *old = fpga_dfl_irq_set_trigger(dirq, NULL, NULL);

	if (old)
		eventfd_ctx_put(old);
}

static int fpga_dfl_irq_bind(struct fpga_dfl_irq *dirq, int fd,
			     atomic64_t *delivered)
{
	struct eventfd_ctx *trigger = NULL, *old;

	if (fd >= 0) {
		trigger = eventfd_ctx_fdget(fd);
		if (IS_ERR(trigger))
			return PTR_ERR(trigger);
	}
	old = fpga_dfl_irq_set_trigger(dirq, trigger, delivered);
	if (old)
		eventfd_ctx_put(old);
	return 0;
}

/* DFL_FPGA_*_GET_IRQ_NUM */
long fpga_dfl_ioctl_irq_num(const struct fpga_dfl_irqs *irqs, void __user *arg)
{
	if (!irqs->present)
		return -EINVAL;
	return put_user(irqs->count, (__u32 __user *)arg);
}
EXPORT_SYMBOL_GPL(fpga_dfl_ioctl_irq_num);

/**
 * fpga_dfl_irq_set_copy() - copy a DFL_FPGA_*_SET_IRQ argument in
 * @irqs: the feature's interrupts (for the range check)
 * @arg: the user's struct dfl_fpga_irq_set and its eventfds
 * @set: the copy; release with fpga_dfl_irq_set_free()
 *
 * Before the caller's unplug section: a fault on user memory must not
 * hold up remove().
 *
 * Return: 0, -EINVAL (no such feature, empty or out-of-range vectors),
 * -ENOENT (the feature has no vectors), -EFAULT or -ENOMEM.
 */
int fpga_dfl_irq_set_copy(const struct fpga_dfl_irqs *irqs, void __user *arg,
			  struct fpga_dfl_irq_set *set)
{
	struct dfl_fpga_irq_set hdr;
	unsigned int end;

	if (!irqs->present)
		return -EINVAL;
	if (!irqs->count)
		return -ENOENT;
	if (copy_from_user(&hdr, arg, sizeof(hdr)))
		return -EFAULT;
	if (!hdr.count || check_add_overflow(hdr.start, hdr.count, &end) ||
	    end > irqs->count)
		return -EINVAL;
	set->fds = memdup_user(arg + sizeof(hdr),
			       array_size(hdr.count, sizeof(*set->fds)));
	if (IS_ERR(set->fds))
		return PTR_ERR(set->fds);
	set->start = hdr.start;
	set->count = hdr.count;
	set->delivered = NULL;
	return 0;
}
EXPORT_SYMBOL_GPL(fpga_dfl_irq_set_copy);

void fpga_dfl_irq_set_free(struct fpga_dfl_irq_set *set)
{
	kfree(set->fds);
	set->fds = NULL;
}
EXPORT_SYMBOL_GPL(fpga_dfl_irq_set_free);

/**
 * fpga_dfl_irqs_bind() - bind (or unbind, fd < 0) the copied eventfds
 * @irqs: the feature's interrupts
 * @set: from fpga_dfl_irq_set_copy()
 *
 * On failure what this call bound is unbound again, as upstream does.
 *
 * Return: 0, or the first eventfd's error (-EBADF, -EINVAL).
 */
int fpga_dfl_irqs_bind(struct fpga_dfl_irqs *irqs,
		       const struct fpga_dfl_irq_set *set)
{
	unsigned int i;
	int ret = 0;

	mutex_lock(&irqs->lock);
	for (i = 0; i < set->count; i++) {
		ret = fpga_dfl_irq_bind(&irqs->irqs[set->start + i],
					set->fds[i], set->delivered);
		if (ret)
			break;
	}
	if (ret)
		while (i--)
			fpga_dfl_irq_unbind(&irqs->irqs[set->start + i]);
	mutex_unlock(&irqs->lock);
	return ret;
}
EXPORT_SYMBOL_GPL(fpga_dfl_irqs_bind);

/**
 * fpga_dfl_irqs_forget() - stop counting for a file that goes
 * @irqs: the feature's interrupts
 * @delivered: the file's count, as given to fpga_dfl_irqs_bind()
 *
 * Its eventfds stay bound (upstream's semantics: until the last close);
 * what they get from now on is counted for nobody.
 */
void fpga_dfl_irqs_forget(struct fpga_dfl_irqs *irqs, atomic64_t *delivered)
{
	struct fpga_dfl_irq *dirq;
	unsigned int i;

	mutex_lock(&irqs->lock);
	for (i = 0; i < irqs->count; i++) {
		dirq = &irqs->irqs[i];
		spin_lock_irq(&dirq->trigger_lock);
		if (dirq->delivered == delivered)
			dirq->delivered = NULL;
		spin_unlock_irq(&dirq->trigger_lock);
	}
	mutex_unlock(&irqs->lock);
}
EXPORT_SYMBOL_GPL(fpga_dfl_irqs_forget);

/**
 * fpga_dfl_irqs_unbind_all() - unbind every eventfd of a feature
 * @irqs: the feature's interrupts
 */
void fpga_dfl_irqs_unbind_all(struct fpga_dfl_irqs *irqs)
{
	unsigned int i;

	mutex_lock(&irqs->lock);
	for (i = 0; i < irqs->count; i++)
		fpga_dfl_irq_unbind(&irqs->irqs[i]);
	mutex_unlock(&irqs->lock);
}
EXPORT_SYMBOL_GPL(fpga_dfl_irqs_unbind_all);

/**
 * fpga_dfl_irqs_free() - release the interrupts, unbind and free (remove)
 * @irqs: the feature's interrupts
 */
void fpga_dfl_irqs_free(struct fpga_dfl_irqs *irqs)
{
	unsigned int i;

	for (i = 0; i < irqs->count; i++)
		free_irq(irqs->irqs[i].irq, &irqs->irqs[i]);
	fpga_dfl_irqs_unbind_all(irqs);
	/* No handler can queue it again; the work reads registers: now */
	cancel_delayed_work_sync(&irqs->nl_work);
	/* Under the lock: a file may be closing (fpga_dfl_irqs_forget()) */
	mutex_lock(&irqs->lock);
	kfree(irqs->irqs);
	irqs->irqs = NULL;
	irqs->count = 0;
	mutex_unlock(&irqs->lock);
}
EXPORT_SYMBOL_GPL(fpga_dfl_irqs_free);
