// SPDX-License-Identifier: GPL-2.0-only
/*
 * DMA completion fences (FPGA_PORT_DMABUF_FENCE of <linux/fpga-suite.h>):
 * a dma_fence on a mapped dma-buf's reservation object, signalled by the
 * next user interrupt on a chosen vector (the NLB0 raises vector 0 when a
 * run completes), so that user space can poll() the dma-buf instead of
 * spinning on the DSM.
 *
 * Nothing waits forever: a fence signals with -ETIMEDOUT when its timer
 * fires, with -ECANCELED when the file that armed it is closed, and with
 * -ENODEV when the port is removed.
 *
 * References: port->fences.pending holds one on each armed fence; the
 * reservation object holds its own.  The interrupt handler and the timer
 * only signal (atomic context) and queue the reap work, which stops the
 * timer and drops the list's reference in process context.
 *
 * The handler shares the interrupt with the eventfd of
 * DFL_FPGA_PORT_UINT_SET_IRQ (both request it IRQF_SHARED), so a program
 * can use both at once.
 */
#include <linux/dma-buf.h>
#include <linux/dma-fence.h>
#include <linux/dma-resv.h>
#include <linux/fpga-suite.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/uaccess.h>

#include "fpga-compat.h"
#include "port.h"
#include "port_trace.h"

MODULE_IMPORT_NS("DMA_BUF");

#define FPGA_PORT_FENCE_DEFAULT_MS	10000
#define FPGA_PORT_FENCE_MAX_MS		60000

/*
 * Pending fences a file may have, and a port: read fences do not exclude
 * each other, and the interrupt handler walks the port's list
 */
#define FPGA_PORT_FENCES_PER_FILE	64
#define FPGA_PORT_FENCES_PER_PORT	1024

/**
 * struct fpga_port_fence - a fence armed on a dma-buf
 * @base:	the fence; first, the core frees it with kfree_rcu()
 * @lock:	the fence's lock (dma_fence.lock)
 * @node:	entry in port->fences.pending, until reaped
 * @timer:	signals the fence with -ETIMEDOUT
 * @port:	the port; the fence is reaped before the port can go
 * @pf:		the file that armed it; followed only under the fences' lock
 *		while the fence is pending (its file's release reaps it)
 * @vector:	the user interrupt that signals it
 */
struct fpga_port_fence {
	struct dma_fence base;
	spinlock_t lock;	/* dma_fence state */
	struct list_head node;
	struct timer_list timer;
	struct fpga_port *port;
	struct fpga_port_file *pf;
	unsigned int vector;
};

static const char *fpga_port_fence_driver_name(struct dma_fence *fence)
{
	return "fpga_port";
}

static const char *fpga_port_fence_timeline_name(struct dma_fence *fence)
{
	return "afu-dma";
}

/*
 * A fence can outlive the port and every file (the dma-buf's owner keeps
 * it), so each holds a reference on this module for its ops.
 */
static void fpga_port_fence_release(struct dma_fence *fence)
{
	dma_fence_free(fence);
	module_put(THIS_MODULE);
}

static const struct dma_fence_ops fpga_port_fence_ops = {
	.get_driver_name	= fpga_port_fence_driver_name,
	.get_timeline_name	= fpga_port_fence_timeline_name,
	.release		= fpga_port_fence_release,
};

/* Signal with @error (0: success) unless signalled already; any context */
static void fpga_port_fence_signal(struct fpga_port_fence *pfence, int error)
{
	unsigned long flags;

	spin_lock_irqsave(&pfence->lock, flags);
	if (!test_bit(DMA_FENCE_FLAG_SIGNALED_BIT, &pfence->base.flags)) {
		if (error)
			dma_fence_set_error(&pfence->base, error);
		dma_fence_signal_locked(&pfence->base);
	}
	spin_unlock_irqrestore(&pfence->lock, flags);
}

static void fpga_port_fence_timeout(struct timer_list *t)
{
	struct fpga_port_fence *pfence = timer_container_of(pfence, t, timer);

	fpga_port_fence_signal(pfence, -ETIMEDOUT);
	schedule_work(&pfence->port->fences.reap);
}

