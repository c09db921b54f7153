// SPDX-License-Identifier: GPL-2.0-only
/*
 * fpga_fme: the FME driver on the fpga_dfl bus.
 *
 * /dev/fpga-fme.N answers the common ioctls of <linux/fpga-dfl.h> and the
 * FME error interrupt ioctls; sysfs shows the FME header (ports_num,
 * bitstream_id, ...) and the global errors (fme-error.c).  An FME with a
 * PR engine programs its ports' AFUs (fme-pr.c).  A port is released from
 * the host and assigned back as upstream does (the core's
 * fpga_dfl_port_release()); there are no VFs to give it to yet.  A card
 * with a counter bank gets a perf PMU (fme-pmu.c), one with the thermal
 * and power management features hwmon devices (fme-hwmon.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/cdev.h>
#include <linux/fpga-dfl.h>
#include <linux/fs.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/slab.h>

#include <fpga-suite/dfl-core.h>
#include "fme.h"

/* Every minor there is: a host may have more cards than any fixed count */
#define FPGA_FME_MINORS		(MINORMASK + 1)

static dev_t fpga_fme_devt;
static DEFINE_IDA(fpga_fme_minor_ida);
/* dfl-fme.N, the upstream name: as upstream, the minor is N */
#define FPGA_FME_DFL_MINORS	(MINORMASK + 1)
static dev_t fpga_fme_dfl_devt;

static struct class fpga_fme_class = {
	.name	= "fpga_fme",
};

static int fpga_fme_open(struct inode *inode, struct file *file)
{
	struct fpga_fme *fme = imajor(inode) == MAJOR(fpga_fme_dfl_devt) ?
		fpga_dfl_node_drvdata(inode->i_cdev) :
		container_of(inode->i_cdev, struct fpga_fme, cdev);
	bool excl = file->f_flags & O_EXCL;
	int ret = 0, idx;

	/* As on the port: only a writer may keep the others out */
	if (excl && !(file->f_mode & FMODE_WRITE))
		return -EPERM;
	if (!fpga_dfl_hw_enter(&fme->unplug, &idx))
		return -ENODEV;
	mutex_lock(&fme->lock);
	if (fme->excl || (excl && fme->open_count))
		ret = -EBUSY;
	if (!ret) {
		fme->open_count++;
		fme->excl = excl;
		get_device(&fme->chardev);
	}
	mutex_unlock(&fme->lock);
	fpga_dfl_hw_exit(&fme->unplug, idx);
	if (ret)
		return ret;

	file->private_data = fme;
	return stream_open(inode, file);
}

/* A file goes; @hw: in an unplug section (else the FME is gone) */
static void __fpga_fme_release(struct fpga_fme *fme, bool hw)
{
	/*
	 * The unbind is under the lock, so that an open racing this close
	 * keeps the eventfds it binds, as on the port.
	 */
	mutex_lock(&fme->lock);
	if (!--fme->open_count) {
		fme->excl = false;
		if (hw)
			fpga_dfl_irqs_unbind_all(&fme->err_irqs);
	}
	mutex_unlock(&fme->lock);
}

static int fpga_fme_release(struct inode *inode, struct file *file)
{
	struct fpga_fme *fme = file->private_data;
	int idx;

	if (fpga_dfl_hw_enter(&fme->unplug, &idx)) {
		__fpga_fme_release(fme, true);
		fpga_dfl_hw_exit(&fme->unplug, idx);
	} else {
		__fpga_fme_release(fme, false);
	}
	put_device(&fme->chardev);
	return 0;
}

/* DFL_FPGA_FME_ERR_SET_IRQ: the argument is copied before unplug is held */
static long fpga_fme_ioctl_set_irq(struct fpga_fme *fme, void __user *arg)
{
	struct fpga_dfl_irq_set set;
	int ret, idx;

	ret = fpga_dfl_irq_set_copy(&fme->err_irqs, arg, &set);
	if (ret)
		return ret;
	if (fpga_dfl_hw_enter(&fme->unplug, &idx)) {
		ret = fpga_dfl_irqs_bind(&fme->err_irqs, &set);
		fpga_dfl_hw_exit(&fme->unplug, idx);
	} else {
		ret = -ENODEV;
	}
	fpga_dfl_irq_set_free(&set);
	return ret;
}

/*
 * DFL_FPGA_FME_PORT_RELEASE, _ASSIGN: the argument is the port's number
 * on the card (an int, FME_HDR_PORT_OFST's n), as upstream reads it
 */
