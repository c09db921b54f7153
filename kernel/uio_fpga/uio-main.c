// SPDX-License-Identifier: GPL-2.0-only
/*
 * uio_fpga: a DFL port as a UIO device, for user-space drivers.
 *
 * The driver binds a port on the fpga_dfl bus only when asked: through
 * driver_override, or for the AFU GUIDs of its afu_ids parameter
 * (uio-match.c).  The UIO device, named after the port (fpga-port.N), has
 * these maps, each found at mmap offset index * PAGE_SIZE:
 *
 *   map0 "afu"          the AFU's MMIO region
 *   map1 "port_header"  the port header, read-only (watch a reset happen)
 *   map2.. "dmaK"       kernel DMA buffers; addr is the device address
 *
 * and the port's user interrupt 0 (uio-irq.c).  Reset goes through the
 * kernel: the parent's reset attribute (uio-sysfs.c).  Everyone who has
 * the device open shares all of it; the last close resets the port and
 * clears the DMA buffers, so the next user starts from a stopped AFU and
 * empty buffers.
 *
 * remove() may run while user space holds the device open and mapped:
 * it unregisters the UIO device (read() then fails, no new mmap), unplugs
 * the device (fpga_dfl_unplug()) and zaps every mapping (later accesses raise SIGBUS),
 * stops the AFU by resetting the port, and only then frees the DMA
 * buffers.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "uio-fpga.h"
#include "uio_trace.h"

#define UIO_FPGA_VERSION	"0.1"

/*
 * The UIO core of 6.1 frees a device's minor before it removes the device
 * named after it (uio_unregister_device()), so a registration racing an
 * unregistration can take the same minor and collide with the old uioN in
 * sysfs: the probe fails with EEXIST.  Our devices register and unregister
 * one at a time.
 */
static DEFINE_MUTEX(uio_fpga_register_lock);

/*
 * Stop the AFU and clear the DMA buffers, so that the next user inherits
 * neither the last one's job nor its data.  Only with nothing mapped: no
 * file open, and every mapping holds its file.
 */
static int uio_fpga_scrub(struct uio_fpga *uf)
{
	int ret;

	ret = uio_fpga_reset(uf);
	if (ret) {
		dev_err(&uf->fdev->dev,
			"the AFU did not stop: its DMA buffers are not handed to another user (%d)\n",
			ret);
		return ret;
	}
	uio_fpga_dma_clear(uf);
	uf->scrubbed = true;
	return 0;
}

/*
 * struct uio_info.open and .release: the UIO core calls them under its
 * info_lock, so they are serialised with each other and with remove(),
 * which unregisters the device (no release after that) before it
 * unplugs it.
 */
static int uio_fpga_open(struct uio_info *info, struct inode *inode)
{
	struct uio_fpga *uf = to_uio_fpga(info);
	int ret;

	/* The last close could not stop the AFU: try again, or refuse */
	if (!uf->open_count && !uf->scrubbed && uio_fpga_scrub(uf))
		return -EIO;
	/* Not while the AFU may still reach an earlier user's pages */
	ret = fpga_dfl_port_check_abandoned(uf->fdev);
	if (ret)
		return ret;
	uf->open_count++;
	return 0;
}

static int uio_fpga_release(struct uio_info *info, struct inode *inode)
{
	struct uio_fpga *uf = to_uio_fpga(info);

	if (!--uf->open_count) {
		uf->scrubbed = false;
		uio_fpga_scrub(uf);
	}
	return 0;
}

/* A register block as a UIO map; the UIO core wants it page aligned */
static int uio_fpga_regs_map(struct uio_fpga *uf, unsigned int index,
			     const char *name, struct fpga_dfl_feature *feat,
			     bool writable)
{
	struct uio_fpga_map *map = &uf->maps[index];
	struct uio_mem *mem = &uf->info.mem[index];

	if (!PAGE_ALIGNED(feat->start) || !feat->size) {
		dev_err(&uf->fdev->dev, "%s at %pa cannot be mapped: not page aligned\n",
			name, &feat->start);
		return -EINVAL;
	}
	map->regs = feat->ioaddr;
	map->start = feat->start;
	map->size = feat->size;
	map->writable = writable;
	strscpy(uf->names[index], name, sizeof(uf->names[index]));
	mem->name = uf->names[index];
	mem->addr = feat->start;
	mem->size = feat->size;
	/* Not mapped by the UIO core: uio_fpga_mmap() does it */
	mem->memtype = UIO_MEM_PHYS;
	return 0;
}