static irqreturn_t fpga_port_fence_irq_handler(int irq, void *data)
{
	struct fpga_port_fence_irq *firq = data;
	struct fpga_port_fences *fences = &firq->port->fences;
	struct fpga_port_fence *pfence;
	bool signalled = false;

	/* Before any fence signals: its waiter then runs after this event */
	trace_fence_irq(firq->port, firq->vector);
	spin_lock(&fences->lock);
	list_for_each_entry(pfence, &fences->pending, node) {
		if (pfence->vector != firq->vector)
			continue;
		fpga_port_fence_signal(pfence, 0);
		signalled = true;
	}
	spin_unlock(&fences->lock);
	if (signalled)
		schedule_work(&fences->reap);
	/*
	 * The vector is the AFU's own and edge-like: an interrupt nobody
	 * armed a fence for is still ours (the eventfd sharing it may want
	 * it), never a stuck line, so do not report it unhandled.
	 */
	return IRQ_HANDLED;
}

/*
 * The hard-irq half.  The vector is shared with fpga_dfl's eventfd handler,
 * which runs in hard-irq context (IRQF_NO_THREAD) to count each interrupt,
 * and a shared line cannot mix that with a handler forced into a thread
 * (those are oneshot); so this one is threaded explicitly, and only under
 * PREEMPT_RT, where the fence locks sleep.
 */
static irqreturn_t fpga_port_fence_irq_hardirq(int irq, void *data)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return IRQ_WAKE_THREAD;
	return fpga_port_fence_irq_handler(irq, data);
}

/* Take a pending slot for @pf: 0, or -ENOSPC past either cap */
static int fpga_port_fence_slot_get(struct fpga_port_fences *fences,
				    struct fpga_port_file *pf)
{
	int ret = 0;

	spin_lock_irq(&fences->lock);
	if (pf->num_fences >= FPGA_PORT_FENCES_PER_FILE ||
	    fences->num_pending >= FPGA_PORT_FENCES_PER_PORT) {
		ret = -ENOSPC;
	} else {
		pf->num_fences++;
		fences->num_pending++;
	}
	spin_unlock_irq(&fences->lock);
	return ret;
}

/* Give the slot back; caller holds fences->lock */
static void fpga_port_fence_slot_put(struct fpga_port_fences *fences,
				     struct fpga_port_file *pf)
{
	lockdep_assert_held(&fences->lock);
	pf->num_fences--;
	fences->num_pending--;
}

/* Drop the list's reference on every fence that has signalled */
static void fpga_port_fences_reap(struct fpga_port_fences *fences)
{
	struct fpga_port_fence *pfence, *next;
	LIST_HEAD(done);

	spin_lock_irq(&fences->lock);
	list_for_each_entry_safe(pfence, next, &fences->pending, node)
		if (test_bit(DMA_FENCE_FLAG_SIGNALED_BIT, &pfence->base.flags)) {
			list_move_tail(&pfence->node, &done);
			fpga_port_fence_slot_put(fences, pfence->pf);
		}
	spin_unlock_irq(&fences->lock);

	list_for_each_entry_safe(pfence, next, &done, node) {
		list_del(&pfence->node);
		timer_delete_sync(&pfence->timer);
		dma_fence_put(&pfence->base);
	}
}

static void fpga_port_fences_reap_work(struct work_struct *work)
{
	fpga_port_fences_reap(container_of(work, struct fpga_port_fences,
					   reap));
}

/**
 * fpga_port_fences_init() - prepare a port's fences (probe)
 * @port: the port, with its uint_irqs set up
 *
 * Return: 0 or -ENOMEM.
 */
int fpga_port_fences_init(struct fpga_port *port)
{
	struct fpga_port_fences *fences = &port->fences;
	unsigned int i;

	spin_lock_init(&fences->lock);
	INIT_LIST_HEAD(&fences->pending);
	mutex_init(&fences->irq_lock);
	INIT_WORK(&fences->reap, fpga_port_fences_reap_work);
	fences->count = port->uint_irqs.count;
	if (!fences->count)
		return 0;
	fences->irqs = kcalloc(fences->count, sizeof(*fences->irqs),
			       GFP_KERNEL);
	if (!fences->irqs)
		return -ENOMEM;
	for (i = 0; i < fences->count; i++) {
		fences->irqs[i].port = port;
		fences->irqs[i].vector = i;
	}
	return 0;
}

/**
 * fpga_port_fences_cancel() - signal pending fences with an error
 * @port: the port
 * @pf: only the fences this file armed, or NULL for all
 * @error: -ECANCELED (file closed) or -ENODEV (port removed)
 *
 * Returns once the cancelled fences are reaped.  Process context.
 */
void fpga_port_fences_cancel(struct fpga_port *port, struct fpga_port_file *pf,
			     int error)
{
	struct fpga_port_fences *fences = &port->fences;
	struct fpga_port_fence *pfence;

	spin_lock_irq(&fences->lock);
	list_for_each_entry(pfence, &fences->pending, node)
		if (!pf || pfence->pf == pf)
			fpga_port_fence_signal(pfence, error);
	spin_unlock_irq(&fences->lock);
	fpga_port_fences_reap(fences);
}