static long fpga_fme_ioctl_port_assign(struct fpga_fme *fme, unsigned int cmd,
				       int __user *arg)
{
	int port_num, ret, idx;

	if (get_user(port_num, arg))
		return -EFAULT;
	/* It cuts a port off its host: as PR, root's */
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (port_num < 0)
		return -ENODEV;
	if (!fpga_dfl_hw_enter(&fme->unplug, &idx))
		return -ENODEV;
	if (cmd == DFL_FPGA_FME_PORT_RELEASE)
		ret = fpga_dfl_port_release(fme->fdev, port_num);
	else
		ret = fpga_dfl_port_assign(fme->fdev, port_num);
	fpga_dfl_hw_exit(&fme->unplug, idx);
	return ret;
}

/*
 * No user memory is touched with unplug held: a fault that never resolves
 * (userfaultfd, a stuck FUSE daemon) would hold up remove() with it.
 */
static long fpga_fme_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct fpga_fme *fme = file->private_data;
	void __user *uarg = (void __user *)arg;

	if (fpga_dfl_unplugged(&fme->unplug))
		return -ENODEV;
	switch (cmd) {
	case DFL_FPGA_GET_API_VERSION:
		return DFL_FPGA_API_VERSION;
	case DFL_FPGA_CHECK_EXTENSION:
		return 0;
	case DFL_FPGA_FME_ERR_GET_IRQ_NUM:
		/* The count is fixed at probe: no hardware is read */
		return fpga_dfl_ioctl_irq_num(&fme->err_irqs, uarg);
	case DFL_FPGA_FME_ERR_SET_IRQ:
		/* Binding changes the FME: as on the port, a writer's only */
		if (!(file->f_mode & FMODE_WRITE)) {
			dev_dbg(&fme->chardev, "ioctl %#x needs a file open for writing\n",
				cmd);
			return -EBADF;
		}
		return fpga_fme_ioctl_set_irq(fme, uarg);
	case DFL_FPGA_FME_PORT_PR:
		if (!(file->f_mode & FMODE_WRITE)) {
			dev_dbg(&fme->chardev, "ioctl %#x needs a file open for writing\n",
				cmd);
			return -EBADF;
		}
		return fpga_fme_ioctl_port_pr(fme, uarg);
	case DFL_FPGA_FME_PORT_RELEASE:
	case DFL_FPGA_FME_PORT_ASSIGN:
		if (!(file->f_mode & FMODE_WRITE)) {
			dev_dbg(&fme->chardev, "ioctl %#x needs a file open for writing\n",
				cmd);
			return -EBADF;
		}
		return fpga_fme_ioctl_port_assign(fme, cmd, uarg);
	}
	return -EINVAL;
}

/* EPOLLHUP once the FME is gone: see fpga_dfl_unplug_poll() */
static __poll_t fpga_fme_poll(struct file *file, poll_table *wait)
{
	struct fpga_fme *fme = file->private_data;

	return fpga_dfl_unplug_poll(&fme->unplug, file, wait);
}

static const struct file_operations fpga_fme_fops = {
	.owner		= THIS_MODULE,
	.open		= fpga_fme_open,
	.release	= fpga_fme_release,
	.unlocked_ioctl	= fpga_fme_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.poll		= fpga_fme_poll,
	.llseek		= noop_llseek,
};

static u64 fpga_fme_read(struct device *dev, unsigned int reg)
{
	struct fpga_fme *fme = dev_get_drvdata(dev);

	return readq(fme->hdr + reg);
}

static ssize_t ports_num_show(struct device *dev, struct device_attribute *attr,
			      char *buf)
{
	return sysfs_emit(buf, "%llu\n", FIELD_GET(FME_CAP_NUM_PORTS,
				fpga_fme_read(dev, FME_HDR_CAP)));
}
static DEVICE_ATTR_RO(ports_num);

static ssize_t bitstream_id_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n",
			  fpga_fme_read(dev, FME_HDR_BITSTREAM_ID));
}
static DEVICE_ATTR_RO(bitstream_id);

static ssize_t bitstream_metadata_show(struct device *dev,
				       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%llx\n",
			  fpga_fme_read(dev, FME_HDR_BITSTREAM_MD));
}
static DEVICE_ATTR_RO(bitstream_metadata);

static ssize_t cache_size_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", FIELD_GET(FME_CAP_CACHE_SIZE,
				fpga_fme_read(dev, FME_HDR_CAP)));
}
static DEVICE_ATTR_RO(cache_size);

static ssize_t fabric_version_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", FIELD_GET(FME_CAP_FABRIC_VERID,
				fpga_fme_read(dev, FME_HDR_CAP)));
}
static DEVICE_ATTR_RO(fabric_version);

