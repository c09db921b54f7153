// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated card's device-side IOMMU: one domain per port, each the
 * struct dma_map_ops of that port's DMA device.  Drivers use only the DMA
 * API, as they would on hardware behind a real IOMMU; a port's DMA engine
 * sees only IOVAs, and only those of its own port's domain, as if each
 * port had its own requester id.
 *
 * Every mapping (a whole sg table, a page range, a coherent buffer) gets
 * one contiguous IOVA range, first fit in [4 GiB, 128 TiB), page granular,
 * followed by an unmapped guard page so that a DMA running off its end
 * faults.  The ranges live in a maple tree: map, unmap and the engine's
 * lookup are O(log n), and a mapping keeps an array of its pages.
 *
 * The engine translates and copies under the read side of the domain's
 * lock; unmapping takes the write side, so it waits for the chunk in
 * flight and the engine never touches a page after its mapping is gone.
 * All ops may sleep.
 *
 * A card made with the module's iommu parameter off has none of this: its
 * ports' DMA devices keep the kernel's direct mapping, which gives
 * physical bus addresses, and the engine reaches any page of memory, as a
 * card on a host without an IOMMU does.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/dma-map-ops.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "fpga-compat.h"
#include "sim.h"

/* IOVA space, in page numbers: [4 GiB, 128 TiB) */
#define FPGA_SIM_IOVA_FIRST	(SZ_4G >> PAGE_SHIFT)
#define FPGA_SIM_IOVA_LAST	((BIT_ULL(47) >> PAGE_SHIFT) - 1)
#define FPGA_SIM_IOVA_BITS	47

/**
 * struct fpga_sim_dma_map - one IOVA range
 * @first:	IOVA page number of its first page
 * @npages:	pages mapped; the tree holds one more, the guard page
 * @dir:	direction; a DMA_TO_DEVICE mapping is read-only for the card
 * @pages:	the page behind each IOVA page
 * @cpu_addr:	dma_alloc_coherent(): the buffer (vmalloc); else NULL
 */
struct fpga_sim_dma_map {
	unsigned long first;
	unsigned long npages;
	enum dma_data_direction dir;
	struct page **pages;
	void *cpu_addr;
};

static struct fpga_sim_dma_map *fpga_sim_map_alloc(unsigned long npages,
						   enum dma_data_direction dir)
{
	struct fpga_sim_dma_map *map;

	map = kzalloc(sizeof(*map), GFP_KERNEL);
	if (!map)
		return NULL;
	map->pages = kvmalloc_array(npages, sizeof(*map->pages), GFP_KERNEL);
	if (!map->pages) {
		kfree(map);
		return NULL;
	}
	map->npages = npages;
	map->dir = dir;
	return map;
}

static void fpga_sim_map_free(struct fpga_sim_dma_map *map)
{
	kvfree(map->pages);
	kfree(map);
}

static dma_addr_t fpga_sim_map_iova(struct fpga_sim_dma_map *map)
{
	return (dma_addr_t)map->first << PAGE_SHIFT;
}

/*
 * Give @map the first free IOVA range that fits it and its guard page.
 * (6.1's mtree_alloc_range() mishandles an empty tree: search the gap with
 * mas_empty_area() and insert under the write side, which keeps anyone
 * else from changing the tree in between.)
 */
static int fpga_sim_map_insert(struct fpga_sim_iommu *mmu,
			       struct fpga_sim_dma_map *map)
{
	int ret = -EIO;

	MA_STATE(mas, &mmu->tree, 0, 0);

	might_sleep();
	down_write(&mmu->lock);
	if (mmu->dead)
		goto out;
	mtree_lock(&mmu->tree);
	ret = mas_empty_area(&mas, FPGA_SIM_IOVA_FIRST, FPGA_SIM_IOVA_LAST,
			     map->npages + 1);
	mtree_unlock(&mmu->tree);
	if (ret) {
		ret = -ENOMEM;
		goto out;
	}
	map->first = mas.index;
	ret = mtree_insert_range(&mmu->tree, map->first,
				 map->first + map->npages, map, GFP_KERNEL);
	if (ret)
		ret = -ENOMEM;
out:
	up_write(&mmu->lock);
	return ret;
}