/**
 * fpga_port_fences_fini() - release the interrupts and every fence
 * @port: the port, being removed (no file operation runs any more)
 *
 * Must run before the port's user interrupts are freed.
 */
void fpga_port_fences_fini(struct fpga_port *port)
{
	struct fpga_port_fences *fences = &port->fences;
	unsigned int i;

	mutex_lock(&fences->irq_lock);
	for (i = 0; i < fences->count; i++) {
		if (!fences->irqs[i].requested)
			continue;
		free_irq(port->uint_irqs.irqs[i].irq, &fences->irqs[i]);
		fences->irqs[i].requested = false;
	}
	mutex_unlock(&fences->irq_lock);

	fpga_port_fences_cancel(port, NULL, -ENODEV);
	cancel_work_sync(&fences->reap);
	kfree(fences->irqs);
	fences->irqs = NULL;
	fences->count = 0;
}

/* Make sure the fence handler listens on @vector */
static int fpga_port_fence_irq_get(struct fpga_port *port, unsigned int vector)
{
	struct fpga_port_fences *fences = &port->fences;
	struct fpga_dfl_irq *dirq = &port->uint_irqs.irqs[vector];
	int ret = 0;

	mutex_lock(&fences->irq_lock);
	if (!fences->irqs[vector].requested) {
		ret = request_threaded_irq(dirq->irq,
					   fpga_port_fence_irq_hardirq,
					   fpga_port_fence_irq_handler,
					   IRQF_SHARED | IRQF_NO_THREAD,
					   dirq->name, &fences->irqs[vector]);
		if (!ret)
			fences->irqs[vector].requested = true;
	}
	mutex_unlock(&fences->irq_lock);
	return ret;
}

static struct fpga_port_fence *fpga_port_fence_create(struct fpga_port_file *pf,
						      unsigned int vector)
{
	struct fpga_port_fence *pfence;

	/* Charged to the caller's memory cgroup: user space sets the count */
	pfence = kzalloc(sizeof(*pfence), GFP_KERNEL_ACCOUNT);
	if (!pfence)
		return NULL;
	/* We are in one of our ioctls: the module is alive */
	__module_get(THIS_MODULE);
	spin_lock_init(&pfence->lock);
	/* A context per fence: they may signal in any order */
	dma_fence_init(&pfence->base, &fpga_port_fence_ops, &pfence->lock,
		       dma_fence_context_alloc(1), 1);
	INIT_LIST_HEAD(&pfence->node);
	timer_setup(&pfence->timer, fpga_port_fence_timeout, 0);
	pfence->port = pf->port;
	pfence->pf = pf;
	pfence->vector = vector;
	return pfence;
}

/* Put @pfence on @buf's reservation object; 0, -EBUSY or -ENOMEM */
static int fpga_port_fence_add(struct dma_buf *buf,
			       struct fpga_port_fence *pfence, bool write)
{
	struct dma_resv *resv = buf->resv;
	int ret;

	dma_resv_lock(resv, NULL);
	if (!dma_resv_test_signaled(resv, dma_resv_usage_rw(write)))
		ret = -EBUSY;
	else
		ret = dma_resv_reserve_fences(resv, 1);
	if (!ret)
		dma_resv_add_fence(resv, &pfence->base, write ?
				   DMA_RESV_USAGE_WRITE : DMA_RESV_USAGE_READ);
	dma_resv_unlock(resv);
	return ret;
}

/*
 * The dma-buf mapped at @iova by this file, with a reference, and the
 * mapping's direction in @dir; or NULL
 */
static struct dma_buf *fpga_port_fence_dmabuf(struct fpga_port_file *pf,
					      u64 iova,
					      enum dma_data_direction *dir)
{
	struct dma_buf *buf = NULL;
	struct fpga_port_dma *dma;

	mutex_lock(&pf->dma_lock);
	dma = __fpga_port_dma_find(pf, iova);
	if (dma && dma->kind == FPGA_PORT_DMA_DMABUF) {
		buf = dma->dmabuf.buf;
		*dir = dma->dir;
		get_dma_buf(buf);
	}
	mutex_unlock(&pf->dma_lock);
	return buf;
}

/*
 * FPGA_PORT_DMABUF_FENCE: arm a fence on a dma-buf mapping of this file,
 * signalled by the next interrupt on a user vector.  EINVAL: argsz, flags,
 * iova, vector or timeout; ENOENT: no user interrupts; EACCES: a write
 * fence on a mapping the AFU only reads, any fence on a read-only dma-buf;
 * EBUSY: a conflicting fence is pending on the buffer.
 */
