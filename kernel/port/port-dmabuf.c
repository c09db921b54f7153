// SPDX-License-Identifier: GPL-2.0-only
/*
 * DMA mapping of dma-bufs for the AFU (FPGA_PORT_DMABUF_MAP of
 * <linux/fpga-suite.h>).
 *
 * The card's DMA device attaches to the dma-buf and the exporter maps it
 * for the card; as for user memory, the card's IOMMU must show it as one
 * contiguous range.  The mapping goes in the file's tree next to the user
 * memory mappings, so DFL_FPGA_PORT_DMA_UNMAP, close and unplug undo both
 * kinds the same way.  Nothing is pinned or charged here: the exporter
 * keeps the pages for as long as the attachment is mapped.
 */
#include <linux/dma-buf.h>
#include <linux/fpga-suite.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "fpga-compat.h"
#include "port.h"

MODULE_IMPORT_NS("DMA_BUF");

/* Has this file mapped @buf already?  Caller holds pf->dma_lock. */
static bool __fpga_port_dmabuf_mapped(struct fpga_port_file *pf,
				      struct dma_buf *buf)
{
	struct fpga_port_dma *dma;

	dma = __fpga_port_dma_source_below(pf, FPGA_PORT_DMA_DMABUF,
					   (uintptr_t)buf + 1);
	return dma && dma->dmabuf.buf == buf;
}

/* Undo a dma-buf mapping (its release op, from __fpga_port_dma_release) */
static void fpga_port_dmabuf_release(struct device *dma_dev,
				     struct fpga_port_dma *dma)
{
	dma_buf_unmap_attachment_unlocked(dma->dmabuf.attach, dma->dmabuf.sgt,
					  dma->dir);
	dma_buf_detach(dma->dmabuf.buf, dma->dmabuf.attach);
	dma_buf_put(dma->dmabuf.buf);
}

/*
 * Attach the card's DMA device.  The exporter pins the buffer's pages
 * here (a GEM exporter faults in the whole buffer), which takes as long
 * as the buffer is large: a static exporter's attach runs before the
 * unplug section (it only records @dma_dev, which we hold with its
 * driver's module: fpga_dfl_dma_ref_get()).  A dynamic
 * exporter maps the buffer for the device at once when a static importer
 * attaches: that needs the device, so it runs inside.
 */
static int fpga_port_dmabuf_attach(struct fpga_port_file *pf,
				   struct fpga_port_dma *dma,
				   struct device *dma_dev)
{
	struct dma_buf *buf = dma->dmabuf.buf;
	int ret;

	dma->dmabuf.attach = dma_buf_attach(buf, dma_dev);
	if (IS_ERR(dma->dmabuf.attach)) {
		ret = PTR_ERR(dma->dmabuf.attach);
		dev_dbg(&pf->port->chardev, "dmabuf map: cannot attach (%s): %d\n",
			buf->exp_name, ret);
		dma->dmabuf.attach = NULL;
		return ret;
	}
	return 0;
}

/* Map the attachment for the card, in the unplug section: one IOVA range */
static int fpga_port_dmabuf_map_attachment(struct fpga_port_file *pf,
					   struct fpga_port_dma *dma)
{
	struct device *dev = &pf->port->chardev;
	struct dma_buf *buf = dma->dmabuf.buf;
	int ret;

	dma->dmabuf.sgt = dma_buf_map_attachment_unlocked(dma->dmabuf.attach,
							  dma->dir);
	if (IS_ERR(dma->dmabuf.sgt)) {
		ret = PTR_ERR(dma->dmabuf.sgt);
		dev_dbg(dev, "dmabuf map: %s cannot map %zu bytes: %d\n",
			buf->exp_name, buf->size, ret);
		return ret;
	}
	dma->length = buf->size;
	ret = fpga_port_dma_check_range(pf, dma->dmabuf.sgt, dma->length,
					&dma->iova);
	if (ret)
		dma_buf_unmap_attachment_unlocked(dma->dmabuf.attach,
						  dma->dmabuf.sgt, dma->dir);
	return ret;
}

/*
 * Hold the card's DMA device (and its driver's module), if the caller may
 * map for the card at all.  Return: 0, -ENODEV or -EPERM.
 */
static int fpga_port_dmabuf_hold_dma_dev(struct fpga_port_file *pf,
					 struct fpga_dfl_dma_ref *ref)
{
	int ret, idx;

	ret = fpga_port_hw_begin(pf->port, &idx);
	if (ret)
		return ret;
	ret = fpga_dfl_dma_permitted(pf->port->fdev, &pf->dma_grant,
				     "dma-buf map");
	if (!ret)
		ret = fpga_dfl_dma_ref_get(pf->port->fdev, ref);
	fpga_port_hw_end(pf->port, idx);
	return ret;
}

/*
 * In the unplug section: attach if the exporter is dynamic (@early is
 * false), map the attachment for the card and insert the mapping in the
 * file's trees, or undo what this did.
 */
static int __fpga_port_dmabuf_insert(struct fpga_port_file *pf,
				     struct fpga_port_dma *dma,
				     struct device *dma_dev, bool early)
{
	int ret = 0;

