// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_port: the port/AFU driver on the fpga_dfl bus.
 *
 * Each port gets /dev/fpga-port.N with the ioctl ABI of <linux/fpga-dfl.h>,
 * so programs written for upstream DFL run unchanged.  Two lifetimes meet
 * here: the hardware ends at remove(), the struct fpga_port ends when the
 * last open file is closed.  Every file operation runs in an SRCU read
 * section of port->unplug and fails with -ENODEV once the port is gone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fpga-dfl.h>
#include <linux/fpga-suite.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "port.h"

/* Every minor there is: a host may have more cards than any fixed count */
#define FPGA_PORT_MINORS	(MINORMASK + 1)

static dev_t fpga_port_devt;
static DEFINE_IDA(fpga_port_minor_ida);

static struct class fpga_port_class = {
	.name	= "fpga_port",
};

/* fdinfo's fpga-client-id: 0 is never given out */
static atomic64_t fpga_port_last_client_id;

static int fpga_port_open(struct inode *inode, struct file *file)
{
	struct fpga_port *port = fpga_port_of_inode(inode);
	bool excl = file->f_flags & O_EXCL;
	struct fpga_port_file *pf;
	int ret = 0, idx;

	/* Exclusive use is a writer's: a reader must not lock writers out */
	if (excl && !(file->f_mode & FMODE_WRITE))
		return -EPERM;
	pf = kzalloc(sizeof(*pf), GFP_KERNEL);
	if (!pf)
		return -ENOMEM;
	pf->port = port;
	pf->file = file;
	pf->client_id = atomic64_inc_return(&fpga_port_last_client_id);
	pf->dma_maps = RB_ROOT;
	pf->dma_sources = RB_ROOT;
	mutex_init(&pf->dma_lock);

	if (!fpga_dfl_hw_enter(&port->unplug, &idx)) {
		kfree(pf);
		return -ENODEV;
	}
	fpga_port_fdinfo_open(pf);
	mutex_lock(&port->lock);
	if (port->excl || (excl && port->open_count))
		ret = -EBUSY;
	/* Not while the AFU may still reach an earlier user's pages */
	if (!ret)
		ret = fpga_dfl_port_check_abandoned(port->fdev);
	/* The last close could not stop it: its files' mappings wait */
	if (!ret && !port->open_count && !list_empty(&port->quarantine) &&
	    __fpga_port_reset(port)) {
		dev_warn_ratelimited(&port->chardev,
				     "refused: the AFU did not stop at the last close and may still reach its user's DMA; a reset of the port that succeeds releases it\n");
		ret = -EBUSY;
	}
	if (!ret) {
		port->open_count++;
		port->excl = excl;
		list_add(&pf->node, &port->files);
		get_device(&port->chardev);
	}
	mutex_unlock(&port->lock);
	fpga_dfl_hw_exit(&port->unplug, idx);

	if (ret) {
		kfree(pf);
		return ret;
	}
	file->private_data = pf;
	return stream_open(inode, file);
}

/*
 * A file goes; @hw: in an unplug section (else the port is gone, and its
 * hardware is not touched).  True if its DMA mappings are quarantined.
 */
static bool __fpga_port_release(struct fpga_port *port,
				struct fpga_port_file *pf, bool hw)
{
	bool last, quarantined = false;

	fpga_port_fences_cancel(port, pf, -ECANCELED);

	/*
	 * Under the lock, so that an open racing this close finds the port
	 * reset and keeps the eventfds it binds.
	 */
	mutex_lock(&port->lock);
	list_del(&pf->node);
	pf->file = NULL;
	last = !--port->open_count;
	if (last)
		port->excl = false;
	/*
	 * A job of the AFU may still use these buffers: until it is stopped.
	 * Their release is this module's: held until then (the file holds
	 * it now), so an unload cannot leave them to nobody.
	 */
	if (!RB_EMPTY_ROOT(&pf->dma_maps)) {
		list_add_tail(&pf->node, &port->quarantine);
		__module_get(THIS_MODULE);
		quarantined = true;
	}
	/* Like upstream: the next user finds the AFU reset, no eventfds bound */
	if (last && hw) {
		fpga_dfl_irqs_unbind_all(&port->err_irqs);
		fpga_dfl_irqs_unbind_all(&port->uint_irqs);
		__fpga_port_reset(port);
	}
	mutex_unlock(&port->lock);
	return quarantined;
}

