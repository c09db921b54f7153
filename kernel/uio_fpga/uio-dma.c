// SPDX-License-Identifier: GPL-2.0-only
/*
 * DMA buffers that the kernel allocates for a port bound to uio_fpga, one
 * UIO map each, as uio_dmem_genirq does: the map's addr is the device
 * (bus) address the AFU is given, and user space maps the memory through
 * the same map.  They come from dma_alloc_coherent() on the card's DMA
 * device, so behind an IOMMU (the simulated card has one) they are mapped
 * for the card and nothing else is.
 *
 * The fault handler needs the page frames, which the DMA API gives only
 * through dma_get_sgtable(): they are collected once, at allocation.
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "uio-fpga.h"

unsigned int uio_fpga_dma_buffers = UIO_FPGA_MAX_DMA;
module_param_named(dma_buffers, uio_fpga_dma_buffers, uint, 0644);
MODULE_PARM_DESC(dma_buffers,
		 "DMA buffers per port, 0-3 (UIO has 5 maps; default 3), read at bind");

unsigned long uio_fpga_dma_size = SZ_2M;
module_param_named(dma_size, uio_fpga_dma_size, ulong, 0644);
MODULE_PARM_DESC(dma_size,
		 "Bytes per DMA buffer, rounded up to pages, at most 1 GiB (default 2 MiB), read at bind");

#define UIO_FPGA_DMA_MAX_SIZE	SZ_1G

/* Page frames of a coherent buffer, through the DMA API */
static int uio_fpga_dma_pfns(struct device *dma_dev, struct uio_fpga_map *map)
{
	unsigned long n = 0, npages = map->size >> PAGE_SHIFT;
	struct sg_page_iter iter;
	struct sg_table sgt;
	int ret;

	ret = dma_get_sgtable(dma_dev, &sgt, map->cpu_addr, map->dma_addr,
			      map->size);
	if (ret)
		return ret;
	map->pfns = kvmalloc_array(npages, sizeof(*map->pfns), GFP_KERNEL);
	if (!map->pfns) {
		ret = -ENOMEM;
		goto out;
	}
	for_each_sgtable_page(&sgt, &iter, 0) {
		if (n == npages)
			break;
		map->pfns[n++] = page_to_pfn(sg_page_iter_page(&iter));
	}
	if (n != npages) {
		kvfree(map->pfns);
		map->pfns = NULL;
		ret = -EIO;
	}
out:
	sg_free_table(&sgt);
	return ret;
}

static void uio_fpga_dma_free_one(struct uio_fpga *uf, struct uio_fpga_map *map)
{
	kvfree(map->pfns);
	map->pfns = NULL;
	dma_free_coherent(uf->fdev->dma_dev, map->size, map->cpu_addr,
			  map->dma_addr);
	map->cpu_addr = NULL;
}

/**
 * uio_fpga_dma_alloc() - allocate the DMA buffers and describe their maps
 * @uf: the device; @uf->fdev is set
 *
 * Return: 0 or -errno (nothing is left allocated).
 */
int uio_fpga_dma_alloc(struct uio_fpga *uf)
{
	unsigned int count = READ_ONCE(uio_fpga_dma_buffers);
	size_t size = PAGE_ALIGN(READ_ONCE(uio_fpga_dma_size));
	struct device *dev = &uf->fdev->dev;
	unsigned int i;
	int ret;

	if (count > UIO_FPGA_MAX_DMA || (count && !size) ||
	    size > UIO_FPGA_DMA_MAX_SIZE) {
		dev_err(dev, "dma_buffers %u / dma_size %zu: at most %u buffers of 1 page to 1 GiB\n",
			count, size, UIO_FPGA_MAX_DMA);
		return -EINVAL;
	}
	for (i = 0; i < count; i++) {
		struct uio_fpga_map *map = &uf->maps[UIO_FPGA_MAP_DMA0 + i];
		struct uio_mem *mem = &uf->info.mem[UIO_FPGA_MAP_DMA0 + i];

		map->size = size;
		map->dma = true;
		map->writable = true;
		map->cpu_addr = dma_alloc_coherent(uf->fdev->dma_dev, size,
						   &map->dma_addr, GFP_KERNEL);
		if (!map->cpu_addr) {
			ret = -ENOMEM;
			goto err_free;
		}
		ret = uio_fpga_dma_pfns(uf->fdev->dma_dev, map);
		if (ret) {
			dev_err(dev, "DMA buffer %u: no page list (%d)\n", i,
				ret);
			dma_free_coherent(uf->fdev->dma_dev, size,
					  map->cpu_addr, map->dma_addr);
			map->cpu_addr = NULL;
			goto err_free;
		}
		snprintf(uf->names[map->index], sizeof(uf->names[0]), "dma%u",
			 i);
		mem->name = uf->names[map->index];
		mem->addr = map->dma_addr;
		mem->size = size;
		/* Not mapped by the UIO core: uio_fpga_mmap() does it */
		mem->memtype = UIO_MEM_IOVA;
		uf->num_dma = i + 1;
	}
	return 0;

err_free:
	uio_fpga_dma_free(uf);
	return ret;
}

/**
 * uio_fpga_dma_free() - free the DMA buffers
 * @uf: the device
 *
 * Only once user mappings are revoked and the AFU is stopped (port reset):
 * the card must not write into memory that goes back to the allocator.
 */
void uio_fpga_dma_free(struct uio_fpga *uf)
{
	unsigned int i;

	for (i = 0; i < uf->num_dma; i++)
		uio_fpga_dma_free_one(uf, &uf->maps[UIO_FPGA_MAP_DMA0 + i]);
	uf->num_dma = 0;
}

/**
 * uio_fpga_dma_clear() - zero the DMA buffers
 * @uf: the device, bound, its AFU stopped and nothing mapped
 *
 * What one user left there is not the next one's to read.
 */
void uio_fpga_dma_clear(struct uio_fpga *uf)
{
	unsigned int i;

	for (i = 0; i < uf->num_dma; i++) {
		struct uio_fpga_map *map = &uf->maps[UIO_FPGA_MAP_DMA0 + i];

		memset(map->cpu_addr, 0, map->size);
	}
}

/**
 * uio_fpga_dma_abandon() - leave the DMA buffers to an AFU that did not stop
 * @uf: the device, being removed, its port's reset not acknowledged
 *
 * The AFU may still write into them: they stay allocated and mapped for
 * the card, handed to fpga_dfl, which keeps the port from a new user (of
 * either driver) until a reset of it succeeds, and frees them then.
 */
void uio_fpga_dma_abandon(struct uio_fpga *uf)
{
	unsigned int i;

	for (i = 0; i < uf->num_dma; i++) {
		struct uio_fpga_map *map = &uf->maps[UIO_FPGA_MAP_DMA0 + i];

		/* Only our fault handler needed them, and mappings are gone */
		kvfree(map->pfns);
		map->pfns = NULL;
		fpga_dfl_port_abandon_coherent(uf->fdev, map->size,
					       map->cpu_addr, map->dma_addr);
		map->cpu_addr = NULL;
	}
	dev_err(&uf->fdev->dev,
		"the AFU did not stop at removal: its %u DMA buffers stay allocated for it, and the port takes no new user until a reset of it succeeds\n",
		uf->num_dma);
	uf->num_dma = 0;
}