/* Take the mapping starting at @addr out of the tree; NULL if unknown */
static struct fpga_sim_dma_map *fpga_sim_map_remove(struct fpga_sim_iommu *mmu,
						    dma_addr_t addr,
						    void *cpu_addr)
{
	unsigned long pfn = addr >> PAGE_SHIFT;
	struct fpga_sim_dma_map *map = NULL;

	might_sleep();
	down_write(&mmu->lock);
	if (!mmu->dead && pfn >= FPGA_SIM_IOVA_FIRST &&
	    pfn <= FPGA_SIM_IOVA_LAST) {
		map = mtree_load(&mmu->tree, pfn);
		if (map && (map->first != pfn || map->cpu_addr != cpu_addr))
			map = NULL;
		if (map)
			mtree_erase(&mmu->tree, pfn);
	}
	up_write(&mmu->lock);
	if (!map)
		dev_err_ratelimited(&mmu->sim->dev,
				    "port %u: unmap of unknown IOVA %#llx\n",
				    mmu->port, (unsigned long long)addr);
	return map;
}

/* Append the pages of [@phys, @phys + @len) to @map's, from the @n-th */
static void fpga_sim_fill_pages(struct fpga_sim_dma_map *map, unsigned long *n,
				phys_addr_t phys, size_t len)
{
	unsigned long i, pfn = PHYS_PFN(phys);
	unsigned long count = PFN_UP(offset_in_page(phys) + len);

	for (i = 0; i < count; i++)
		map->pages[(*n)++] = pfn_to_page(pfn + i);
}

/* All entries merge into one IOVA range: one mapped segment */
static int fpga_sim_map_sg(struct device *dev, struct scatterlist *sgl,
			   int nents, enum dma_data_direction dir,
			   unsigned long attrs)
{
	struct fpga_sim_iommu *mmu = to_fpga_sim_iommu(dev);
	unsigned long npages = 0, n = 0;
	struct fpga_sim_dma_map *map;
	struct scatterlist *sg;
	u64 total = 0;
	int i, ret;

	if (nents <= 0)
		return -EINVAL;
	/* Only page boundaries may fall between entries, as on an IOMMU */
	for_each_sg(sgl, sg, nents, i) {
		size_t ofs = offset_in_page(sg->offset);

		if (!sg->length || (i && ofs) ||
		    (i < nents - 1 && !PAGE_ALIGNED(ofs + sg->length)))
			return -EINVAL;
		npages += PFN_UP(ofs + sg->length);
		total += sg->length;
	}
	if (total > UINT_MAX)
		return -EINVAL;

	map = fpga_sim_map_alloc(npages, dir);
	if (!map)
		return -ENOMEM;
	for_each_sg(sgl, sg, nents, i)
		fpga_sim_fill_pages(map, &n, sg_phys(sg), sg->length);
	ret = fpga_sim_map_insert(mmu, map);
	if (ret) {
		fpga_sim_map_free(map);
		return ret;
	}

	for_each_sg(sgl, sg, nents, i) {
		sg_dma_address(sg) = DMA_MAPPING_ERROR;
		sg_dma_len(sg) = 0;
	}
	sg_dma_address(sgl) = fpga_sim_map_iova(map) + offset_in_page(sgl->offset);
	sg_dma_len(sgl) = total;
	return 1;
}

static void fpga_sim_unmap_sg(struct device *dev, struct scatterlist *sgl,
			      int nents, enum dma_data_direction dir,
			      unsigned long attrs)
{
	struct fpga_sim_dma_map *map;

	map = fpga_sim_map_remove(to_fpga_sim_iommu(dev), sg_dma_address(sgl), NULL);
	if (map)
		fpga_sim_map_free(map);
}

/* The engine copies through struct pages: RAM only, not MMIO */
static dma_addr_t fpga_sim_map_phys(struct device *dev, phys_addr_t phys,
				    size_t size, enum dma_data_direction dir,
				    unsigned long attrs)
{
	struct fpga_sim_dma_map *map;
	unsigned long n = 0;

	if (!size || (attrs & DMA_ATTR_MMIO))
		return DMA_MAPPING_ERROR;
	map = fpga_sim_map_alloc(PFN_UP(offset_in_page(phys) + size), dir);
	if (!map)
		return DMA_MAPPING_ERROR;
	fpga_sim_fill_pages(map, &n, phys, size);
	if (fpga_sim_map_insert(to_fpga_sim_iommu(dev), map)) {
		fpga_sim_map_free(map);
		return DMA_MAPPING_ERROR;
	}
	return fpga_sim_map_iova(map) + offset_in_page(phys);
}

FPGA_COMPAT_DEFINE_DMA_MAP_PAGE(fpga_sim_map_phys);

static void fpga_sim_unmap_phys(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir,
				unsigned long attrs)
{
	struct fpga_sim_dma_map *map;

	map = fpga_sim_map_remove(to_fpga_sim_iommu(dev), addr, NULL);
	if (map)
		fpga_sim_map_free(map);
}

