// SPDX-License-Identifier: GPL-2.0-only
/*
 * DMA mapping of user memory for the AFU, and the per-file bookkeeping
 * that every kind of DMA mapping shares (port-dmabuf.c maps dma-bufs).
 *
 * Unlike upstream, buffers are ordinary 4 KiB pages of any size: they are
 * pinned and mapped through the DMA API of the card, whose IOMMU must give
 * one device-contiguous range: with one dma_map_page() when the pages are
 * one physical run, else through a scatter-gather table.  A mapping
 * belongs to the file that made it (no other opener can unmap it) and its
 * pinned pages are charged to the user and process that mapped them, and
 * uncharged from those same ones, whoever unmaps.
 *
 * Locking: a file's tree is protected by its dma_lock; the functions
 * named __fpga_port_dma_* need it held.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/dma-mapping.h>
#include <linux/fpga-dfl.h>
#include <linux/fpga-suite.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/scatterlist.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "port.h"
#include "port_trace.h"

/* The device that performs the card's DMA (its IOMMU's dma_map_ops) */
struct device *fpga_port_dma_dev(struct fpga_port_file *pf)
{
	return pf->port->fdev->dma_dev;
}

/* The mapping of this file that starts at @iova, or NULL */
struct fpga_port_dma *__fpga_port_dma_find(struct fpga_port_file *pf,
					   u64 iova)
{
	struct rb_node *node = pf->dma_maps.rb_node;

	lockdep_assert_held(&pf->dma_lock);

	while (node) {
		struct fpga_port_dma *dma = rb_entry(node, struct fpga_port_dma,
						     node);

		if (iova < dma->iova)
			node = node->rb_left;
		else if (iova > dma->iova)
			node = node->rb_right;
		else
			return dma;
	}
	return NULL;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(__fpga_port_dma_find);

/* Where a mapping's memory comes from: the key of pf->dma_sources */
static u64 fpga_port_dma_source(const struct fpga_port_dma *dma)
{
	return dma->kind == FPGA_PORT_DMA_USER ? dma->user.addr :
						 (uintptr_t)dma->dmabuf.buf;
}

static bool fpga_port_dma_source_less(const struct fpga_port_dma *a,
				      enum fpga_port_dma_kind kind, u64 key)
{
	return a->kind < kind ||
	       (a->kind == kind && fpga_port_dma_source(a) < key);
}

static bool fpga_port_dma_source_node_less(struct rb_node *a,
					   const struct rb_node *b)
{
	const struct fpga_port_dma *db = rb_entry(b, struct fpga_port_dma,
						  source_node);

	return fpga_port_dma_source_less(rb_entry(a, struct fpga_port_dma,
						  source_node),
					 db->kind, fpga_port_dma_source(db));
}

/**
 * __fpga_port_dma_source_below() - the nearest mapping below a source
 * @pf: the file; pf->dma_lock held
 * @kind: what the mapping maps
 * @key: a user address, or a dma-buf
 *
 * Return: the mapping of @kind with the greatest source below @key, or
 * NULL.  User buffers of a file never overlap, so the only one that can
 * overlap [addr, end) is the one below end: one walk down the tree.
 */
struct fpga_port_dma *__fpga_port_dma_source_below(struct fpga_port_file *pf,
						   enum fpga_port_dma_kind kind,
						   u64 key)
{
	struct rb_node *node = pf->dma_sources.rb_node;
	struct fpga_port_dma *below = NULL;

	lockdep_assert_held(&pf->dma_lock);

	while (node) {
		struct fpga_port_dma *dma = rb_entry(node, struct fpga_port_dma,
						     source_node);

		if (fpga_port_dma_source_less(dma, kind, key)) {
			below = dma;
			node = node->rb_right;
		} else {
			node = node->rb_left;
		}
	}
	return below && below->kind == kind ? below : NULL;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(__fpga_port_dma_source_below);

void __fpga_port_dma_insert(struct fpga_port_file *pf,
			    struct fpga_port_dma *new)
{
	struct rb_node **link = &pf->dma_maps.rb_node, *parent = NULL;

	lockdep_assert_held(&pf->dma_lock);
	new->owner = task_tgid_nr(current);
	trace_dma_map(pf->port, new);

	while (*link) {
		struct fpga_port_dma *dma = rb_entry(*link, struct fpga_port_dma,
						     node);

		parent = *link;
		link = new->iova < dma->iova ? &parent->rb_left :
					       &parent->rb_right;
	}
	rb_link_node(&new->node, parent, link);
	rb_insert_color(&new->node, &pf->dma_maps);
	rb_add(&new->source_node, &pf->dma_sources,
	       fpga_port_dma_source_node_less);
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(__fpga_port_dma_insert);

/* Does [addr, addr + len) overlap user memory this file has mapped? */
bool __fpga_port_dma_overlaps(struct fpga_port_file *pf, u64 addr, u64 len)
{
	struct fpga_port_dma *dma;

	dma = __fpga_port_dma_source_below(pf, FPGA_PORT_DMA_USER, addr + len);
	return dma && dma->user.addr + dma->length > addr;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(__fpga_port_dma_overlaps);

/**
 * fpga_port_dma_charge() - charge a mapping's pinned pages
 * @dma: the mapping (user memory, npages set)
 * @mm: the process mapping it, whose pinned_vm (VmPin) shows them
 * @user: the user whose RLIMIT_MEMLOCK budget they count against, or NULL
 *	  if the mapper may lock memory without limit (CAP_IPC_LOCK)
 * @limit: that budget, in pages
 *
 * The budget is the user's, shared by all its processes, as io_uring and
 * iommufd count theirs: charged to an mm, it would start afresh in every
 * fork.  The mapping holds @mm and @user to uncharge the same ones.
 *
 * Return: 0, or -ENOMEM past the budget.
 */
int fpga_port_dma_charge(struct fpga_port_dma *dma, struct mm_struct *mm,
			 struct user_struct *user, unsigned long limit)
{
	unsigned long npages = dma->user.npages, cur, new;

	if (user) {
		cur = atomic_long_read(&user->locked_vm);
		do {
			if (check_add_overflow(cur, npages, &new) ||
			    new > limit)
				return -ENOMEM;
		} while (!atomic_long_try_cmpxchg(&user->locked_vm, &cur, new));
		dma->user.account = get_uid(user);
	}
	atomic64_add(npages, &mm->pinned_vm);
	dma->user.mm = mm;
	mmgrab(mm);
	return 0;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_port_dma_charge);

/**
 * fpga_port_dma_uncharge() - give the pages back to those charged
 * @dma: the mapping, charged by fpga_port_dma_charge()
 *
 * Whoever unmaps (another thread, close, unplug), the process and user
 * that were charged are the ones uncharged.
 */
void fpga_port_dma_uncharge(struct fpga_port_dma *dma)
{
	if (dma->user.account) {
		atomic_long_sub(dma->user.npages, &dma->user.account->locked_vm);
		free_uid(dma->user.account);
		dma->user.account = NULL;
	}
	atomic64_sub(dma->user.npages, &dma->user.mm->pinned_vm);
	mmdrop(dma->user.mm);
	dma->user.mm = NULL;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_port_dma_uncharge);

/*
 * A one-page mapping (a descriptor ring, a status page) keeps its page in
 * the mapping itself: no allocation of an array of one on map, no free on
 * unmap.  It is still charged to the caller's memory cgroup, as part of
 * the mapping.
 */
static int fpga_port_dma_alloc_pages(struct fpga_port_dma *dma)
{
	if (dma->user.npages == 1) {
		dma->user.pages = &dma->user.page;
		return 0;
	}
	dma->user.pages = kvcalloc(dma->user.npages, sizeof(*dma->user.pages),
				   GFP_KERNEL_ACCOUNT);
	return dma->user.pages ? 0 : -ENOMEM;
}

static void fpga_port_dma_free_pages(struct fpga_port_dma *dma)
{
	if (dma->user.pages != &dma->user.page)
		kvfree(dma->user.pages);
}

static void fpga_port_dma_unpin(struct fpga_port_dma *dma)
{
	unpin_user_pages_dirty_lock(dma->user.pages, dma->user.npages,
				    dma->dir != DMA_TO_DEVICE);
	fpga_port_dma_uncharge(dma);
	fpga_port_dma_free_pages(dma);
}

static int fpga_port_dma_pin(struct fpga_port_file *pf,
			     struct fpga_port_dma *dma)
{
	struct device *dev = &pf->port->chardev;
	unsigned int gup = FOLL_LONGTERM;
	long pinned;
	int ret;

	/*
	 * The budget first: a request past it costs nothing, not even the
	 * page array, which is the caller's memory cgroup's to pay
	 */
	ret = fpga_port_dma_charge(dma, current->mm,
				   capable(CAP_IPC_LOCK) ? NULL : current_user(),
				   rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT);
	if (ret) {
		dev_dbg(dev, "dma map: %lu pages exceed RLIMIT_MEMLOCK\n",
			dma->user.npages);
		return ret;
	}
	ret = fpga_port_dma_alloc_pages(dma);
	if (ret)
		goto err_unaccount;

	if (dma->dir != DMA_TO_DEVICE)
		gup |= FOLL_WRITE;
	pinned = pin_user_pages_fast(dma->user.addr, dma->user.npages, gup,
				     dma->user.pages);
	if (pinned != dma->user.npages) {
		dev_dbg(dev, "dma map: pinned %ld of %lu pages at %#llx\n",
			pinned, dma->user.npages, dma->user.addr);
		if (pinned > 0)
			unpin_user_pages(dma->user.pages, pinned);
		ret = pinned < 0 ? pinned : -EFAULT;
		goto err_free;
	}
	return 0;

err_free:
	fpga_port_dma_free_pages(dma);
err_unaccount:
	fpga_port_dma_uncharge(dma);
	return ret;
}

/**
 * fpga_port_dma_check_range() - is a mapping one device-contiguous range?
 * @pf: the file mapping it (for messages)
 * @sgt: the table as mapped for the card
 * @length: the bytes it must cover
 * @iova: its device address, on success
 *
 * Return: 0, or -EINVAL if the card mapped it in pieces or short.
 */
int fpga_port_dma_check_range(struct fpga_port_file *pf,
			      struct sg_table *sgt, u64 length, u64 *iova)
{
	struct device *dev = &pf->port->chardev;
	struct scatterlist *sg;
	u64 next;
	int i;

	*iova = sg_dma_address(sgt->sgl);
	next = *iova;
	for_each_sgtable_dma_sg(sgt, sg, i) {
		if (sg_dma_address(sg) != next) {
			dev_dbg(dev, "dma map: the card mapped the buffer in pieces (no IOMMU?)\n");
			return -EINVAL;
		}
		next += sg_dma_len(sg);
	}
	if (next - *iova != length) {
		dev_dbg(dev, "dma map: the card mapped %#llx of %#llx bytes\n",
			next - *iova, length);
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_port_dma_check_range);

/* The longest scatter entry: its length is an unsigned int */
#define FPGA_PORT_DMA_MAX_SEGMENT	rounddown(UINT_MAX, PAGE_SIZE)

/**
 * fpga_port_dma_pages_contiguous() - are pinned pages one physical run?
 * @pages: the pages, in buffer order
 * @npages: how many, at least one
 *
 * The walk stops at the first gap.
 *
 * Return: true for a single page, a huge page or any other physical run.
 */
bool fpga_port_dma_pages_contiguous(struct page **pages, unsigned long npages)
{
	unsigned long first = page_to_pfn(pages[0]), i;

	for (i = 1; i < npages; i++)
		if (page_to_pfn(pages[i]) != first + i)
			return false;
	return true;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_port_dma_pages_contiguous);

/*
 * Map the pinned pages; the device must see one contiguous range.  One
 * physical run, no longer than a scatter entry may be, is one
 * dma_map_page(): building, mapping and checking a table for it was a
 * third of the cost of mapping a 4 KiB page.  Other pins go through a
 * table (longer runs split at the same limit), which the card's IOMMU
 * must map as one range.
 */
static int fpga_port_dma_map_pages(struct fpga_port_file *pf,
				   struct fpga_port_dma *dma)
{
	struct device *dma_dev = fpga_port_dma_dev(pf);
	struct device *dev = &pf->port->chardev;
	int ret;

	if (dma->length <= FPGA_PORT_DMA_MAX_SEGMENT &&
	    fpga_port_dma_pages_contiguous(dma->user.pages, dma->user.npages)) {
		dma->iova = dma_map_page(dma_dev, dma->user.pages[0], 0,
					 dma->length, dma->dir);
		if (dma_mapping_error(dma_dev, dma->iova)) {
			dev_dbg(dev, "dma map: the card cannot map %#llx bytes\n",
				dma->length);
			return -ENOMEM;
		}
		return 0;
	}

	ret = sg_alloc_table_from_pages_segment(&dma->user.sgt, dma->user.pages,
						dma->user.npages, 0,
						dma->length,
						FPGA_PORT_DMA_MAX_SEGMENT,
						GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret;
	ret = dma_map_sgtable(dma_dev, &dma->user.sgt, dma->dir, 0);
	if (ret) {
		dev_dbg(dev, "dma map: the card cannot map %#llx bytes: %d\n",
			dma->length, ret);
		goto err_free_table;
	}
	ret = fpga_port_dma_check_range(pf, &dma->user.sgt, dma->length,
					&dma->iova);
	if (ret)
		goto err_unmap;
	return 0;

err_unmap:
	dma_unmap_sgtable(dma_dev, &dma->user.sgt, dma->dir, 0);
err_free_table:
	sg_free_table(&dma->user.sgt);
	return ret;
}

static void fpga_port_dma_unmap_pages(struct device *dma_dev,
				      struct fpga_port_dma *dma)
{
	if (!dma->user.sgt.sgl) {
		dma_unmap_page(dma_dev, dma->iova, dma->length, dma->dir);
		return;
	}
	dma_unmap_sgtable(dma_dev, &dma->user.sgt, dma->dir, 0);
	sg_free_table(&dma->user.sgt);
}

/* Undo a mapping of user memory (its release op) */
static void fpga_port_dma_user_release(struct device *dma_dev,
				       struct fpga_port_dma *dma)
{
	fpga_port_dma_unmap_pages(dma_dev, dma);
	fpga_port_dma_unpin(dma);
}

/* Take a mapping of either kind out of the file's tree, and undo it */
void __fpga_port_dma_release(struct fpga_port_file *pf,
			     struct fpga_port_dma *dma)
{
	lockdep_assert_held(&pf->dma_lock);
	trace_dma_unmap(pf->port, dma);
	rb_erase(&dma->node, &pf->dma_maps);
	rb_erase(&dma->source_node, &pf->dma_sources);
	dma->release(fpga_port_dma_dev(pf), dma);
	kfree(dma);
}

/* DMA direction from the OFS flags of a map ioctl; 0 or -EINVAL */
int fpga_port_dma_dir(u32 flags, enum dma_data_direction *dir)
{
	switch (flags) {
	case 0:
	case FPGA_PORT_DMA_TO_DEV | FPGA_PORT_DMA_FROM_DEV:
		*dir = DMA_BIDIRECTIONAL;
		return 0;
	case FPGA_PORT_DMA_TO_DEV:
		*dir = DMA_TO_DEVICE;
		return 0;
	case FPGA_PORT_DMA_FROM_DEV:
		*dir = DMA_FROM_DEVICE;
		return 0;
	}
	return -EINVAL;
}
EXPORT_SYMBOL_FOR_FPGA_KUNIT(fpga_port_dma_dir);

/* Undo a mapping whose iova could not be told to user space */
void fpga_port_dma_map_undo(struct fpga_port_file *pf, u64 iova)
{
	struct fpga_port_dma *dma;
	int idx;

	if (fpga_port_hw_begin(pf->port, &idx))
		return;		/* unplug took it back */
	mutex_lock(&pf->dma_lock);
	dma = __fpga_port_dma_find(pf, iova);
	if (dma)
		__fpga_port_dma_release(pf, dma);
	mutex_unlock(&pf->dma_lock);
	fpga_port_hw_end(pf->port, idx);
}

/*
 * The pages are pinned before the unplug section, where a fault that
 * never resolves would hold up remove(), and before the file's lock,
 * which remove() takes; the overlap check and the mapping are made under
 * both.
 */
long fpga_port_ioctl_dma_map(struct fpga_port_file *pf, void __user *arg)
{
	unsigned long minsz = offsetofend(struct dfl_fpga_port_dma_map, iova);
	struct device *dev = &pf->port->chardev;
	struct dfl_fpga_port_dma_map map;
	struct fpga_port_dma *dma;
	int ret, idx;
	u64 end;

	if (copy_from_user(&map, arg, minsz))
		return -EFAULT;
	if (map.argsz < minsz)
		return -EINVAL;
	ret = fpga_port_hw_begin(pf->port, &idx);
	if (ret)
		return ret;
	ret = fpga_dfl_dma_permitted(pf->port->fdev, &pf->dma_grant, "DMA map");
	fpga_port_hw_end(pf->port, idx);
	if (ret)
		return ret;
	dma = kzalloc(sizeof(*dma), GFP_KERNEL_ACCOUNT);
	if (!dma)
		return -ENOMEM;
	ret = fpga_port_dma_dir(map.flags, &dma->dir);
	if (ret) {
		dev_dbg(dev, "dma map: unknown flags %#x\n", map.flags);
		goto err_free;
	}
	ret = -EINVAL;
	if (!map.length || !PAGE_ALIGNED(map.length) ||
	    !PAGE_ALIGNED(map.user_addr)) {
		dev_dbg(dev, "dma map: address %#llx and length %#llx must be non-zero multiples of the page size\n",
			map.user_addr, map.length);
		goto err_free;
	}
	if (check_add_overflow(map.user_addr, map.length, &end) ||
	    end > TASK_SIZE) {
		dev_dbg(dev, "dma map: %#llx + %#llx is outside the address space\n",
			map.user_addr, map.length);
		goto err_free;
	}
	dma->kind = FPGA_PORT_DMA_USER;
	dma->release = fpga_port_dma_user_release;
	dma->user.addr = map.user_addr;
	dma->length = map.length;
	dma->user.npages = map.length >> PAGE_SHIFT;
	/* Not even worth an allocation: more than the memory there is */
	if (dma->user.npages > totalram_pages()) {
		dev_dbg(dev, "dma map: %#llx bytes is more than the system's memory\n",
			map.length);
		ret = -ENOMEM;
		goto err_free;
	}

	ret = fpga_port_dma_pin(pf, dma);
	if (ret)
		goto err_free;
	ret = fpga_port_hw_begin(pf->port, &idx);
	if (ret)
		goto err_unpin;
	mutex_lock(&pf->dma_lock);
	if (__fpga_port_dma_overlaps(pf, map.user_addr, map.length)) {
		dev_dbg(dev, "dma map: %#llx + %#llx overlaps a mapped buffer\n",
			map.user_addr, map.length);
		ret = -EEXIST;
	} else {
		ret = fpga_port_dma_map_pages(pf, dma);
	}
	if (!ret)
		__fpga_port_dma_insert(pf, dma);
	mutex_unlock(&pf->dma_lock);
	fpga_port_hw_end(pf->port, idx);
	if (ret)
		goto err_unpin;

	map.iova = dma->iova;
	if (copy_to_user(arg, &map, minsz)) {
		fpga_port_dma_map_undo(pf, map.iova);
		return -EFAULT;
	}
	return 0;

err_unpin:
	fpga_port_dma_unpin(dma);
err_free:
	kfree(dma);
	return ret;
}

long fpga_port_ioctl_dma_unmap(struct fpga_port_file *pf, void __user *arg)
{
	unsigned long minsz = offsetofend(struct dfl_fpga_port_dma_unmap, iova);
	struct dfl_fpga_port_dma_unmap unmap;
	struct fpga_port_dma *dma;
	int ret, idx;

	if (copy_from_user(&unmap, arg, minsz))
		return -EFAULT;
	if (unmap.argsz < minsz || unmap.flags)
		return -EINVAL;

	ret = fpga_port_hw_begin(pf->port, &idx);
	if (ret)
		return ret;
	mutex_lock(&pf->dma_lock);
	dma = __fpga_port_dma_find(pf, unmap.iova);
	if (dma)
		__fpga_port_dma_release(pf, dma);
	mutex_unlock(&pf->dma_lock);
	fpga_port_hw_end(pf->port, idx);
	if (!dma) {
		dev_dbg(&pf->port->chardev,
			"dma unmap: iova %#llx was not mapped through this file\n",
			unmap.iova);
		return -EINVAL;
	}
	return 0;
}

/* Release every mapping of the file: after a reset once closed, on unplug */
void fpga_port_dma_unmap_all(struct fpga_port_file *pf)
{
	struct rb_node *node;

	mutex_lock(&pf->dma_lock);
	while ((node = rb_first(&pf->dma_maps)))
		__fpga_port_dma_release(pf, rb_entry(node, struct fpga_port_dma,
						     node));
	mutex_unlock(&pf->dma_lock);
}

/**
 * struct fpga_port_abandoned - mappings left to an AFU that did not stop
 * @ab:		the core's entry (fpga_dfl_port_abandon()); holds this module
 * @dma_dev:	the card's device they are mapped on, which the card keeps
 *		until the core has released them
 * @maps:	the mappings, by IOVA
 */
struct fpga_port_abandoned {
	struct fpga_dfl_abandoned ab;
	struct device *dma_dev;
	struct rb_root maps;
};

static bool fpga_port_dma_iova_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct fpga_port_dma, node)->iova <
	       rb_entry(b, struct fpga_port_dma, node)->iova;
}

/* The AFU stopped: unmap, unpin and uncharge them (the mm may be gone) */
static void fpga_port_abandoned_release(struct fpga_dfl_abandoned *ab)
{
	struct fpga_port_abandoned *pa =
		container_of(ab, struct fpga_port_abandoned, ab);
	struct rb_node *node;

	while ((node = rb_first(&pa->maps))) {
		struct fpga_port_dma *dma = rb_entry(node, struct fpga_port_dma,
						     node);

		rb_erase(node, &pa->maps);
		dma->release(pa->dma_dev, dma);
		kfree(dma);
	}
	kfree(pa);
}

/* Move a file's mappings to @pa; how many */
static unsigned long fpga_port_dma_abandon_file(struct fpga_port_file *pf,
						struct fpga_port_abandoned *pa)
{
	struct fpga_port_dma *dma;
	struct rb_node *node;
	unsigned long n = 0;

	mutex_lock(&pf->dma_lock);
	while ((node = rb_first(&pf->dma_maps))) {
		dma = rb_entry(node, struct fpga_port_dma, node);
		rb_erase(&dma->node, &pf->dma_maps);
		rb_erase(&dma->source_node, &pf->dma_sources);
		rb_add(&dma->node, &pa->maps, fpga_port_dma_iova_less);
		n++;
	}
	mutex_unlock(&pf->dma_lock);
	return n;
}

/**
 * __fpga_port_dma_abandon() - leave every mapping to an AFU that did not stop
 * @port: the port, being removed; port->lock held
 *
 * Its DMA may still reach these pages, so they stay pinned, charged and
 * mapped for the card, handed to the core, which keeps the port from a
 * new user until a reset of it succeeds, and releases them then.
 *
 * Return: how many mappings were left.
 */
unsigned long __fpga_port_dma_abandon(struct fpga_port *port)
{
	struct fpga_port_abandoned *pa;
	struct fpga_port_file *pf;
	unsigned long n = 0;

	lockdep_assert_held(&port->lock);
	/* A few bytes; failing would leave the mappings reachable */
	pa = kzalloc(sizeof(*pa), GFP_KERNEL | __GFP_NOFAIL);
	pa->maps = RB_ROOT;
	pa->dma_dev = port->fdev->dma_dev;
	list_for_each_entry(pf, &port->files, node)
		n += fpga_port_dma_abandon_file(pf, pa);
	list_for_each_entry(pf, &port->quarantine, node)
		n += fpga_port_dma_abandon_file(pf, pa);
	if (!n) {
		kfree(pa);
		return 0;
	}
	pa->ab.release = fpga_port_abandoned_release;
	/*
	 * Safe: a file with mappings is open (it holds this module) or
	 * quarantined (which does too)
	 */
	__module_get(THIS_MODULE);
	pa->ab.owner = THIS_MODULE;
	fpga_dfl_port_abandon(port->fdev, &pa->ab);
	return n;
}

/**
 * __fpga_port_dma_release_quarantine() - free what closed files mapped
 * @port: the port, its AFU stopped (reset, or in reset); port->lock held
 */
void __fpga_port_dma_release_quarantine(struct fpga_port *port)
{
	struct fpga_port_file *pf, *next;

	lockdep_assert_held(&port->lock);
	list_for_each_entry_safe(pf, next, &port->quarantine, node) {
		list_del(&pf->node);
		fpga_port_dma_unmap_all(pf);
		kfree(pf);
		/* Its callers keep the module: a file, the bound driver */
		module_put(THIS_MODULE);
	}
}
