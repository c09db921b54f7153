// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite fpga_port_dma: the bookkeeping of DMA mappings (port-dma.c)
 * without pinning or mapping anything: each file's own tree of mappings
 * (ownership), the overlap check, the DMA direction from the map flags,
 * whether pinned pages are one physical run (mapped without a scatter
 * table), the one-range check of a mapped table, and the locked-memory
 * charge.
 */
#include <kunit/test.h>
#include <linux/dma-buf.h>
#include <linux/fpga-suite.h>
#include <linux/mm_types.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/sched/user.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "../port.h"

struct port_dma_kunit {
	struct fpga_port port;
	struct fpga_port_file files[2];
};

static int port_dma_init(struct kunit *test)
{
	struct port_dma_kunit *t;
	unsigned int i;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->port.chardev.init_name = "fpga_port_kunit";
	for (i = 0; i < ARRAY_SIZE(t->files); i++) {
		t->files[i].port = &t->port;
		mutex_init(&t->files[i].dma_lock);
		t->files[i].dma_maps = RB_ROOT;
		t->files[i].dma_sources = RB_ROOT;
	}
	test->priv = t;
	return 0;
}

/* A user mapping of [addr, addr + len) at @iova, in @pf's tree */
static struct fpga_port_dma *add_user(struct kunit *test,
				      struct fpga_port_file *pf,
				      u64 iova, u64 addr, u64 len)
{
	struct fpga_port_dma *dma = kunit_kzalloc(test, sizeof(*dma),
						  GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, dma);
	dma->kind = FPGA_PORT_DMA_USER;
	dma->iova = iova;
	dma->length = len;
	dma->user.addr = addr;
	dma->user.npages = len >> PAGE_SHIFT;
	mutex_lock(&pf->dma_lock);
	__fpga_port_dma_insert(pf, dma);
	mutex_unlock(&pf->dma_lock);
	return dma;
}

static struct fpga_port_dma *find(struct fpga_port_file *pf, u64 iova)
{
	struct fpga_port_dma *dma;

	mutex_lock(&pf->dma_lock);
	dma = __fpga_port_dma_find(pf, iova);
	mutex_unlock(&pf->dma_lock);
	return dma;
}

static bool overlaps(struct fpga_port_file *pf, u64 addr, u64 len)
{
	bool ret;

	mutex_lock(&pf->dma_lock);
	ret = __fpga_port_dma_overlaps(pf, addr, len);
	mutex_unlock(&pf->dma_lock);
	return ret;
}

static void port_dma_dir(struct kunit *test)
{
	enum dma_data_direction dir = DMA_NONE;

	KUNIT_EXPECT_EQ(test, fpga_port_dma_dir(0, &dir), 0);
	KUNIT_EXPECT_EQ(test, dir, DMA_BIDIRECTIONAL);
	dir = DMA_NONE;
	KUNIT_EXPECT_EQ(test, fpga_port_dma_dir(FPGA_PORT_DMA_TO_DEV |
						FPGA_PORT_DMA_FROM_DEV, &dir), 0);
	KUNIT_EXPECT_EQ(test, dir, DMA_BIDIRECTIONAL);
	KUNIT_EXPECT_EQ(test, fpga_port_dma_dir(FPGA_PORT_DMA_TO_DEV, &dir), 0);
	KUNIT_EXPECT_EQ(test, dir, DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, fpga_port_dma_dir(FPGA_PORT_DMA_FROM_DEV, &dir), 0);
	KUNIT_EXPECT_EQ(test, dir, DMA_FROM_DEVICE);

	/* Unknown bits, alone or with known ones, are refused */
	dir = DMA_NONE;
	KUNIT_EXPECT_EQ(test, fpga_port_dma_dir(BIT(2), &dir), -EINVAL);
	KUNIT_EXPECT_EQ(test, fpga_port_dma_dir(FPGA_PORT_DMA_TO_DEV | BIT(31),
						&dir), -EINVAL);
	KUNIT_EXPECT_EQ(test, fpga_port_dma_dir(U32_MAX, &dir), -EINVAL);
	KUNIT_EXPECT_EQ(test, dir, DMA_NONE);
}