static int uio_fpga_probe(struct fpga_dfl_device *fdev)
{
	struct uio_fpga *uf;
	unsigned int i;
	int ret;

	if (fdev->fiu_id != DFH_ID_FIU_PORT || !fdev->afu.size) {
		dev_err(&fdev->dev, "uio_fpga binds ports with an AFU only\n");
		return -ENODEV;
	}

	uf = kzalloc(sizeof(*uf), GFP_KERNEL);
	if (!uf)
		return -ENOMEM;
	if (fpga_dfl_unplug_init(&uf->unplug)) {
		kfree(uf);
		return -ENOMEM;
	}
	kref_init(&uf->kref);
	mutex_init(&uf->lock);
	INIT_LIST_HEAD(&uf->mappings);
	spin_lock_init(&uf->irq_lock);
	uf->fdev = fdev;
	uf->cacheable = fdev->cacheable;
	for (i = 0; i < MAX_UIO_MAPS; i++) {
		uf->maps[i].uf = uf;
		uf->maps[i].index = i;
	}

	ret = uio_fpga_regs_map(uf, UIO_FPGA_MAP_AFU, "afu", &fdev->afu, true);
	if (!ret)
		ret = uio_fpga_regs_map(uf, UIO_FPGA_MAP_HDR, "port_header",
					&fdev->hdr, false);
	if (ret)
		goto err_put;
	ret = uio_fpga_dma_alloc(uf);
	if (ret)
		goto err_put;
	/* As fpga_port does: the AFU answers only out of reset */
	ret = fpga_dfl_port_enable(fdev);
	if (ret)
		goto err_dma_free;

	uio_fpga_irq_init(uf);
	uf->info.name = dev_name(&fdev->dev);
	uf->info.version = UIO_FPGA_VERSION;
	uio_fpga_set_mmap(uf);
	uf->info.open = uio_fpga_open;
	uf->info.release = uio_fpga_release;
	/* Fresh coherent buffers are zeroed, the AFU just came out of reset */
	uf->scrubbed = true;
	dev_set_drvdata(&fdev->dev, uf);
	mutex_lock(&uio_fpga_register_lock);
	ret = uio_register_device(&fdev->dev, &uf->info);
	mutex_unlock(&uio_fpga_register_lock);
	trace_uio_bind(fdev->card_id, fdev->id, ret);
	if (ret)
		goto err_dma_free;
	return 0;

err_dma_free:
	uio_fpga_dma_free(uf);
err_put:
	uio_fpga_put(uf);
	return ret;
}

static void uio_fpga_remove(struct fpga_dfl_device *fdev)
{
	struct uio_fpga *uf = dev_get_drvdata(&fdev->dev);
	int ret;

	/*
	 * No new open or mmap, no irqcontrol, irq freed; read() and poll()
	 * on open files fail from now on.  An mmap handler that was running
	 * has returned (the UIO core runs it under the lock this takes).
	 */
	mutex_lock(&uio_fpga_register_lock);
	uio_unregister_device(&uf->info);
	mutex_unlock(&uio_fpga_register_lock);

	fpga_dfl_unplug(&uf->unplug);
	uio_fpga_revoke_mmaps(uf);

	/*
	 * Stop the AFU before its DMA buffers go back to the allocator; one
	 * that does not stop keeps them
	 */
	ret = uio_fpga_reset(uf);
	if (ret)
		uio_fpga_dma_abandon(uf);
	else
		uio_fpga_dma_free(uf);
	trace_uio_unbind(fdev->card_id, fdev->id, ret);
	uio_fpga_put(uf);
}

static const struct fpga_dfl_device_id uio_fpga_ids[] = {
	/* None: bound through driver_override or afu_ids only */
	{ }
};

/*
 * fpga_dfl_driver.busy: a file holds the port.  The UIO core serialises
 * open and release, not this read: one opened after it is cut off by the
 * device's removal, as on unplug.
 */
static bool uio_fpga_dfl_busy(struct fpga_dfl_device *fdev)
{
	struct uio_fpga *uf = dev_get_drvdata(&fdev->dev);

	return READ_ONCE(uf->open_count);
}

static struct fpga_dfl_driver uio_fpga_driver = {
	.drv = {
		.name		= "uio_fpga",
		.dev_groups	= uio_fpga_groups,
	},
	.id_table	= uio_fpga_ids,
	.probe		= uio_fpga_probe,
	.remove		= uio_fpga_remove,
	.reset		= uio_fpga_dfl_reset,
	.busy		= uio_fpga_dfl_busy,
};

static int __init uio_fpga_init(void)
{
	int ret;

	ret = fpga_dfl_driver_register(&uio_fpga_driver);
	if (ret)
		return ret;
	ret = uio_fpga_match_init(&uio_fpga_driver);
	if (ret)
		fpga_dfl_driver_unregister(&uio_fpga_driver);
	return ret;
}

static void __exit uio_fpga_exit(void)
{
	uio_fpga_match_exit(&uio_fpga_driver);
}

module_init(uio_fpga_init);
module_exit(uio_fpga_exit);

MODULE_DESCRIPTION("DFL FPGA ports as UIO devices, for user-space drivers");
MODULE_LICENSE("GPL");