static int fpga_port_release(struct inode *inode, struct file *file)
{
	struct fpga_port_file *pf = file->private_data;
	struct fpga_port *port = pf->port;
	bool quarantined;
	int idx;

	fpga_dfl_dma_grant_forget(&pf->dma_grant);
	/* Also once the port is gone: its eventfds stay bound till remove ends */
	fpga_dfl_irqs_forget(&port->err_irqs, &pf->irqs_delivered);
	fpga_dfl_irqs_forget(&port->uint_irqs, &pf->irqs_delivered);
	if (fpga_dfl_hw_enter(&port->unplug, &idx)) {
		quarantined = __fpga_port_release(port, pf, true);
		fpga_dfl_hw_exit(&port->unplug, idx);
	} else {
		quarantined = __fpga_port_release(port, pf, false);
	}
	if (!quarantined)
		kfree(pf);
	put_device(&port->chardev);
	return 0;
}

/*
 * Commands that change the port or give its AFU memory or interrupts:
 * only through a file opened for writing, as a read-only open implies
 */
static bool fpga_port_cmd_writes(unsigned int cmd)
{
	switch (cmd) {
	case DFL_FPGA_PORT_RESET:
	case DFL_FPGA_PORT_DMA_MAP:
	case DFL_FPGA_PORT_DMA_UNMAP:
	case FPGA_PORT_DMABUF_MAP:
	case FPGA_PORT_DMABUF_FENCE:
	case DFL_FPGA_PORT_ERR_SET_IRQ:
	case DFL_FPGA_PORT_UINT_SET_IRQ:
		return true;
	}
	return false;
}

static long fpga_port_ioctl_reset(struct fpga_port_file *pf,
				  unsigned long arg)
{
	struct fpga_port *port = pf->port;
	int ret, idx;

	if (arg)
		return -EINVAL;
	ret = fpga_port_hw_begin(port, &idx);
	if (ret)
		return ret;
	ret = fpga_port_reset(port);
	fpga_port_hw_end(port, idx);
	if (!ret)
		atomic64_inc(&pf->resets);
	return ret;
}

static long fpga_port_ioctl_set_irq(struct fpga_port_file *pf,
				    struct fpga_dfl_irqs *irqs,
				    void __user *arg)
{
	struct fpga_port *port = pf->port;
	struct fpga_dfl_irq_set set;
	int ret, idx;

	ret = fpga_dfl_irq_set_copy(irqs, arg, &set);
	if (ret)
		return ret;
	set.delivered = &pf->irqs_delivered;
	ret = fpga_port_hw_begin(port, &idx);
	if (!ret) {
		ret = fpga_dfl_irqs_bind(irqs, &set);
		fpga_port_hw_end(port, idx);
	}
	fpga_dfl_irq_set_free(&set);
	return ret;
}

/*
 * Each command copies its arguments and pins user memory before it enters
 * the unplug section (fpga_port_hw_begin()) and copies its results after;
 * the commands that touch no hardware need no section.  Once the port is
 * gone every command fails with -ENODEV.
 */
static long fpga_port_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct fpga_port_file *pf = file->private_data;
	struct fpga_port *port = pf->port;
	void __user *uarg = (void __user *)arg;

	if (fpga_dfl_unplugged(&port->unplug))
		return -ENODEV;
	if (fpga_port_cmd_writes(cmd) && !(file->f_mode & FMODE_WRITE)) {
		dev_dbg(&port->chardev, "ioctl %#x needs a file open for writing\n",
			cmd);
		return -EBADF;
	}

	switch (cmd) {
	case DFL_FPGA_GET_API_VERSION:
		return DFL_FPGA_API_VERSION;
	case DFL_FPGA_CHECK_EXTENSION:
		/* None is defined in <linux/fpga-dfl.h>; ours has one */
		return arg == FPGA_PORT_EXT_DMABUF;
	case DFL_FPGA_PORT_RESET:
		return fpga_port_ioctl_reset(pf, arg);
	case DFL_FPGA_PORT_GET_INFO:
		return fpga_port_ioctl_get_info(port, uarg);
	case DFL_FPGA_PORT_GET_REGION_INFO:
		return fpga_port_ioctl_region_info(port, uarg);
	case DFL_FPGA_PORT_DMA_MAP:
		return fpga_port_ioctl_dma_map(pf, uarg);
	case DFL_FPGA_PORT_DMA_UNMAP:
		return fpga_port_ioctl_dma_unmap(pf, uarg);
	case FPGA_PORT_DMABUF_MAP:
		return fpga_port_ioctl_dmabuf_map(pf, uarg);
	case FPGA_PORT_DMABUF_FENCE:
		return fpga_port_ioctl_dmabuf_fence(pf, uarg);
	case DFL_FPGA_PORT_ERR_GET_IRQ_NUM:
		return fpga_dfl_ioctl_irq_num(&port->err_irqs, uarg);
	case DFL_FPGA_PORT_ERR_SET_IRQ:
		return fpga_port_ioctl_set_irq(pf, &port->err_irqs, uarg);
	case DFL_FPGA_PORT_UINT_GET_IRQ_NUM:
		return fpga_dfl_ioctl_irq_num(&port->uint_irqs, uarg);
	case DFL_FPGA_PORT_UINT_SET_IRQ:
		return fpga_port_ioctl_set_irq(pf, &port->uint_irqs, uarg);
	}
	/* Upstream answers unknown commands with -EINVAL; so do we */
	return -EINVAL;
}

