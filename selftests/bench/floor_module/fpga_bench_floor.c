// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_bench_floor: the floors of the bench's DMA and interrupt figures,
 * measured in the same boot as the figures themselves.  A misc device,
 * /dev/fpga_bench_floor (root only), that does the least the kernel must
 * do for what our drivers do, and nothing else:
 *
 * - DMA: pin a user buffer as the port pins it (pin_user_pages_fast(),
 *   FOLL_LONGTERM | FOLL_WRITE) and unpin it; optionally also build a
 *   scatter table of it and dma_map_sgtable() it for the DMA device our
 *   port maps for, and undo that.  No accounting, no lookup tree, no
 *   policy check, no tracepoint: what port-dma.c adds is what the bench
 *   measures above this floor.
 *
 *   The device is the port's own: fpga_dfl_device.dma_dev of fpga-port.N,
 *   found by name on the fpga_dfl bus and held with fpga_dfl_dma_ref_get()
 *   as the port's dma-buf path holds it.  On the simulated card that is
 *   the port's device-side IOMMU (sim-iommu.c's dma_map_ops, one IOVA
 *   range per mapping); on a PCI card, the card's function.  A device of
 *   this module's own could not have those ops (fpga_sim does not export
 *   them) and would map with dma-direct, which builds no IOVA range: a
 *   floor below anything a translated card can reach, so not a floor.
 *
 * - Interrupts: a kernel thread on a given CPU (the card's) answers a
 *   doorbell word in a page user space maps by signalling an eventfd with
 *   interrupts off, as a hard-irq handler does, as soon as the task that
 *   rang it sleeps (in its read() of the eventfd).  User space times the
 *   doorbell-to-read() round trip as it times the port's: the same sleep
 *   and wakeup of its CPU from the card's, without the card's model, the
 *   irq core and our handler.  Answered at once instead, the signal
 *   would beat the reader into read(), and the floor would be a syscall
 *   that never sleeps (1.3-1.8 us in the test VM, against a port round
 *   trip of 12 us that always sleeps): not the same work.
 *
 * Built for the bench's initramfs only (make bench-initramfs), never
 * installed, never in the DKMS tree or the packages.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/eventfd.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/task.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "fpga-compat.h"
#include <fpga-suite/dfl-core.h>

#include "fpga_bench_floor.h"

/* The longest scatter entry, as port-dma.c builds its tables */
#define FLOOR_MAX_SEGMENT	rounddown(UINT_MAX, PAGE_SIZE)

/**
 * struct floor_file - one opener's floors
 * @lock:	serialises the ioctls
 * @dma:	the bound port's DMA device (@dma.dev NULL until bound)
 * @pages:	the pinned buffer's pages, or NULL
 * @npages:	how many
 * @sgt:	its table, when mapped
 * @mapped:	@sgt is mapped for @dma.dev
 * @bell:	the doorbell page (zeroed; user space maps it)
 * @task:	the answerer, or NULL
 * @trigger:	the eventfd it signals
 * @trigger_lock: taken around the signal
 * @arm_lock:	protects @pending and @reader
 * @pending:	doorbells to answer, armed and not yet taken by the answerer
 * @reader:	the task that armed them (held), which will read the eventfd
 * @wait:	the answerer sleeps there until armed
 * @armed:	completed when the answerer has taken them and spins
 */
struct floor_file {
	struct mutex lock;	/* the ioctls, one at a time */
	struct fpga_dfl_dma_ref dma;
	struct page **pages;
	unsigned long npages;
	struct sg_table sgt;
	bool mapped;
	u64 *bell;
	struct task_struct *task;
	struct eventfd_ctx *trigger;
	spinlock_t trigger_lock;	/* around the signal, irqs off */
	spinlock_t arm_lock;	/* pending, reader */
	int pending;
	struct task_struct *reader;
	wait_queue_head_t wait;
	struct completion armed;
};

/* ---- DMA ---- */

static int floor_match_port(struct device *dev, const void *data)
{
	struct fpga_dfl_device *fdev = to_fpga_dfl_device(dev);

	return fdev->fiu_id == DFH_ID_FIU_PORT && fdev->id == *(const u32 *)data;
}

static int floor_bind_port(struct floor_file *ff, u32 id)
{
	struct fpga_dfl_device *fdev;
	struct device *dev;
	int ret = -ENODEV, idx;

	if (ff->dma.dev || ff->pages)
		return -EBUSY;
	dev = bus_find_device(&fpga_dfl_bus_type, NULL, &id, floor_match_port);
	if (!dev)
		return -ENODEV;
	fdev = to_fpga_dfl_device(dev);
	/* dma_dev is valid only while the card is there */
	if (fpga_dfl_hw_enter(&fdev->unplug, &idx)) {
		ret = fpga_dfl_dma_ref_get(fdev, &ff->dma);
		fpga_dfl_hw_exit(&fdev->unplug, idx);
	}
	put_device(dev);
	return ret;
}

static void floor_unpin(struct floor_file *ff)
{
	if (ff->mapped) {
		dma_unmap_sgtable(ff->dma.dev, &ff->sgt, DMA_BIDIRECTIONAL, 0);
		ff->mapped = false;
	}
	if (ff->sgt.sgl)
		sg_free_table(&ff->sgt);
	unpin_user_pages(ff->pages, ff->npages);
	kvfree(ff->pages);
	ff->pages = NULL;
	ff->npages = 0;
}

static int floor_pin(struct floor_file *ff, void __user *arg)
{
	struct fpga_bench_floor_pin p;
	long pinned;
	u64 end;
	int ret;

	if (copy_from_user(&p, arg, sizeof(p)))
		return -EFAULT;
	if (p.flags & ~FPGA_BENCH_FLOOR_MAP || !p.length ||
	    !PAGE_ALIGNED(p.addr) || !PAGE_ALIGNED(p.length) ||
	    check_add_overflow(p.addr, p.length, &end) || end > TASK_SIZE ||
	    p.length >> PAGE_SHIFT > totalram_pages())
		return -EINVAL;
	if (ff->pages)
		return -EBUSY;
	if (p.flags & FPGA_BENCH_FLOOR_MAP && !ff->dma.dev)
		return -ENODEV;

	ff->npages = p.length >> PAGE_SHIFT;
	ff->pages = kvmalloc_array(ff->npages, sizeof(*ff->pages), GFP_KERNEL);
	if (!ff->pages)
		return -ENOMEM;
	pinned = pin_user_pages_fast(p.addr, ff->npages,
				     FOLL_LONGTERM | FOLL_WRITE, ff->pages);
	if (pinned != ff->npages) {
		if (pinned > 0)
			unpin_user_pages(ff->pages, pinned);
		kvfree(ff->pages);
		ff->pages = NULL;
		ff->npages = 0;
		return pinned < 0 ? pinned : -EFAULT;
	}

	p.nents = 0;
	if (p.flags & FPGA_BENCH_FLOOR_MAP) {
		ret = sg_alloc_table_from_pages_segment(&ff->sgt, ff->pages,
							ff->npages, 0, p.length,
							FLOOR_MAX_SEGMENT,
							GFP_KERNEL);
		if (ret)
			goto err_unpin;
		ret = dma_map_sgtable(ff->dma.dev, &ff->sgt, DMA_BIDIRECTIONAL,
				      0);
		if (ret)
			goto err_unpin;
		ff->mapped = true;
		p.nents = ff->sgt.orig_nents;
	}
	if (copy_to_user(arg, &p, sizeof(p))) {
		ret = -EFAULT;
		goto err_unpin;
	}
	return 0;

err_unpin:
	floor_unpin(ff);
	return ret;
}

/* ---- interrupts ---- */

static void floor_signal(struct floor_file *ff)
{
	unsigned long flags;

	/* As fpga_dfl_irq_deliver() does, from its hard-irq handler */
	spin_lock_irqsave(&ff->trigger_lock, flags);
	fpga_eventfd_signal(ff->trigger);
	spin_unlock_irqrestore(&ff->trigger_lock, flags);
}

/* Whether @t is off its CPU, asleep */
static bool floor_task_asleep(struct task_struct *t)
{
	if (task_is_running(t))
		return false;
#ifdef CONFIG_SMP
	return !READ_ONCE(t->on_cpu);
#else
	return true;
#endif
}

/*
 * Answer a doorbell once @reader sleeps, or after @idle_ns if it does
 * not (it may poll instead of reading): the signal then wakes it, the
 * kernel-to-user wakeup the floor is about.
 */
static void floor_answer(struct floor_file *ff, struct task_struct *reader,
			 u64 idle_ns)
{
	u64 t0 = local_clock();

	while (!floor_task_asleep(reader) && local_clock() - t0 < idle_ns &&
	       !kthread_should_stop())
		cpu_relax();
	floor_signal(ff);
}

/* Take what was armed: the doorbells, and the reader's reference */
static int floor_take(struct floor_file *ff, struct task_struct **reader)
{
	int n;

	spin_lock(&ff->arm_lock);
	n = ff->pending;
	*reader = ff->reader;
	ff->pending = 0;
	ff->reader = NULL;
	spin_unlock(&ff->arm_lock);
	return n;
}

static bool floor_armed(struct floor_file *ff)
{
	return READ_ONCE(ff->pending) || kthread_should_stop();
}

/*
 * Sleep until armed, take the doorbells armed, then spin on the doorbell
 * until they are answered or none came for FPGA_BENCH_FLOOR_IDLE_MS.
 * User space may arm again as soon as the last signal woke it, before
 * this thread has left the spin: what it armed waits in @pending, and is
 * taken (and the arming completed) on the next pass.  SCHED_FIFO, so that
 * the card's model thread on the same CPU cannot take the CPU from the
 * spin (uio_bench's user-space device floor runs so for the same reason).
 */
static int floor_irq_thread(void *data)
{
	struct floor_file *ff = data;
	u64 idle_ns = FPGA_BENCH_FLOOR_IDLE_MS * NSEC_PER_MSEC, last;
	struct task_struct *reader;
	int n;

	while (!kthread_should_stop()) {
		wait_event_idle(ff->wait, floor_armed(ff));
		n = floor_take(ff, &reader);
		if (!n)
			continue;
		complete(&ff->armed);
		last = local_clock();
		while (n > 0 && !kthread_should_stop()) {
			if (READ_ONCE(*ff->bell)) {
				WRITE_ONCE(*ff->bell, 0);
				floor_answer(ff, reader, idle_ns);
				n--;
				last = local_clock();
				continue;
			}
			if (local_clock() - last > idle_ns)
				break;
			cpu_relax();
			/* A spin that never sleeps must let RCU through */
			cond_resched_tasks_rcu_qs();
		}
		put_task_struct(reader);
	}
	return 0;
}

static void floor_irq_stop(struct floor_file *ff)
{
	if (ff->task) {
		kthread_stop(ff->task);
		put_task_struct(ff->task);
		ff->task = NULL;
	}
	if (ff->trigger) {
		eventfd_ctx_put(ff->trigger);
		ff->trigger = NULL;
	}
	/* Armed but never taken */
	ff->pending = 0;
	if (ff->reader) {
		put_task_struct(ff->reader);
		ff->reader = NULL;
	}
}

static int floor_irq_bind(struct floor_file *ff, void __user *arg)
{
	struct fpga_bench_floor_irq b;
	struct task_struct *task;
	struct eventfd_ctx *ctx;

	if (copy_from_user(&b, arg, sizeof(b)))
		return -EFAULT;
	floor_irq_stop(ff);
	if (b.eventfd < 0)
		return 0;
	if (b.cpu >= nr_cpu_ids || !cpu_online(b.cpu))
		return -EINVAL;
	ctx = eventfd_ctx_fdget(b.eventfd);
	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	task = kthread_create(floor_irq_thread, ff, "fpga_floor/%u", b.cpu);
	if (IS_ERR(task)) {
		eventfd_ctx_put(ctx);
		return PTR_ERR(task);
	}
	kthread_bind(task, b.cpu);
	sched_set_fifo_low(task);
	get_task_struct(task);
	ff->trigger = ctx;
	ff->task = task;
	wake_up_process(task);
	return 0;
}

static int floor_irq_arm(struct floor_file *ff, u32 __user *arg)
{
	u32 n;

	if (get_user(n, arg))
		return -EFAULT;
	if (!ff->task)
		return -ENODEV;
	if (!n || n > INT_MAX)
		return -EINVAL;
	if (READ_ONCE(ff->pending))
		return -EBUSY;
	reinit_completion(&ff->armed);
	spin_lock(&ff->arm_lock);
	ff->reader = get_task_struct(current);
	ff->pending = n;
	spin_unlock(&ff->arm_lock);
	wake_up(&ff->wait);
	if (!wait_for_completion_timeout(&ff->armed, HZ)) {
		struct task_struct *reader;

		/* Unless the answerer took them meanwhile */
		if (floor_take(ff, &reader))
			put_task_struct(reader);
		return -ETIMEDOUT;
	}
	return 0;
}

/* ---- the device ---- */

static int floor_open(struct inode *inode, struct file *file)
{
	struct floor_file *ff;

	ff = kzalloc(sizeof(*ff), GFP_KERNEL);
	if (!ff)
		return -ENOMEM;
	ff->bell = (u64 *)get_zeroed_page(GFP_KERNEL);
	if (!ff->bell) {
		kfree(ff);
		return -ENOMEM;
	}
	mutex_init(&ff->lock);
	spin_lock_init(&ff->trigger_lock);
	spin_lock_init(&ff->arm_lock);
	init_waitqueue_head(&ff->wait);
	init_completion(&ff->armed);
	file->private_data = ff;
	return nonseekable_open(inode, file);
}

static int floor_release(struct inode *inode, struct file *file)
{
	struct floor_file *ff = file->private_data;

	floor_irq_stop(ff);
	if (ff->pages)
		floor_unpin(ff);
	if (ff->dma.dev)
		fpga_dfl_dma_ref_put(&ff->dma);
	free_page((unsigned long)ff->bell);
	mutex_destroy(&ff->lock);
	kfree(ff);
	return 0;
}

static long floor_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct floor_file *ff = file->private_data;
	void __user *uarg = (void __user *)arg;
	u32 id;
	long ret;

	mutex_lock(&ff->lock);
	switch (cmd) {
	case FPGA_BENCH_FLOOR_BIND_PORT:
		ret = get_user(id, (u32 __user *)uarg);
		if (!ret)
			ret = floor_bind_port(ff, id);
		break;
	case FPGA_BENCH_FLOOR_PIN:
		ret = floor_pin(ff, uarg);
		break;
	case FPGA_BENCH_FLOOR_UNPIN:
		ret = -ENOENT;
		if (ff->pages) {
			floor_unpin(ff);
			ret = 0;
		}
		break;
	case FPGA_BENCH_FLOOR_IRQ_BIND:
		ret = floor_irq_bind(ff, uarg);
		break;
	case FPGA_BENCH_FLOOR_IRQ_ARM:
		ret = floor_irq_arm(ff, uarg);
		break;
	default:
		ret = -ENOTTY;
	}
	mutex_unlock(&ff->lock);
	return ret;
}

/* The doorbell page, at offset 0 */
static int floor_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct floor_file *ff = file->private_data;

	if (vma->vm_pgoff || vma->vm_end - vma->vm_start != PAGE_SIZE)
		return -EINVAL;
	return remap_pfn_range(vma, vma->vm_start,
			       virt_to_phys(ff->bell) >> PAGE_SHIFT, PAGE_SIZE,
			       vma->vm_page_prot);
}

static const struct file_operations floor_fops = {
	.owner		= THIS_MODULE,
	.open		= floor_open,
	.release	= floor_release,
	.unlocked_ioctl	= floor_ioctl,
	.mmap		= floor_mmap,
};

static struct miscdevice floor_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "fpga_bench_floor",
	.fops	= &floor_fops,
	.mode	= 0600,
};

module_misc_device(floor_misc);

MODULE_DESCRIPTION("DMA and interrupt floors for the FPGA suite's benchmarks (bench only)");
MODULE_LICENSE("GPL");
