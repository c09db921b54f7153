// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fpga_dfl bus: one device per FME or port found in a card's Device
 * Feature List, matched to feature drivers by FIU type or, through
 * driver_override, to any driver that wants it (e.g. uio_fpga).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "fpga-compat.h"
#include <fpga-suite/dfl-core.h>
#include "dfl-nl.h"
#include "dfl-region.h"

static const struct fpga_dfl_device_id *
fpga_dfl_match_id(const struct fpga_dfl_device *fdev,
		  const struct fpga_dfl_driver *fdrv)
{
	const struct fpga_dfl_device_id *id;

	for (id = fdrv->id_table; id && id->type; id++)
		if (id->type == DFH_TYPE_FIU && id->fiu_id == fdev->fiu_id)
			return id;
	return NULL;
}

static int fpga_dfl_bus_match(struct device *dev,
			      FPGA_COMPAT_MATCH_CONST struct device_driver *drv)
{
	struct fpga_dfl_device *fdev = to_fpga_dfl_device(dev);
	int ret;

	ret = fpga_driver_override_match(dev, &fdev->driver_override, drv);
	if (ret >= 0)
		return ret;
	return !!fpga_dfl_match_id(fdev, to_fpga_dfl_driver(drv));
}

static int fpga_dfl_bus_uevent(FPGA_COMPAT_UEVENT_CONST struct device *dev,
			       struct kobj_uevent_env *env)
{
	struct fpga_dfl_device *fdev = to_fpga_dfl_device(dev);

	return add_uevent_var(env, "MODALIAS=" FPGA_DFL_MODALIAS_FMT,
			      DFH_TYPE_FIU, fdev->fiu_id);
}

static int fpga_dfl_bus_probe(struct device *dev)
{
	struct fpga_dfl_driver *fdrv = to_fpga_dfl_driver(dev->driver);

	return fdrv->probe(to_fpga_dfl_device(dev));
}

static void fpga_dfl_bus_remove(struct device *dev)
{
	struct fpga_dfl_driver *fdrv = to_fpga_dfl_driver(dev->driver);

	if (fdrv->remove)
		fdrv->remove(to_fpga_dfl_device(dev));
}

static ssize_t modalias_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct fpga_dfl_device *fdev = to_fpga_dfl_device(dev);

	return sysfs_emit(buf, FPGA_DFL_MODALIAS_FMT "\n", DFH_TYPE_FIU,
			  fdev->fiu_id);
}
static DEVICE_ATTR_RO(modalias);

/*
 * driver_override: the driver core's file where it keeps the override
 * (bus_type.driver_override), this one before (fpga-compat.h)
 */
static ssize_t driver_override_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct fpga_dfl_device *fdev = to_fpga_dfl_device(dev);

	return fpga_driver_override_show(dev, &fdev->driver_override, buf);
}

static ssize_t driver_override_store(struct device *dev,
				     struct device_attribute *attr,
				     const char *buf, size_t count)
{
	struct fpga_dfl_device *fdev = to_fpga_dfl_device(dev);
	int ret;

	ret = fpga_driver_override_set(dev, &fdev->driver_override, buf, count);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(driver_override);

static ssize_t card_id_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%d\n", to_fpga_dfl_device(dev)->card_id);
}
static DEVICE_ATTR_RO(card_id);

static ssize_t dma_isolation_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct fpga_dfl_device *fdev = to_fpga_dfl_device(dev);

	return sysfs_emit(buf, "%s\n",
			  fpga_dfl_dma_isolation_name(fdev->dma_isolation));
}
static DEVICE_ATTR_RO(dma_isolation);

static struct attribute *fpga_dfl_dev_attrs[] = {
	&dev_attr_modalias.attr,
	&dev_attr_driver_override.attr,
	&dev_attr_card_id.attr,
	&dev_attr_dma_isolation.attr,
	NULL,
};

static umode_t fpga_dfl_dev_attr_visible(struct kobject *kobj,
					 struct attribute *attr, int n)
{
	if (attr == &dev_attr_driver_override.attr &&
	    FPGA_COMPAT_CORE_DRIVER_OVERRIDE)
		return 0;
	return attr->mode;
}

static const struct attribute_group fpga_dfl_dev_group = {
	.attrs		= fpga_dfl_dev_attrs,
	.is_visible	= fpga_dfl_dev_attr_visible,
};
__ATTRIBUTE_GROUPS(fpga_dfl_dev);

struct bus_type fpga_dfl_bus_type = {
	.name		= "fpga_dfl",
	.match		= fpga_dfl_bus_match,
	.uevent		= fpga_dfl_bus_uevent,
	.probe		= fpga_dfl_bus_probe,
	.remove		= fpga_dfl_bus_remove,
	.dev_groups	= fpga_dfl_dev_groups,
	FPGA_COMPAT_BUS_DRIVER_OVERRIDE
};
EXPORT_SYMBOL_GPL(fpga_dfl_bus_type);

int __fpga_dfl_driver_register(struct fpga_dfl_driver *fdrv,
			       struct module *owner)
{
	if (!fdrv || !fdrv->probe)
		return -EINVAL;

	fdrv->drv.owner = owner;
	fdrv->drv.bus = &fpga_dfl_bus_type;
	return driver_register(&fdrv->drv);
}
EXPORT_SYMBOL_GPL(__fpga_dfl_driver_register);

void fpga_dfl_driver_unregister(struct fpga_dfl_driver *fdrv)
{
	driver_unregister(&fdrv->drv);
}
EXPORT_SYMBOL_GPL(fpga_dfl_driver_unregister);

static int __init fpga_dfl_init(void)
{
	int ret;

	ret = bus_register(&fpga_dfl_bus_type);
	if (ret)
		return ret;
	ret = fpga_dfl_regions_init();
	if (ret)
		goto err_bus;
	ret = fpga_dfl_nl_init();
	if (ret)
		goto err_regions;
	return 0;

err_regions:
	fpga_dfl_regions_exit();
err_bus:
	bus_unregister(&fpga_dfl_bus_type);
	return ret;
}

static void __exit fpga_dfl_exit(void)
{
	fpga_dfl_nl_exit();
	fpga_dfl_regions_exit();
	bus_unregister(&fpga_dfl_bus_type);
}

module_init(fpga_dfl_init);
module_exit(fpga_dfl_exit);

MODULE_DESCRIPTION("DFL enumeration core and fpga_dfl bus");
MODULE_LICENSE("GPL");