/* EPOLLHUP once the port is gone: see fpga_dfl_unplug_poll() */
static __poll_t fpga_port_poll(struct file *file, poll_table *wait)
{
	struct fpga_port_file *pf = file->private_data;

	return fpga_dfl_unplug_poll(&pf->port->unplug, file, wait);
}

static const struct file_operations fpga_port_fops = {
	.owner		= THIS_MODULE,
	.open		= fpga_port_open,
	.release	= fpga_port_release,
	.unlocked_ioctl	= fpga_port_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.mmap		= fpga_port_mmap,
	.poll		= fpga_port_poll,
	.llseek		= noop_llseek,
	.show_fdinfo	= fpga_port_show_fdinfo,
};

static void fpga_port_chardev_release(struct device *dev)
{
	struct fpga_port *port = container_of(dev, struct fpga_port, chardev);

	fpga_dfl_unplug_cleanup(&port->unplug);
	ida_free(&fpga_port_minor_ida, MINOR(dev->devt));
	kfree(port);
}

static int fpga_port_probe(struct fpga_dfl_device *fdev)
{
	struct fpga_dfl_feature *feat;
	struct fpga_port *port;
	int minor, ret;

	if (!fdev->afu.size) {
		dev_err(&fdev->dev, "port has no AFU\n");
		return -ENODEV;
	}

	port = kzalloc(sizeof(*port), GFP_KERNEL);
	if (!port)
		return -ENOMEM;
	minor = ida_alloc_max(&fpga_port_minor_ida, FPGA_PORT_MINORS - 1,
			      GFP_KERNEL);
	if (minor < 0) {
		kfree(port);
		return minor;
	}

	/* Before the chardev exists: its release cleans this up */
	ret = fpga_dfl_unplug_init(&port->unplug);
	if (ret) {
		ida_free(&fpga_port_minor_ida, minor);
		kfree(port);
		return ret;
	}
	port->fdev = fdev;
	port->id = fdev->id;
	mutex_init(&port->lock);
	INIT_LIST_HEAD(&port->files);
	INIT_LIST_HEAD(&port->quarantine);
	port->hdr = fdev->hdr.ioaddr;
	port->afu = fdev->afu.ioaddr;
	port->afu_start = fdev->afu.start;
	port->afu_size = fdev->afu.size;
	if (!(fpga_port_region_flags(port) & DFL_PORT_REGION_MMAP))
		dev_warn(&fdev->dev, "AFU at %pa does not start on a page: it cannot be mapped\n",
			 &fdev->afu.start);
	feat = fpga_dfl_find_feature(fdev, PORT_FEATURE_ID_ERROR);
	if (feat)
		port->err = feat->ioaddr;

	/* From here on the chardev's release frees the port */
	device_initialize(&port->chardev);
	port->chardev.class = &fpga_port_class;
	port->chardev.parent = &fdev->dev;
	port->chardev.devt = MKDEV(MAJOR(fpga_port_devt), minor);
	port->chardev.release = fpga_port_chardev_release;
	ret = dev_set_name(&port->chardev, "%s", dev_name(&fdev->dev));
	if (ret)
		goto err_put;

	ret = fpga_dfl_irqs_init(&port->err_irqs, fdev, PORT_FEATURE_ID_ERROR,
				 "err");
	if (ret)
		goto err_put;
	ret = fpga_dfl_irqs_init(&port->uint_irqs, fdev, PORT_FEATURE_ID_UINT,
				 "uint");
	if (ret)
		goto err_free_err_irqs;
	ret = fpga_port_fences_init(port);
	if (ret)
		goto err_free_uint_irqs;
	ret = fpga_port_enable(port);
	if (ret)
		goto err_fences_fini;

	dev_set_drvdata(&fdev->dev, port);
	ret = fpga_port_regions_add(port);
	if (ret)
		goto err_fences_fini;

	cdev_init(&port->cdev, &fpga_port_fops);
	port->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&port->cdev, &port->chardev);
	if (ret)
		goto err_regions;
	fpga_port_dfl_node_add(port, &fpga_port_class, &fpga_port_fops);
	return 0;

err_regions:
	fpga_port_regions_del(port);
err_fences_fini:
	fpga_port_fences_fini(port);