static ssize_t socket_id_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", FIELD_GET(FME_CAP_SOCKET_ID,
				fpga_fme_read(dev, FME_HDR_CAP)));
}
static DEVICE_ATTR_RO(socket_id);

static struct attribute *fpga_fme_attrs[] = {
	&dev_attr_ports_num.attr,
	&dev_attr_bitstream_id.attr,
	&dev_attr_bitstream_metadata.attr,
	&dev_attr_cache_size.attr,
	&dev_attr_fabric_version.attr,
	&dev_attr_socket_id.attr,
	NULL,
};

static const struct attribute_group fpga_fme_group = {
	.attrs	= fpga_fme_attrs,
};

/* The ports released from the host, by their numbers on the card */
static ssize_t released_ports_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return fpga_dfl_ports_released_show(to_fpga_dfl_device(dev), buf);
}
static DEVICE_ATTR_RO(released_ports);

static struct attribute *fpga_fme_port_attrs[] = {
	&dev_attr_released_ports.attr,
	NULL,
};

static const struct attribute_group fpga_fme_port_group = {
	.attrs	= fpga_fme_port_attrs,
};

static const struct attribute_group *fpga_fme_groups[] = {
	&fpga_fme_group,
	&fpga_fme_error_group,
	&fpga_fme_pr_group,
	NULL,
};

/* fpga-fme.N has the counter bank's registers too; dfl-fme.N is upstream's */
static const struct attribute_group *fpga_fme_dev_groups[] = {
	&fpga_fme_group,
	&fpga_fme_error_group,
	&fpga_fme_pr_group,
	&fpga_fme_counters_group,
	&fpga_fme_port_group,
	NULL,
};

static void fpga_fme_chardev_release(struct device *dev)
{
	struct fpga_fme *fme = container_of(dev, struct fpga_fme, chardev);

	fpga_dfl_unplug_cleanup(&fme->unplug);
	ida_free(&fpga_fme_minor_ida, MINOR(dev->devt));
	kfree(fme);
}

/*
 * dfl-fme.N, the upstream name, under the FME's fpga_region, with the
 * attributes of upstream's dfl-fme, for OPAE
 */
static void fpga_fme_dfl_node_add(struct fpga_fme *fme,
				  struct fpga_dfl_device *fdev)
{
	const struct fpga_dfl_node_info info = {
		.prefix	= "dfl-fme",
		.devt	= fpga_fme_dfl_devt,
		.minors	= FPGA_FME_DFL_MINORS,
		.class	= &fpga_fme_class,
		.groups	= fpga_fme_groups,
		.fops	= &fpga_fme_fops,
	};

	fme->dfl_node = fpga_dfl_node_add(fdev, &info, fme, &fme->chardev);
	fpga_fme_pr_region_add(&fme->pr, fme->dfl_node);
}

static int fpga_fme_probe(struct fpga_dfl_device *fdev)
{
	struct fpga_fme *fme;
	int minor, ret;

	fme = kzalloc(sizeof(*fme), GFP_KERNEL);
	if (!fme)
		return -ENOMEM;
	minor = ida_alloc_max(&fpga_fme_minor_ida, FPGA_FME_MINORS - 1,
			      GFP_KERNEL);
	if (minor < 0) {
		kfree(fme);
		return minor;
	}
	/* Before the chardev exists: its release cleans this up */
	ret = fpga_dfl_unplug_init(&fme->unplug);
	if (ret) {
		ida_free(&fpga_fme_minor_ida, minor);
		kfree(fme);
		return ret;
	}
	mutex_init(&fme->lock);
	fme->fdev = fdev;
	fme->hdr = fdev->hdr.ioaddr;
	fpga_fme_pr_init(&fme->pr, fdev);

	/* From here on the chardev's release frees the FME */
	device_initialize(&fme->chardev);
	fme->chardev.class = &fpga_fme_class;
	fme->chardev.parent = &fdev->dev;
	fme->chardev.devt = MKDEV(MAJOR(fpga_fme_devt), minor);
	fme->chardev.release = fpga_fme_chardev_release;
	ret = dev_set_name(&fme->chardev, "%s", dev_name(&fdev->dev));
	if (ret)
		goto err_put;
	ret = fpga_dfl_irqs_init(&fme->err_irqs, fdev, FME_FEATURE_ID_GLOBAL_ERR,
				 "err");
	if (ret)
		goto err_put;

	fpga_fme_error_init(&fme->err, fdev);

	fme->pmu = fpga_pmu_card_add(fdev);
	if (IS_ERR(fme->pmu)) {
		ret = PTR_ERR(fme->pmu);
		goto err_fini_errors;
	}
	fpga_fme_counters_init(&fme->counters, fdev);

	dev_set_drvdata(&fdev->dev, fme);
	cdev_init(&fme->cdev, &fpga_fme_fops);
	fme->cdev.owner = THIS_MODULE;
	ret = cdev_device_add(&fme->cdev, &fme->chardev);
	if (ret)
		goto err_remove_pmu;
	fpga_fme_dfl_node_add(fme, fdev);
	fpga_fme_hwmon_add(fme, fdev);
	fpga_fme_bmc_add(fme, fdev);
	return 0;

err_remove_pmu:
	fpga_pmu_card_remove(fme->pmu);
err_fini_errors:
	fpga_fme_error_fini(&fme->err);
	fpga_dfl_irqs_free(&fme->err_irqs);
err_put:
	put_device(&fme->chardev);
	return ret;
}