	if (!early)
		ret = fpga_port_dmabuf_attach(pf, dma, dma_dev);
	if (!ret)
		ret = fpga_port_dmabuf_map_attachment(pf, dma);
	if (!ret) {
		mutex_lock(&pf->dma_lock);
		if (__fpga_port_dmabuf_mapped(pf, dma->dmabuf.buf))
			ret = -EEXIST;
		else
			__fpga_port_dma_insert(pf, dma);
		mutex_unlock(&pf->dma_lock);
		if (ret)
			dma_buf_unmap_attachment_unlocked(dma->dmabuf.attach,
							  dma->dmabuf.sgt,
							  dma->dir);
	}
	/* A dynamic exporter unmaps at detach: with the device still here */
	if (ret && !early && dma->dmabuf.attach) {
		dma_buf_detach(dma->dmabuf.buf, dma->dmabuf.attach);
		dma->dmabuf.attach = NULL;
	}
	return ret;
}

static int fpga_port_dmabuf_insert(struct fpga_port_file *pf,
				   struct fpga_port_dma *dma,
				   struct device *dma_dev, bool early)
{
	int ret, idx;

	ret = fpga_port_hw_begin(pf->port, &idx);
	if (ret)
		return ret;
	ret = __fpga_port_dmabuf_insert(pf, dma, dma_dev, early);
	fpga_port_hw_end(pf->port, idx);
	return ret;
}

/*
 * FPGA_PORT_DMABUF_MAP: map a dma-buf for the AFU, as one IOVA range.
 * EINVAL: argsz, flags, pad, not a dma-buf, or the card cannot see it as
 * one range; EBADF: fd not open; EEXIST: this file mapped it already.
 */
long fpga_port_ioctl_dmabuf_map(struct fpga_port_file *pf, void __user *arg)
{
	unsigned long minsz = offsetofend(struct fpga_port_dmabuf_map, iova);
	struct device *dev = &pf->port->chardev;
	struct fpga_port_dmabuf_map map;
	struct fpga_dfl_dma_ref dma_ref;
	struct fpga_port_dma *dma;
	bool early;
	int ret;

	if (copy_from_user(&map, arg, minsz))
		return -EFAULT;
	if (map.argsz < minsz || map.pad)
		return -EINVAL;
	dma = kzalloc(sizeof(*dma), GFP_KERNEL_ACCOUNT);
	if (!dma)
		return -ENOMEM;
	dma->kind = FPGA_PORT_DMA_DMABUF;
	dma->release = fpga_port_dmabuf_release;
	ret = fpga_port_dma_dir(map.flags, &dma->dir);
	if (ret) {
		dev_dbg(dev, "dmabuf map: unknown flags %#x\n", map.flags);
		goto err_free;
	}
	dma->dmabuf.buf = dma_buf_get(map.fd);
	if (IS_ERR(dma->dmabuf.buf)) {
		ret = PTR_ERR(dma->dmabuf.buf);
		dev_dbg(dev, "dmabuf map: fd %d is not a dma-buf: %d\n",
			map.fd, ret);
		goto err_free;
	}
	/* The card may write only into a dma-buf its holder may write */
	if (dma->dir != DMA_TO_DEVICE &&
	    !(dma->dmabuf.buf->file->f_mode & FMODE_WRITE)) {
		dev_dbg(dev, "dmabuf map: fd %d is read-only: only FPGA_PORT_DMA_TO_DEV\n",
			map.fd);
		ret = -EACCES;
		goto err_put_buf;
	}

	ret = fpga_port_dmabuf_hold_dma_dev(pf, &dma_ref);
	if (ret)
		goto err_put_buf;
	/* Cheap first: the answer under the lock, later, is the one that holds */
	mutex_lock(&pf->dma_lock);
	if (__fpga_port_dmabuf_mapped(pf, dma->dmabuf.buf))
		ret = -EEXIST;
	mutex_unlock(&pf->dma_lock);
	if (ret) {
		dev_dbg(dev, "dmabuf map: fd %d is mapped already\n", map.fd);
		goto err_put_dev;
	}

	early = !dma_buf_is_dynamic(dma->dmabuf.buf);
	if (early) {
		ret = fpga_port_dmabuf_attach(pf, dma, dma_ref.dev);
		if (ret)
			goto err_put_dev;
	}
	ret = fpga_port_dmabuf_insert(pf, dma, dma_ref.dev, early);
	if (ret)
		goto err_detach;
	fpga_dfl_dma_ref_put(&dma_ref);

	map.length = dma->length;
	map.iova = dma->iova;
	if (copy_to_user(arg, &map, minsz)) {
		fpga_port_dma_map_undo(pf, map.iova);
		return -EFAULT;
	}
	return 0;

err_detach:
	if (dma->dmabuf.attach)
		dma_buf_detach(dma->dmabuf.buf, dma->dmabuf.attach);
err_put_dev:
	fpga_dfl_dma_ref_put(&dma_ref);
err_put_buf:
	dma_buf_put(dma->dmabuf.buf);
err_free:
	kfree(dma);
	return ret;
}