static void port_dma_find(struct kunit *test)
{
	struct port_dma_kunit *t = test->priv;
	struct fpga_port_file *pf = &t->files[0];
	struct fpga_port_dma *a, *b, *c;
	struct rb_node *node;
	u64 last = 0;
	int n = 0;

	b = add_user(test, pf, 0x200000, 0x7f0000002000, 0x2000);
	a = add_user(test, pf, 0x100000, 0x7f0000000000, 0x1000);
	c = add_user(test, pf, 0x300000, 0x7f0000008000, 0x1000);

	KUNIT_EXPECT_PTR_EQ(test, find(pf, 0x100000), a);
	KUNIT_EXPECT_PTR_EQ(test, find(pf, 0x200000), b);
	KUNIT_EXPECT_PTR_EQ(test, find(pf, 0x300000), c);
	/* Only the start of a mapping names it */
	KUNIT_EXPECT_NULL(test, find(pf, 0x201000));
	KUNIT_EXPECT_NULL(test, find(pf, 0));
	KUNIT_EXPECT_NULL(test, find(pf, 0x400000));

	/* In IOVA order */
	for (node = rb_first(&pf->dma_maps); node; node = rb_next(node)) {
		struct fpga_port_dma *dma = rb_entry(node, struct fpga_port_dma,
						     node);

		KUNIT_EXPECT_GT(test, dma->iova, last);
		last = dma->iova;
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 3);
}

static void port_dma_ownership(struct kunit *test)
{
	struct port_dma_kunit *t = test->priv;
	struct fpga_port_file *mine = &t->files[0], *other = &t->files[1];
	struct fpga_port_dma *dma;

	/* A mapping belongs to the file that made it: no other file finds it */
	dma = add_user(test, mine, 0x100000, 0x7f0000000000, 0x4000);
	KUNIT_EXPECT_PTR_EQ(test, find(mine, 0x100000), dma);
	KUNIT_EXPECT_NULL(test, find(other, 0x100000));
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&other->dma_maps));

	/* The other file may map the same memory (its own mapping) */
	KUNIT_EXPECT_TRUE(test, overlaps(mine, 0x7f0000000000, 0x1000));
	KUNIT_EXPECT_FALSE(test, overlaps(other, 0x7f0000000000, 0x1000));
	add_user(test, other, 0x100000, 0x7f0000000000, 0x4000);
	KUNIT_EXPECT_PTR_EQ(test, find(mine, 0x100000), dma);
	KUNIT_EXPECT_NE(test, (unsigned long)find(other, 0x100000),
			(unsigned long)dma);
}