/* Coherent memory: zeroed vmalloc pages behind one IOVA range */
static void *fpga_sim_alloc(struct device *dev, size_t size,
			    dma_addr_t *dma_handle, gfp_t gfp,
			    unsigned long attrs)
{
	struct fpga_sim_dma_map *map;
	unsigned long i;
	void *cpu_addr;

	if (!size || !gfpflags_allow_blocking(gfp))
		return NULL;
	size = PAGE_ALIGN(size);
	map = fpga_sim_map_alloc(size >> PAGE_SHIFT, DMA_BIDIRECTIONAL);
	if (!map)
		return NULL;
	cpu_addr = vmalloc_user(size);
	if (!cpu_addr)
		goto err_free_map;
	for (i = 0; i < map->npages; i++)
		map->pages[i] = vmalloc_to_page(cpu_addr + i * PAGE_SIZE);
	map->cpu_addr = cpu_addr;
	if (fpga_sim_map_insert(to_fpga_sim_iommu(dev), map))
		goto err_free_buf;
	*dma_handle = fpga_sim_map_iova(map);
	return cpu_addr;

err_free_buf:
	vfree(cpu_addr);
err_free_map:
	fpga_sim_map_free(map);
	return NULL;
}

static void fpga_sim_free(struct device *dev, size_t size, void *cpu_addr,
			  dma_addr_t dma_handle, unsigned long attrs)
{
	struct fpga_sim_dma_map *map;

	map = fpga_sim_map_remove(to_fpga_sim_iommu(dev), dma_handle, cpu_addr);
	if (!map)
		return;
	vfree(cpu_addr);
	fpga_sim_map_free(map);
}

static int fpga_sim_mmap(struct device *dev, struct vm_area_struct *vma,
			 void *cpu_addr, dma_addr_t dma_addr, size_t size,
			 unsigned long attrs)
{
	unsigned long pages = PFN_UP(size);

	if (vma->vm_pgoff >= pages || vma_pages(vma) > pages - vma->vm_pgoff)
		return -ENXIO;
	return remap_vmalloc_range(vma, cpu_addr, vma->vm_pgoff);
}

static int fpga_sim_get_sgtable(struct device *dev, struct sg_table *sgt,
				void *cpu_addr, dma_addr_t dma_addr,
				size_t size, unsigned long attrs)
{
	struct fpga_sim_iommu *mmu = to_fpga_sim_iommu(dev);
	struct fpga_sim_dma_map *map;
	int ret = -ENXIO;

	down_read(&mmu->lock);
	map = mtree_load(&mmu->tree, dma_addr >> PAGE_SHIFT);
	if (map && map->cpu_addr == cpu_addr &&
	    PFN_UP(size) <= map->npages)
		ret = sg_alloc_table_from_pages(sgt, map->pages, PFN_UP(size),
						0, size, GFP_KERNEL);
	up_read(&mmu->lock);
	return ret;
}

/* IOVAs are below 2^47 */
static int fpga_sim_dma_supported(struct device *dev, u64 mask)
{
	return mask >= DMA_BIT_MASK(FPGA_SIM_IOVA_BITS);
}

const struct dma_map_ops fpga_sim_dma_ops = {
	.alloc		= fpga_sim_alloc,
	.free		= fpga_sim_free,
	.mmap		= fpga_sim_mmap,
	.get_sgtable	= fpga_sim_get_sgtable,
	FPGA_COMPAT_DMA_MAP_PHYS(fpga_sim_map_phys, fpga_sim_unmap_phys)
	.map_sg		= fpga_sim_map_sg,
	.unmap_sg	= fpga_sim_unmap_sg,
	.dma_supported	= fpga_sim_dma_supported,
};

/**
 * fpga_sim_dma_page() - translate the cursor's IOVA for a port's engine
 * @mmu: the port's domain
 * @cur: where the engine is; @cur->map caches the last mapping
 * @write: the engine will write there
 * @ofs: out: offset of @cur->iova in the page
 *
 * Caller holds fpga_sim_dma_begin().
 *
 * Return: the page, or NULL for a DMA fault (unmapped in this domain,
 * guard page, or a write to a DMA_TO_DEVICE mapping).
 */