static long __fpga_port_dmabuf_fence(struct fpga_port_file *pf,
				     const struct fpga_port_dmabuf_fence *args);

long fpga_port_ioctl_dmabuf_fence(struct fpga_port_file *pf, void __user *arg)
{
	unsigned long minsz = offsetofend(struct fpga_port_dmabuf_fence,
					  timeout_ms);
	struct fpga_port_dmabuf_fence args;
	int ret, idx;

	if (copy_from_user(&args, arg, minsz))
		return -EFAULT;
	if (args.argsz < minsz || args.flags & ~FPGA_PORT_FENCE_WRITE ||
	    args.timeout_ms > FPGA_PORT_FENCE_MAX_MS)
		return -EINVAL;
	ret = fpga_port_hw_begin(pf->port, &idx);
	if (ret)
		return ret;
	ret = __fpga_port_dmabuf_fence(pf, &args);
	fpga_port_hw_end(pf->port, idx);
	return ret;
}

/* The rest of FPGA_PORT_DMABUF_FENCE, arguments copied, port not gone */
static long __fpga_port_dmabuf_fence(struct fpga_port_file *pf,
				     const struct fpga_port_dmabuf_fence *a)
{
	struct fpga_port_fences *fences = &pf->port->fences;
	struct device *dev = &pf->port->chardev;
	struct fpga_port_dmabuf_fence args = *a;
	struct fpga_port_fence *pfence;
	enum dma_data_direction dir;
	unsigned int timeout_ms;
	struct dma_buf *buf;
	int ret;

	if (!fences->count)
		return -ENOENT;
	if (args.vector >= fences->count)
		return -EINVAL;
	timeout_ms = args.timeout_ms ?: FPGA_PORT_FENCE_DEFAULT_MS;

	buf = fpga_port_fence_dmabuf(pf, args.iova, &dir);
	if (!buf) {
		dev_dbg(dev, "dmabuf fence: iova %#llx is no dma-buf mapping of this file\n",
			args.iova);
		return -EINVAL;
	}
	/*
	 * No fence on a dma-buf its holder may not write: a read fence holds
	 * the owner's writers, and armed again each time it times out, for
	 * good (vgem_ext refuses fences on such an import alike).  Its owner
	 * waits for a reader through a sync_file, an eventfd or the DSM.
	 */
	if (!(buf->file->f_mode & FMODE_WRITE)) {
		dev_dbg(dev, "dmabuf fence: iova %#llx is a read-only dma-buf: no fence\n",
			args.iova);
		ret = -EACCES;
		goto out_put_buf;
	}
	/* A write fence announces a write the mapping does not let the AFU make */
	if (args.flags & FPGA_PORT_FENCE_WRITE && dir == DMA_TO_DEVICE) {
		dev_dbg(dev, "dmabuf fence: iova %#llx is mapped FPGA_PORT_DMA_TO_DEV: no write fence\n",
			args.iova);
		ret = -EACCES;
		goto out_put_buf;
	}
	ret = fpga_port_fence_irq_get(pf->port, args.vector);
	if (ret)
		goto out_put_buf;
	ret = fpga_port_fence_slot_get(fences, pf);
	if (ret) {
		dev_dbg(dev, "dmabuf fence: %u pending for the file or %u for the port already\n",
			FPGA_PORT_FENCES_PER_FILE, FPGA_PORT_FENCES_PER_PORT);
		goto out_put_buf;
	}
	pfence = fpga_port_fence_create(pf, args.vector);
	if (!pfence) {
		ret = -ENOMEM;
		goto out_put_slot;
	}
	ret = fpga_port_fence_add(buf, pfence, args.flags &
				  FPGA_PORT_FENCE_WRITE);
	if (ret) {
		/* Never published: nobody waits on it */
		fpga_port_fence_signal(pfence, ret);
		dma_fence_put(&pfence->base);
		goto out_put_slot;
	}

	spin_lock_irq(&fences->lock);
	list_add_tail(&pfence->node, &fences->pending);
	mod_timer(&pfence->timer, jiffies + msecs_to_jiffies(timeout_ms));
	spin_unlock_irq(&fences->lock);
	dma_buf_put(buf);
	return 0;

out_put_slot:
	spin_lock_irq(&fences->lock);
	fpga_port_fence_slot_put(fences, pf);
	spin_unlock_irq(&fences->lock);
out_put_buf:
	dma_buf_put(buf);
	return ret;
}