static void port_dma_overlap(struct kunit *test)
{
	struct port_dma_kunit *t = test->priv;
	struct fpga_port_file *pf = &t->files[0];
	struct fpga_port_dma *buf;
	const u64 base = 0x7f0000010000;

	add_user(test, pf, 0x100000, base, 0x4000);
	/* Adjacent below and above: no overlap */
	KUNIT_EXPECT_FALSE(test, overlaps(pf, base - 0x4000, 0x4000));
	KUNIT_EXPECT_FALSE(test, overlaps(pf, base + 0x4000, 0x1000));
	/* First page, last page, inside, around */
	KUNIT_EXPECT_TRUE(test, overlaps(pf, base - 0x1000, 0x2000));
	KUNIT_EXPECT_TRUE(test, overlaps(pf, base + 0x3000, 0x2000));
	KUNIT_EXPECT_TRUE(test, overlaps(pf, base + 0x1000, 0x1000));
	KUNIT_EXPECT_TRUE(test, overlaps(pf, base - 0x8000, 0x10000));

	/* A dma-buf mapping has no user address: it never overlaps */
	buf = kunit_kzalloc(test, sizeof(*buf), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	buf->kind = FPGA_PORT_DMA_DMABUF;
	buf->iova = 0x900000;
	buf->length = 0x100000;
	mutex_lock(&pf->dma_lock);
	__fpga_port_dma_insert(pf, buf);
	mutex_unlock(&pf->dma_lock);
	KUNIT_EXPECT_FALSE(test, overlaps(pf, 0, 0x100000));
	KUNIT_EXPECT_FALSE(test, overlaps(pf, base + 0x4000, 0x100000));
	KUNIT_EXPECT_PTR_EQ(test, find(pf, 0x900000), buf);
}

static struct fpga_port_dma *source_below(struct fpga_port_file *pf,
					  enum fpga_port_dma_kind kind, u64 key)
{
	struct fpga_port_dma *dma;

	mutex_lock(&pf->dma_lock);
	dma = __fpga_port_dma_source_below(pf, kind, key);
	mutex_unlock(&pf->dma_lock);
	return dma;
}

/*
 * The overlap check walks one path of the tree of sources: it must still
 * see every buffer, inserted in any order, with the neighbours on both
 * sides; and a dma-buf is found by identity, apart from user memory.
 */
static void port_dma_sources(struct kunit *test)
{
	static struct dma_buf bufs[2];
	struct port_dma_kunit *t = test->priv;
	struct fpga_port_file *pf = &t->files[0];
	const u64 base = 0x7f0000100000;
	struct fpga_port_dma *buf, *below;
	unsigned int i, k;

	/* Eight buffers of 0x4000, 0x4000 apart, inserted out of order */
	for (i = 0; i < 8; i++) {
		k = (i * 5) % 8;
		add_user(test, pf, 0x100000 + k * 0x10000, base + k * 0x8000,
			 0x4000);
	}
	for (k = 0; k < 8; k++) {
		u64 start = base + k * 0x8000;

		KUNIT_EXPECT_TRUE(test, overlaps(pf, start + 0x3000, 0x1000));
		KUNIT_EXPECT_FALSE(test, overlaps(pf, start + 0x4000, 0x4000));
		/* The gap and the next buffer's first page (none after 7) */
		KUNIT_EXPECT_EQ(test, overlaps(pf, start + 0x4000, 0x5000),
				k < 7);
		below = source_below(pf, FPGA_PORT_DMA_USER, start + 1);
		KUNIT_ASSERT_NOT_NULL(test, below);
		KUNIT_EXPECT_EQ(test, below->user.addr, start);
	}
	KUNIT_EXPECT_NULL(test, source_below(pf, FPGA_PORT_DMA_USER, base));
	KUNIT_EXPECT_TRUE(test, overlaps(pf, 0, U64_MAX));

	buf = kunit_kzalloc(test, sizeof(*buf), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	buf->kind = FPGA_PORT_DMA_DMABUF;
	buf->iova = 0x900000;
	buf->length = 0x1000;
	buf->dmabuf.buf = &bufs[1];
	mutex_lock(&pf->dma_lock);
	__fpga_port_dma_insert(pf, buf);
	mutex_unlock(&pf->dma_lock);
	KUNIT_EXPECT_PTR_EQ(test, source_below(pf, FPGA_PORT_DMA_DMABUF,
					       (uintptr_t)&bufs[1] + 1), buf);
	KUNIT_EXPECT_NULL(test, source_below(pf, FPGA_PORT_DMA_DMABUF,
					     (uintptr_t)&bufs[1]));
	/* The user buffers are as they were */
	below = source_below(pf, FPGA_PORT_DMA_USER, U64_MAX);
	KUNIT_ASSERT_NOT_NULL(test, below);
	KUNIT_EXPECT_EQ(test, below->user.addr, base + 7 * 0x8000);
}

/* Is a pin one physical run, to be mapped with one dma_map_page()? */
static void port_dma_pages_contiguous(struct kunit *test)
{
	struct page *block, *pages[4];
	unsigned int i;

	block = alloc_pages(GFP_KERNEL, 2);
	KUNIT_ASSERT_NOT_NULL(test, block);
	for (i = 0; i < ARRAY_SIZE(pages); i++)
		pages[i] = nth_page(block, i);

	KUNIT_EXPECT_TRUE(test, fpga_port_dma_pages_contiguous(pages, 4));
	KUNIT_EXPECT_TRUE(test, fpga_port_dma_pages_contiguous(&block, 1));
	/* So is any stretch of one */
	KUNIT_EXPECT_TRUE(test, fpga_port_dma_pages_contiguous(pages + 1, 3));

	/* A gap before the last page: the walk must not stop one short */
	pages[3] = block;
	KUNIT_EXPECT_FALSE(test, fpga_port_dma_pages_contiguous(pages, 4));
	KUNIT_EXPECT_TRUE(test, fpga_port_dma_pages_contiguous(pages, 3));
	pages[3] = nth_page(block, 3);

	/* Every page of the block, out of order */
	swap(pages[0], pages[1]);
	KUNIT_EXPECT_FALSE(test, fpga_port_dma_pages_contiguous(pages, 4));
	KUNIT_EXPECT_FALSE(test, fpga_port_dma_pages_contiguous(pages, 2));
	__free_pages(block, 2);
}

/* A table of @n entries as the card mapped them: @iova[i], @len[i] */
static struct sg_table *mapped_table(struct kunit *test, unsigned int n,
				     const u64 *iova, const unsigned int *len)
{
	struct sg_table *sgt = kunit_kzalloc(test, sizeof(*sgt), GFP_KERNEL);
	struct scatterlist *sg;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, sgt);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(sgt, n, GFP_KERNEL), 0);
	for_each_sgtable_sg(sgt, sg, i) {
		sg_dma_address(sg) = iova[i];
		sg_dma_len(sg) = len[i];
	}
	sgt->nents = n;
	return sgt;
}

static void port_dma_check_range(struct kunit *test)
{
	static const u64 one[] = { 0x100000, 0x103000, 0x104000 };
	static const u64 gap[] = { 0x100000, 0x104000, 0x105000 };
	static const unsigned int lens[] = { 0x3000, 0x1000, 0x2000 };
	struct port_dma_kunit *t = test->priv;
	struct fpga_port_file *pf = &t->files[0];
	struct sg_table *sgt;
	u64 iova = 0;

	/* One device-contiguous range, as long as the buffer */
	sgt = mapped_table(test, 3, one, lens);
	KUNIT_EXPECT_EQ(test, fpga_port_dma_check_range(pf, sgt, 0x6000, &iova), 0);
	KUNIT_EXPECT_EQ(test, iova, 0x100000);
	/* The card mapped less (or more) than the buffer */
	KUNIT_EXPECT_EQ(test, fpga_port_dma_check_range(pf, sgt, 0x7000, &iova),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, fpga_port_dma_check_range(pf, sgt, 0x5000, &iova),
			-EINVAL);
	sg_free_table(sgt);

	/* In pieces (no IOMMU): refused */
	sgt = mapped_table(test, 3, gap, lens);
	KUNIT_EXPECT_EQ(test, fpga_port_dma_check_range(pf, sgt, 0x6000, &iova),
			-EINVAL);
	sg_free_table(sgt);
}