struct page *fpga_sim_dma_page(struct fpga_sim_iommu *mmu,
			       struct fpga_sim_dma_cursor *cur, bool write,
			       size_t *ofs)
{
	unsigned long pfn = cur->iova >> PAGE_SHIFT;
	struct fpga_sim_dma_map *map = cur->map;

	lockdep_assert_held_read(&mmu->lock);
	if (!mmu->sim->translated) {
		/* No IOMMU: the address is physical, any page is reachable */
		if (!pfn_valid(pfn))
			return NULL;
		*ofs = offset_in_page(cur->iova);
		return pfn_to_page(pfn);
	}
	if (!map || pfn - map->first >= map->npages) {
		map = NULL;
		if (pfn >= FPGA_SIM_IOVA_FIRST && pfn <= FPGA_SIM_IOVA_LAST)
			map = mtree_load(&mmu->tree, pfn);
		cur->map = map;
		if (!map || pfn - map->first >= map->npages)
			return NULL;
	}
	if (write && map->dir == DMA_TO_DEVICE)
		return NULL;
	*ofs = offset_in_page(cur->iova);
	return map->pages[pfn - map->first];
}

void fpga_sim_dma_begin(struct fpga_sim_iommu *mmu)
{
	down_read(&mmu->lock);
}

void fpga_sim_dma_end(struct fpga_sim_iommu *mmu)
{
	up_read(&mmu->lock);
}

static void fpga_sim_iommu_release(struct device *dev)
{
	kfree(to_fpga_sim_iommu(dev));
}

/* Drop every mapping left, refuse new ones, and let the domain go */
static void fpga_sim_iommu_put(struct fpga_sim_iommu *mmu)
{
	struct fpga_sim_dma_map *map;
	unsigned long index = 0, left = 0;

	down_write(&mmu->lock);
	mmu->dead = true;
	mt_for_each(&mmu->tree, map, index, ULONG_MAX) {
		vfree(map->cpu_addr);
		fpga_sim_map_free(map);
		left++;
	}
	mtree_destroy(&mmu->tree);
	up_write(&mmu->lock);
	if (left)
		dev_err(&mmu->sim->dev, "port %u: %lu DMA mappings were left at removal\n",
			mmu->port, left);
	put_device(&mmu->dev);
}

/* Port @n's DMA device, with its own domain (or the direct mapping) */
static struct fpga_sim_iommu *fpga_sim_iommu_new(struct fpga_sim *sim,
						 unsigned int n)
{
	struct fpga_sim_iommu *mmu;

	mmu = kzalloc(sizeof(*mmu), GFP_KERNEL);
	if (!mmu)
		return NULL;
	mmu->sim = sim;
	mmu->port = n;
	init_rwsem(&mmu->lock);
	mt_init_flags(&mmu->tree, MT_FLAGS_ALLOC_RANGE);
	/* Never added: a DMA device only, which the port's drivers use */
	device_initialize(&mmu->dev);
	mmu->dev.release = fpga_sim_iommu_release;
	if (dev_set_name(&mmu->dev, "%s-port%u-dma", dev_name(&sim->dev), n)) {
		put_device(&mmu->dev);
		return NULL;
	}
	mmu->dma_mask = DMA_BIT_MASK(sim->translated ? 48 : 64);
	mmu->dev.dma_mask = &mmu->dma_mask;
	mmu->dev.coherent_dma_mask = mmu->dma_mask;
	mmu->dev.dma_parms = &mmu->dma_parms;
	dma_set_max_seg_size(&mmu->dev, UINT_MAX);
	if (sim->translated)
		set_dma_ops(&mmu->dev, &fpga_sim_dma_ops);
	return mmu;
}

/**
 * fpga_sim_iommu_init() - an empty domain for each port
 * @sim: the card
 *
 * Before fpga_dfl_card_add(): the ports' drivers map through them.
 *
 * Return: 0 or -ENOMEM (nothing is left allocated).
 */
int fpga_sim_iommu_init(struct fpga_sim *sim)
{
	unsigned int n;

	for (n = 0; n < sim->num_ports; n++) {
		sim->ports[n].iommu = fpga_sim_iommu_new(sim, n);
		if (!sim->ports[n].iommu) {
			fpga_sim_iommu_fini(sim);
			return -ENOMEM;
		}
		sim->dma_devs[n] = &sim->ports[n].iommu->dev;
	}
	return 0;
}

/**
 * fpga_sim_iommu_fini() - drop every mapping left and the domains
 * @sim: the card
 *
 * After fpga_dfl_card_remove() and once the model has stopped: drivers
 * have unmapped what they mapped, and no engine translates any more.
 * What is left is reported and freed.
 */
void fpga_sim_iommu_fini(struct fpga_sim *sim)
{
	unsigned int n;

	for (n = 0; n < sim->num_ports; n++) {
		if (!sim->ports[n].iommu)
			continue;
		fpga_sim_iommu_put(sim->ports[n].iommu);
		sim->ports[n].iommu = NULL;
		sim->dma_devs[n] = NULL;
	}
}