static void fpga_fme_remove(struct fpga_dfl_device *fdev)
{
	struct fpga_fme *fme = dev_get_drvdata(&fdev->dev);

	fpga_fme_bmc_remove(fme);
	fpga_fme_hwmon_remove(fme);
	fpga_pmu_card_remove(fme->pmu);
	fpga_fme_pr_region_del(&fme->pr);
	fpga_dfl_node_del(fme->dfl_node);
	cdev_device_del(&fme->cdev, &fme->chardev);
	fpga_dfl_unplug(&fme->unplug);
	fpga_fme_error_fini(&fme->err);
	fpga_dfl_irqs_free(&fme->err_irqs);
	put_device(&fme->chardev);
}

/* netlink PORT_PROGRAM; the device lock keeps the FME bound */
static int fpga_fme_program(struct fpga_dfl_device *fdev,
			    unsigned int port_num, const void *buf,
			    size_t len)
{
	struct fpga_fme *fme = dev_get_drvdata(&fdev->dev);

	return fpga_fme_pr_run(fme, port_num, buf, len);
}

static const struct fpga_dfl_device_id fpga_fme_ids[] = {
	{ DFH_TYPE_FIU, DFH_ID_FIU_FME },
	{ }
};

static struct fpga_dfl_driver fpga_fme_driver = {
	.drv = {
		.name		= "fpga_fme",
		.dev_groups	= fpga_fme_dev_groups,
	},
	.id_table	= fpga_fme_ids,
	.probe		= fpga_fme_probe,
	.remove		= fpga_fme_remove,
	.program	= fpga_fme_program,
};

static int __init fpga_fme_init(void)
{
	int ret;

	fpga_fme_counters_setup();
	ret = fpga_pmu_init();
	if (ret)
		return ret;
	ret = alloc_chrdev_region(&fpga_fme_devt, 0, FPGA_FME_MINORS,
				  "fpga_fme");
	if (ret)
		goto err_pmu;
	ret = alloc_chrdev_region(&fpga_fme_dfl_devt, 0, FPGA_FME_DFL_MINORS,
				  "dfl-fme");
	if (ret)
		goto err_chrdev;
	ret = class_register(&fpga_fme_class);
	if (ret)
		goto err_dfl_chrdev;
	ret = fpga_fme_bmc_init();
	if (ret)
		goto err_class;
	ret = fpga_dfl_driver_register(&fpga_fme_driver);
	if (ret)
		goto err_bmc;
	return 0;

err_bmc:
	fpga_fme_bmc_exit();
err_class:
	class_unregister(&fpga_fme_class);
err_dfl_chrdev:
	unregister_chrdev_region(fpga_fme_dfl_devt, FPGA_FME_DFL_MINORS);
err_chrdev:
	unregister_chrdev_region(fpga_fme_devt, FPGA_FME_MINORS);
err_pmu:
	fpga_pmu_exit();
	return ret;
}

static void __exit fpga_fme_exit(void)
{
	fpga_dfl_driver_unregister(&fpga_fme_driver);
	fpga_fme_bmc_exit();
	class_unregister(&fpga_fme_class);
	unregister_chrdev_region(fpga_fme_dfl_devt, FPGA_FME_DFL_MINORS);
	unregister_chrdev_region(fpga_fme_devt, FPGA_FME_MINORS);
	fpga_pmu_exit();
}

module_init(fpga_fme_init);
module_exit(fpga_fme_exit);

MODULE_DESCRIPTION("DFL FPGA FME driver: /dev/fpga-fme.N, perf PMU fpga_pmu_N");
MODULE_LICENSE("GPL");
MODULE_ALIAS("fpga_dfl:t0004f0000");