err_free_uint_irqs:
	fpga_dfl_irqs_free(&port->uint_irqs);
err_free_err_irqs:
	fpga_dfl_irqs_free(&port->err_irqs);
err_put:
	put_device(&port->chardev);
	return ret;
}

static void fpga_port_remove(struct fpga_dfl_device *fdev)
{
	struct fpga_port *port = dev_get_drvdata(&fdev->dev);
	struct fpga_port_file *pf;

	/* No new opens; open files stay, and find the port gone */
	fpga_port_dfl_node_del(port);
	cdev_device_del(&port->cdev, &port->chardev);

	fpga_dfl_unplug(&port->unplug);

	/*
	 * Nothing runs in a file operation any more.  Take back what open
	 * files hold on the hardware: MMIO mappings, DMA mappings, interrupts.
	 */
	fpga_port_revoke_mmaps(port);
	mutex_lock(&port->lock);
	/*
	 * Stop the AFU before its buffers are unmapped: a reset clears any
	 * job, and nobody can start another (mappings revoked, files gone)
	 */
	if (fpga_dfl_port_reset(fdev)) {
		unsigned long n = __fpga_port_dma_abandon(port);

		if (n)
			dev_err(&fdev->dev,
				"the AFU did not stop at removal: %lu DMA mappings stay pinned and mapped for it, and the port takes no new user until a reset of it succeeds\n",
				n);
	}
	list_for_each_entry(pf, &port->files, node)
		fpga_port_dma_unmap_all(pf);
	__fpga_port_dma_release_quarantine(port);
	mutex_unlock(&port->lock);
	/* Fences use the user interrupts: before those go */
	fpga_port_fences_fini(port);
	fpga_dfl_irqs_free(&port->err_irqs);
	fpga_dfl_irqs_free(&port->uint_irqs);
	fpga_port_regions_del(port);

	put_device(&port->chardev);
}

static const struct fpga_dfl_device_id fpga_port_ids[] = {
	{ DFH_TYPE_FIU, DFH_ID_FIU_PORT },
	{ }
};

/*
 * fpga_dfl_driver.reset: netlink PORT_RESET (under the device lock) and
 * the core's sysfs reset (an attribute of our dev_groups) find the port
 * bound.  A call into port-reset.c, so that a kprobe on fpga_port_reset
 * sees these resets too (Documentation/tracing.md).
 */
static int fpga_port_dfl_reset(struct fpga_dfl_device *fdev)
{
	return fpga_port_reset(dev_get_drvdata(&fdev->dev));
}

/* fpga_dfl_driver.busy: a file holds the port, which is not released */
static bool fpga_port_dfl_busy(struct fpga_dfl_device *fdev)
{
	struct fpga_port *port = dev_get_drvdata(&fdev->dev);
	bool busy;

	mutex_lock(&port->lock);
	busy = port->open_count;
	mutex_unlock(&port->lock);
	return busy;
}

static struct fpga_dfl_driver fpga_port_driver = {
	.drv = {
		.name		= "fpga_port",
		.dev_groups	= fpga_port_groups,
	},
	.id_table	= fpga_port_ids,
	.probe		= fpga_port_probe,
	.remove		= fpga_port_remove,
	.reset		= fpga_port_dfl_reset,
	.clear_errors	= fpga_port_dfl_clear_errors,
	.busy		= fpga_port_dfl_busy,
};

static int __init fpga_port_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&fpga_port_devt, 0, FPGA_PORT_MINORS,
				  "fpga_port");
	if (ret)
		return ret;
	ret = fpga_port_dfl_nodes_init();
	if (ret)
		goto err_chrdev;
	ret = class_register(&fpga_port_class);
	if (ret)
		goto err_dfl_nodes;
	ret = fpga_dfl_driver_register(&fpga_port_driver);
	if (ret)
		goto err_class;
	return 0;

err_class:
	class_unregister(&fpga_port_class);
err_dfl_nodes:
	fpga_port_dfl_nodes_exit();
err_chrdev:
	unregister_chrdev_region(fpga_port_devt, FPGA_PORT_MINORS);
	return ret;
}

static void __exit fpga_port_exit(void)
{
	fpga_dfl_driver_unregister(&fpga_port_driver);
	class_unregister(&fpga_port_class);
	fpga_port_dfl_nodes_exit();
	unregister_chrdev_region(fpga_port_devt, FPGA_PORT_MINORS);
}

module_init(fpga_port_init);
module_exit(fpga_port_exit);

MODULE_DESCRIPTION("DFL FPGA port/AFU driver: /dev/fpga-port.N");
MODULE_LICENSE("GPL");
MODULE_ALIAS("fpga_dfl:t0004f0001");