/*
 * Stand-ins for a process's mm and its user: the charge uses only the
 * mm's pinned_vm and mm_count and the user's locked_vm and reference
 * count.  Each starts with one reference that the test keeps, so neither
 * is ever freed as the real thing.
 */
static struct mm_struct *fake_mm(struct kunit *test)
{
	struct mm_struct *mm;

	mm = kunit_kzalloc(test, sizeof(*mm) + cpumask_size(), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mm);
	atomic_set(&mm->mm_count, 1);
	return mm;
}

static struct user_struct *fake_user(struct kunit *test)
{
	struct user_struct *user;

	user = kunit_kzalloc(test, sizeof(*user), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, user);
	refcount_set(&user->__count, 1);
	return user;
}

static void port_dma_accounting(struct kunit *test)
{
	struct mm_struct *parent = fake_mm(test), *child = fake_mm(test);
	struct fpga_port_dma a = { .kind = FPGA_PORT_DMA_USER };
	struct fpga_port_dma b = { .kind = FPGA_PORT_DMA_USER };
	struct fpga_port_dma c = { .kind = FPGA_PORT_DMA_USER };
	struct user_struct *user = fake_user(test);

	a.user.npages = 16;
	b.user.npages = 4;
	c.user.npages = 1;

	/*
	 * Two processes of one user share its budget of 20 pages: a fork
	 * does not get a fresh one.  Each process shows its own pages.
	 */
	KUNIT_ASSERT_EQ(test, fpga_port_dma_charge(&a, parent, user, 20), 0);
	KUNIT_ASSERT_EQ(test, fpga_port_dma_charge(&b, child, user, 20), 0);
	KUNIT_EXPECT_EQ(test, fpga_port_dma_charge(&c, child, user, 20),
			-ENOMEM);
	KUNIT_EXPECT_NULL(test, c.user.mm);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&user->locked_vm), 20);
	KUNIT_EXPECT_EQ(test, refcount_read(&user->__count), 3);
	KUNIT_EXPECT_EQ(test, atomic64_read(&parent->pinned_vm), 16);
	KUNIT_EXPECT_EQ(test, atomic64_read(&child->pinned_vm), 4);
	KUNIT_EXPECT_EQ(test, atomic_read(&parent->mm_count), 2);

	/* Exempt (CAP_IPC_LOCK): shown, not counted against anyone */
	KUNIT_ASSERT_EQ(test, fpga_port_dma_charge(&c, child, NULL, 20), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&user->locked_vm), 20);
	KUNIT_EXPECT_EQ(test, atomic64_read(&child->pinned_vm), 5);

	/*
	 * Uncharged from those charged whoever unmaps (here a kernel thread
	 * with no mm of its own)
	 */
	KUNIT_EXPECT_NULL(test, current->mm);
	fpga_port_dma_uncharge(&a);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&user->locked_vm), 4);
	KUNIT_EXPECT_EQ(test, atomic64_read(&parent->pinned_vm), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&parent->mm_count), 1);
	KUNIT_EXPECT_NULL(test, a.user.mm);
	KUNIT_EXPECT_NULL(test, a.user.account);
	fpga_port_dma_uncharge(&b);
	fpga_port_dma_uncharge(&c);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&user->locked_vm), 0);
	KUNIT_EXPECT_EQ(test, refcount_read(&user->__count), 1);
	KUNIT_EXPECT_EQ(test, atomic64_read(&child->pinned_vm), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&child->mm_count), 1);
}

static struct kunit_case port_dma_cases[] = {
	KUNIT_CASE(port_dma_dir),
	KUNIT_CASE(port_dma_find),
	KUNIT_CASE(port_dma_ownership),
	KUNIT_CASE(port_dma_overlap),
	KUNIT_CASE(port_dma_sources),
	KUNIT_CASE(port_dma_pages_contiguous),
	KUNIT_CASE(port_dma_check_range),
	KUNIT_CASE(port_dma_accounting),
	{}
};

static struct kunit_suite port_dma_suite = {
	.name = "fpga_port_dma",
	.init = port_dma_init,
	.test_cases = port_dma_cases,
};

kunit_test_suite(port_dma_suite);
